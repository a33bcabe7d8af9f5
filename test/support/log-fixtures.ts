import { randomUUID } from 'node:crypto';
import type { NewExecutionLog } from '../../src/modules/logs/new-execution-log';
import { createEndpoint as createAdminEndpoint } from './endpoint-fixtures';
import type { SeededTenant } from './seed';
import type { TestApp } from './test-app';

/** An endpoint created through the admin API (execution logs reference one); returns its id. */
export async function createEndpoint(t: TestApp, tenant: SeededTenant, name: string): Promise<string> {
  return (await createAdminEndpoint(t, tenant.admin, { name })).id;
}

/** A complete log row with plausible values; tests override what they check. */
export function logEntry(tenantId: string, endpointId: string, values: Partial<NewExecutionLog> = {}): NewExecutionLog {
  return {
    tenantId,
    endpointId,
    promptId: null,
    promptVersion: null,
    assignment: null,
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
    streamed: false,
    ttftMs: null,
    finishReason: null,
    inputs: { text: 'hello' },
    renderedPrompt: 'Say hello',
    rawResponse: 'hello',
    parsedOutput: 'hello',
    attempts: [],
    tags: {},
    createdAt: new Date(),
    ...values,
  };
}
