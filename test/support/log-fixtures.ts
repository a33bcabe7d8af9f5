import { randomUUID } from 'node:crypto';
import type { NewExecutionLog } from '../../src/modules/logs/new-execution-log';
import { auth, SeededTenant } from './seed';
import type { TestApp } from './test-app';

/** An endpoint created through the admin API (execution logs reference one). */
export async function createEndpoint(t: TestApp, tenant: SeededTenant, name: string): Promise<string> {
  const res = await t.http
    .post('/admin/v1/endpoints')
    .set(auth(tenant.admin))
    .send({ name, path: `/api/v1/${name}-${randomUUID().slice(0, 8)}` });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** A complete log row with plausible values; tests override what they check. */
export function logEntry(tenantId: string, endpointId: string, values: Partial<NewExecutionLog> = {}): NewExecutionLog {
  return {
    tenantId,
    endpointId,
    promptId: null,
    promptVersion: null,
    source: 'Api',
    keyId: randomUUID(),
    keyEnvironment: 'live',
    requestId: randomUUID(),
    status: 'success',
    httpStatus: 200,
    errorCode: null,
    errorMessage: null,
    cached: false,
    llmModel: 'mock-echo',
    inputTokens: 10,
    outputTokens: 5,
    costUsd: 0,
    latencyMs: 42,
    inputs: { text: 'hello' },
    renderedPrompt: 'Say hello',
    rawResponse: 'hello',
    parsedOutput: 'hello',
    createdAt: new Date(),
    ...values,
  };
}
