import { randomUUID } from 'node:crypto';
import type { TestApp } from './test-app';
import { auth } from './seed';

export interface FieldSpec {
  name: string;
  dataType: string;
  [setting: string]: unknown;
}

export interface PromptSpec {
  name?: string;
  template: string;
  llmModel?: string;
  temperature?: number;
  maxTokens?: number;
  customParameters?: Record<string, unknown>;
  retries?: number;
  fallbackModels?: { llmModel: string; temperature?: number; maxTokens?: number; customParameters?: object }[];
}

let sequence = 0;

/** Creates an endpoint with its fields through the admin API; returns its id and path. */
export async function createEndpoint(
  t: TestApp,
  adminKey: string,
  options: { path?: string; inputs?: FieldSpec[]; outputs?: FieldSpec[]; [setting: string]: unknown } = {},
): Promise<{ id: string; path: string }> {
  const { inputs = [], outputs = [], ...settings } = options;
  const path = settings.path ?? `/api/v1/e${++sequence}-${Date.now().toString(36)}`;
  const created = await t.http
    .post('/admin/v1/endpoints')
    .set(auth(adminKey))
    .send({ name: `Endpoint ${path}`, ...settings, path });
  if (created.status !== 201) throw new Error(`endpoint create: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.data.id as string;
  for (const field of inputs) await addField(t, adminKey, id, 'input-fields', field);
  for (const field of outputs) await addField(t, adminKey, id, 'output-fields', field);
  return { id, path };
}

async function addField(
  t: TestApp,
  adminKey: string,
  endpointId: string,
  kind: string,
  field: FieldSpec,
): Promise<void> {
  const response = await t.http.post(`/admin/v1/endpoints/${endpointId}/${kind}`).set(auth(adminKey)).send(field);
  if (response.status !== 201) throw new Error(`${kind} create: ${response.status} ${JSON.stringify(response.body)}`);
}

/** Creates a prompt; `state` Live promotes it, `default` also makes it the endpoint's default. Returns the prompt. */
export async function createPrompt(
  t: TestApp,
  adminKey: string,
  endpointId: string,
  spec: PromptSpec,
  state: 'Draft' | 'Live' | 'default' = 'default',
): Promise<{ id: string; name: string; slug: string }> {
  const created = await t.http
    .post('/admin/v1/prompts')
    .set(auth(adminKey))
    .send({ name: `Prompt ${++sequence}`, llmModel: 'mock-echo', ...spec, endpointId });
  if (created.status !== 201) throw new Error(`prompt create: ${created.status} ${JSON.stringify(created.body)}`);
  const prompt = created.body.data;
  if (state !== 'Draft') await lifecycle(t, adminKey, prompt.id, 'promote');
  if (state === 'default') await lifecycle(t, adminKey, prompt.id, 'set-default');
  return prompt;
}

async function lifecycle(t: TestApp, adminKey: string, promptId: string, action: string): Promise<void> {
  const response = await t.http.post(`/admin/v1/prompts/${promptId}/${action}`).set(auth(adminKey));
  if (response.status !== 200) throw new Error(`prompt ${action}: ${response.status} ${JSON.stringify(response.body)}`);
}

/** An endpoint named `name` with optional string inputs (`fields`), each create answered 201; returns its id. */
export async function endpointWithInputs(t: TestApp, key: string, name: string, fields: string[]): Promise<string> {
  const res = await t.http
    .post('/admin/v1/endpoints')
    .set(auth(key))
    .send({ name, path: `/api/v1/e-${randomUUID().slice(0, 8)}` });
  expect(res.status).toBe(201);
  for (const field of fields) {
    const created = await t.http
      .post(`/admin/v1/endpoints/${res.body.data.id}/input-fields`)
      .set(auth(key))
      .send({ name: field, dataType: 'string', isRequired: false });
    expect(created.status).toBe(201);
  }
  return res.body.data.id;
}

/** A Draft prompt of mock-echo with a fresh name (`body` sets the rest), created 201; returns it as answered. */
export async function draftPrompt(t: TestApp, key: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.http
    .post('/admin/v1/prompts')
    .set(auth(key))
    .send({ name: `p-${randomUUID().slice(0, 8)}`, llmModel: 'mock-echo', ...body });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** An endpoint with one optional string input, `text`, whose default prompt is `template` (`spec` sets the rest). */
export async function textEndpoint(
  t: TestApp,
  adminKey: string,
  template: string,
  spec: Omit<PromptSpec, 'template'> = {},
): Promise<{ id: string; path: string }> {
  const endpoint = await createEndpoint(t, adminKey, { inputs: [{ name: 'text', dataType: 'string' }] });
  await createPrompt(t, adminKey, endpoint.id, { ...spec, template });
  return endpoint;
}

/** The input most endpoints under test take: one required string, `text`. */
const TEXT_INPUT: FieldSpec[] = [{ name: 'text', dataType: 'string', isRequired: true }];

/**
 * An endpoint (`options` as for createEndpoint, with the required `text` input unless `inputs` says otherwise) and
 * its prompt `spec` in `state` (the endpoint's default unless given).
 */
export async function endpointWithPrompt(
  t: TestApp,
  adminKey: string,
  spec: PromptSpec,
  options: Parameters<typeof createEndpoint>[2] = {},
  state: 'Draft' | 'Live' | 'default' = 'default',
): Promise<{ endpoint: { id: string; path: string }; prompt: { id: string; name: string; slug: string } }> {
  const endpoint = await createEndpoint(t, adminKey, { inputs: TEXT_INPUT, ...options });
  return { endpoint, prompt: await createPrompt(t, adminKey, endpoint.id, spec, state) };
}
