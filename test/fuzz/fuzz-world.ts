import { randomUUID } from 'node:crypto';
import type { AppConfig } from '../../src/config/app-config';
import { AppLogger } from '../../src/common/logging/app-logger';
import { KeysService } from '../../src/modules/keys/keys.service';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { TenantsService } from '../../src/modules/tenants/tenants.service';
import { FAKE_PNG, fakeProviderEnv, FakeLlmServer, localModelsFile } from '../support/fake-llm-server';
import { createTestApp, TestApp } from '../support/test-app';
import { type Resolve, Ref, toJsonText } from './json-text';
import { RawHttpClient, RawResponse, SentRequest } from './raw-http';
import { checkResponse, describeRequest } from './response-properties';

export const PNG_DATA_URI = `data:image/png;base64,${FAKE_PNG}`;

/** Limits no fuzz run reaches, so every case gets past rate limiting to the code under test. */
const UNREACHED_LIMITS = { rateLimitPerMinute: 1_000_000, rateLimitPerHour: 1_000_000, rateLimitPerDay: 1_000_000 };

export interface TenantKeys {
  id: string;
  slug: string;
  readWrite: string;
  readOnly: string;
  endpoint: string;
}

/**
 * The application under fuzzing and its fixtures: the real app on the test database, the fake provider server behind
 * OpenAI's models (mock-echo needs none), two tenants with a key of each kind, and a known-good endpoint and prompt in
 * the first that no case targets, to check the service still works after a run. Cases name fixtures with `Ref`s
 * (`endpoint`, `other.prompt`, `key.readWrite` …), resolved here when a request is built.
 */
export class FuzzWorld {
  readonly refs = new Map<string, string>();
  known!: { endpointId: string; path: string };
  /** What the service logged at level error since the last health check. */
  private readonly loggedErrors: { message: unknown; fields: Record<string, unknown> }[] = [];
  /** The latest requests by the X-Request-Id of their answer, to say which one an error log line belongs to. */
  private readonly recent = new Map<string, string>();
  /** How many answers of each status since the last health check (printed with FUZZ_STATS=1). */
  private readonly statuses = new Map<number, number>();
  private modelsFile?: { remove(): void };

  private constructor(
    readonly t: TestApp,
    readonly fake: FakeLlmServer,
    readonly client: RawHttpClient,
    readonly tenant: TenantKeys,
    readonly other: TenantKeys,
  ) {}

  /**
   * With `everyProvider`, Anthropic's and Google's models and the OpenAI-compatible `llama-test` are answered by the
   * fake provider too (each in its own wire format); otherwise OpenAI's alone.
   */
  static async create(
    overrides: Partial<AppConfig> = {},
    options: { everyProvider?: boolean } = {},
  ): Promise<FuzzWorld> {
    const fake = await FakeLlmServer.start();
    const models = options.everyProvider ? localModelsFile(fake) : undefined;
    const t = await createTestApp(
      { adminRateLimitPerMinute: 1_000_000_000, ...overrides },
      models
        ? { ...fakeProviderEnv(fake), MODELS_FILE: models.file }
        : { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: `${fake.url}/v1` },
    );
    const client = await RawHttpClient.listen(t.app.getHttpServer());
    const world = new FuzzWorld(t, fake, client, await seedTenant(t), await seedTenant(t));
    world.modelsFile = models;
    const logger = t.app.get(AppLogger);
    const write = logger.write.bind(logger);
    logger.write = (level, message, fields = {}) => {
      if (level === 'error') world.loggedErrors.push({ message, fields });
      write(level, message, fields);
    };
    for (const [prefix, keys] of [
      ['', world.tenant],
      ['other.', world.other],
    ] as const) {
      world.refs.set(`${prefix}key.readWrite`, keys.readWrite);
      world.refs.set(`${prefix}key.readOnly`, keys.readOnly);
      world.refs.set(`${prefix}key.endpoint`, keys.endpoint);
      world.refs.set(`${prefix}tenant.slug`, keys.slug);
    }
    const known = await world.createEndpoint(world.tenant, {
      name: 'known good',
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    await world.createPrompt(world.tenant, known.id, { template: 'Known: {{ inputs.text }}' });
    world.known = { endpointId: known.id, path: known.path };
    return world;
  }

  async close(): Promise<void> {
    this.client.close();
    await this.t.close();
    await this.fake.close();
    this.modelsFile?.remove();
  }

  readonly resolve: Resolve = (ref: Ref) => {
    const value = this.refs.get(ref.name);
    if (value === undefined) throw new Error(`No fixture named ${ref.name}`);
    return value;
  };

  /** Sends a request and checks the answer against the properties every answer has. */
  async send(request: SentRequest): Promise<RawResponse> {
    const response = await this.client.send(request);
    this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
    const requestId = response.headers['x-request-id'];
    if (typeof requestId === 'string') {
      this.recent.set(requestId, describeRequest(request));
      if (this.recent.size > 2_000) this.recent.delete(this.recent.keys().next().value!);
    }
    checkResponse(request, response);
    return response;
  }

  /** A JSON request of the setup, which must succeed. */
  async admin(keys: TenantKeys, method: string, target: string, body?: unknown): Promise<any> {
    const request: SentRequest = {
      method,
      target,
      headers: { 'x-api-key': keys.readWrite, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : toJsonText(body, this.resolve),
    };
    const response = await this.send(request);
    if (response.status >= 300) throw new Error(`setup ${method} ${target}: ${response.status} ${response.text}`);
    return (response.json as { data: unknown }).data;
  }

  async createEndpoint(
    keys: TenantKeys,
    settings: { name: string; inputs?: object[]; outputs?: object[]; [setting: string]: unknown },
  ): Promise<{ id: string; path: string; inputFieldIds: string[]; outputFieldIds: string[] }> {
    const { inputs = [], outputs = [], ...rest } = settings;
    const path = `/api/v1/fz-${randomUUID().slice(0, 13)}`;
    const endpoint = await this.admin(keys, 'POST', '/admin/v1/endpoints', { path, ...rest });
    const inputFieldIds: string[] = [];
    const outputFieldIds: string[] = [];
    for (const field of inputs)
      inputFieldIds.push((await this.admin(keys, 'POST', `/admin/v1/endpoints/${endpoint.id}/input-fields`, field)).id);
    for (const field of outputs)
      outputFieldIds.push(
        (await this.admin(keys, 'POST', `/admin/v1/endpoints/${endpoint.id}/output-fields`, field)).id,
      );
    return { id: endpoint.id, path, inputFieldIds, outputFieldIds };
  }

  /** A prompt of the endpoint: Live and the default unless `state` says otherwise. */
  async createPrompt(
    keys: TenantKeys,
    endpointId: string,
    spec: { template: string; name?: string; llmModel?: string; [setting: string]: unknown },
    state: 'Draft' | 'Live' | 'default' = 'default',
  ): Promise<{ id: string; slug: string }> {
    const prompt = await this.admin(keys, 'POST', '/admin/v1/prompts', {
      name: `Prompt ${randomUUID().slice(0, 8)}`,
      llmModel: 'mock-echo',
      ...spec,
      endpointId,
    });
    if (state !== 'Draft') await this.admin(keys, 'POST', `/admin/v1/prompts/${prompt.id}/promote`);
    if (state === 'default') await this.admin(keys, 'POST', `/admin/v1/prompts/${prompt.id}/set-default`);
    return prompt;
  }

  /**
   * Fresh fixtures for cases to read, change and delete, in one tenant (`prefix` '' or 'other.'): an endpoint with an
   * input and an output field, a Live default prompt with two versions, a Draft prompt, an endpoint key and an
   * execution log row.
   */
  async createScratch(prefix: '' | 'other.' = ''): Promise<void> {
    const keys = prefix === '' ? this.tenant : this.other;
    const endpoint = await this.createEndpoint(keys, {
      name: 'scratch',
      inputs: [{ name: 'text', dataType: 'string' }],
      outputs: [{ name: 'answer', dataType: 'string' }],
    });
    const prompt = await this.createPrompt(keys, endpoint.id, { template: 'Scratch: {{ inputs.text }}' });
    await this.admin(keys, 'PUT', `/admin/v1/prompts/${prompt.id}`, {
      template: 'Scratch v2: {{ inputs.text }}',
      changeNotes: 'second version',
    });
    const draft = await this.createPrompt(keys, endpoint.id, { template: 'Draft: {{ inputs.text }}' }, 'Draft');
    const key = await this.admin(keys, 'POST', '/admin/v1/keys', { name: 'scratch', type: 'endpoint' });
    const run = await this.admin(keys, 'POST', `/admin/v1/endpoints/${endpoint.id}/test`, {
      promptId: prompt.id,
      inputs: { text: 'hi' },
    });
    this.refs.set(`${prefix}endpoint`, endpoint.id);
    this.refs.set(`${prefix}endpoint.path`, endpoint.path);
    this.refs.set(`${prefix}inputField`, endpoint.inputFieldIds[0]);
    this.refs.set(`${prefix}outputField`, endpoint.outputFieldIds[0]);
    this.refs.set(`${prefix}prompt`, prompt.id);
    this.refs.set(`${prefix}draftPrompt`, draft.id);
    this.refs.set(`${prefix}key`, key.id);
    const logId = run.logId ?? (await this.latestLogId(keys, endpoint.id));
    this.refs.set(`${prefix}log`, logId);
    // The request id of that run: GET /admin/v1/logs?requestId= finds its row.
    this.refs.set(`${prefix}request`, (await this.admin(keys, 'GET', `/admin/v1/logs/${logId}`)).requestId);
  }

  private async latestLogId(keys: TenantKeys, endpointId: string): Promise<string> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const page = await this.admin(keys, 'GET', `/admin/v1/logs?endpointId=${endpointId}&pageSize=1`);
      const rows = (page.items ?? page) as { id: string }[];
      if (rows.length > 0) return rows[0].id;
      if (Date.now() > deadline) throw new Error('The scratch execution was never logged');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * The service still works: /health answers 200 in time, a known-good admin read and execution succeed, no request
   * polluted Object.prototype (the app runs in this process), and nothing was logged as an error (an unexpected
   * failure, an execution log the database refused) once every queued execution log is written.
   */
  async checkHealthy(): Promise<void> {
    if (process.env.FUZZ_STATS) {
      const counts = [...this.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
      process.stdout.write(`${expect.getState().currentTestName}: ${counts.join(' ')}\n`);
    }
    this.statuses.clear();
    await this.t.app.get(ExecutionLogsService).flush();
    if (this.loggedErrors.length > 0) {
      const lines = this.loggedErrors.splice(0).map(({ message, fields }) => {
        const request = typeof fields.requestId === 'string' ? this.recent.get(fields.requestId) : undefined;
        return `${String(message)} ${JSON.stringify({ ...fields, stack: undefined })}${request ? `\n    after ${request}` : ''}`;
      });
      throw new Error(`The service logged errors:\n  ${lines.join('\n  ')}`);
    }
    const health = await this.client.send({ method: 'GET', target: '/health', headers: {} }, 5_000);
    if (health.status !== 200) throw new Error(`GET /health answered ${health.status} ${health.text}`);
    const read = await this.send({
      method: 'GET',
      target: `/admin/v1/endpoints/${this.known.endpointId}`,
      headers: { 'x-api-key': this.tenant.readWrite },
    });
    if (read.status !== 200) throw new Error(`The known-good admin read answered ${read.status} ${read.text}`);
    const execution = await this.send({
      method: 'POST',
      target: this.known.path,
      headers: { 'x-api-key': this.tenant.endpoint, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'still alive' }),
    });
    if (execution.status !== 200 || execution.json !== 'Known: still alive') {
      throw new Error(`The known-good execution answered ${execution.status} ${execution.text}`);
    }
    const polluted = Object.keys(Object.prototype).concat(Object.keys(Array.prototype));
    if (polluted.length > 0 || ({} as Record<string, unknown>).polluted !== undefined) {
      throw new Error(`Object.prototype was polluted: ${polluted.join(', ')}`);
    }
  }
}

/** A tenant with a ReadWrite and a ReadOnly admin key and an endpoint key, none of them ever rate limited. */
async function seedTenant(t: TestApp): Promise<TenantKeys> {
  const slug = `fz-${randomUUID().slice(0, 12)}`;
  const tenant = await t.app.get(TenantsService).create(slug, { plan: 'enterprise' });
  const keys = t.app.get(KeysService);
  const readWrite = await keys.create(tenant.id, {
    name: 'fuzz admin',
    type: 'admin',
    permission: 'ReadWrite',
    ...UNREACHED_LIMITS,
  });
  const readOnly = await keys.create(tenant.id, {
    name: 'fuzz reader',
    type: 'admin',
    permission: 'ReadOnly',
    ...UNREACHED_LIMITS,
  });
  const endpoint = await keys.create(tenant.id, {
    name: 'fuzz caller',
    type: 'endpoint',
    environment: 'live',
    ...UNREACHED_LIMITS,
  });
  return { id: tenant.id, slug, readWrite: readWrite.key, readOnly: readOnly.key, endpoint: endpoint.key };
}

/**
 * The hooks of every fuzz file: after each test the fake LLM server forgets its requests and the service must still be
 * healthy; after the file the world is closed.
 */
export function checkTheWorld(world: () => FuzzWorld | undefined): void {
  afterAll(async () => {
    await world()?.close();
  });
  afterEach(async () => {
    world()!.fake.reset();
    await world()!.checkHealthy();
  });
}
