import { createEndpoint, createPrompt, type PromptSpec } from '../support/endpoint-fixtures';
import { type FakeReply } from '../support/fake-llm-server';
import { connectMcp, toolJson } from '../support/mcp-client';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { logOf } from '../support/log-rows';

/**
 * Retries and fallback models through the real provider adapters against the fake provider server: what fails over
 * (429 with its Retry-After, 5xx, a dropped connection, an attempt out of time, an answer off the output fields) and
 * what does not (other provider 4xx, the service's own errors), the endpoint's timeout over all attempts, the
 * X-Model and X-Attempts headers, the log's attempts and sums, and the cache, test runs and MCP on the same loop.
 */
describe('retries and fallback models', () => {
  const { t, tenant, fake } = useTestApp({ fake: { unconfigured: true, providers: true }, listen: true });

  const OUTPUTS = [
    { name: 'summary', dataType: 'string' },
    { name: 'score', dataType: 'integer' },
  ];
  const GOOD = '{"summary":"ok","score":3}';

  /** An endpoint with a Live default prompt of `spec` (structured output unless `outputs` is empty). */
  async function endpointWith(
    spec: Partial<PromptSpec>,
    settings: { outputs?: { name: string; dataType: string }[]; [name: string]: unknown } = {},
  ) {
    const { outputs = OUTPUTS, ...rest } = settings;
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      outputs,
      ...rest,
    });
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Summarize: {{ inputs.text }}',
      llmModel: 'gpt-4o-mini',
      ...spec,
    });
    return { ...endpoint, prompt };
  }

  const execute = (endpointPath: string, body: object = { text: 'hello' }) =>
    t.http.post(endpointPath).set(auth(tenant.endpointKey)).send(body);

  const models = () => fake.requests.map((request) => request.body?.model ?? request.path);

  describe('each provider fails over to the next model', () => {
    it.each<[string, string, string, FakeReply, string]>([
      ['OpenAI', 'gpt-4o-mini', 'claude-sonnet-4-5', { status: 503, message: 'overloaded' }, '/v1/messages'],
      ['Anthropic', 'claude-sonnet-4-5', 'gemini-2.5-flash', { status: 429, message: 'slow down' }, ':generateContent'],
      ['Google', 'gemini-2.5-flash', 'llama-test', { status: 500, message: 'internal' }, '/local/v1/chat/completions'],
      ['OpenAI-compatible', 'llama-test', 'gpt-4o-mini', { drop: true }, '/v1/responses'],
    ])('%s: %s fails, %s answers', async (_provider, primary, fallback, failure, fallbackPath) => {
      const endpoint = await endpointWith({ llmModel: primary, fallbackModels: [{ llmModel: fallback }] });
      fake.reply(failure, { text: GOOD });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ summary: 'ok', score: 3 });
      expect(res.headers['x-model']).toBe(fallback);
      expect(res.headers['x-attempts']).toBe('2');
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[1].path.endsWith(fallbackPath)).toBe(true);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log.llmModel).toBe(fallback);
      expect(log.attempts.map((a: any) => [a.llmModel, a.outcome])).toEqual([
        [primary, 'error'],
        [fallback, 'success'],
      ]);
    });

    it('the offline mock-echo model answers as a fallback, with its own settings', async () => {
      const endpoint = await endpointWith(
        { llmModel: 'gpt-4o-mini', fallbackModels: [{ llmModel: 'mock-echo', maxTokens: 10 }] },
        { outputs: [] },
      );
      fake.reply({ status: 500, message: 'internal' });
      const res = await execute(endpoint.path, { text: 'offline' });
      expect(res.status).toBe(200);
      expect(res.body).toBe('Summarize: offline');
      expect([res.headers['x-model'], res.headers['x-attempts']]).toEqual(['mock-echo', '2']);
      expect(fake.requests).toHaveLength(1);
    });

    it('an image endpoint fails over too (OpenAI images to mock-echo)', async () => {
      const endpoint = await endpointWith(
        { llmModel: 'gpt-image-1', fallbackModels: [{ llmModel: 'mock-echo' }] },
        { outputs: [{ name: 'image', dataType: 'image' }] },
      );
      fake.reply({ status: 503, message: 'busy' });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(200);
      expect(res.body.generatedImages).toHaveLength(1);
      expect(res.headers['x-model']).toBe('mock-echo');
      expect(fake.requests[0].route).toBe('openai.images');
    });
  });

  describe('what fails over', () => {
    it('a 429 is retried after its Retry-After, on the same model', async () => {
      const endpoint = await endpointWith({ retries: 1 }, { timeoutSeconds: 10 });
      fake.reply({ status: 429, message: 'rate limited', retryAfter: '1' }, { text: GOOD });
      const started = Date.now();
      const res = await execute(endpoint.path);
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(models()).toEqual(['gpt-4o-mini', 'gpt-4o-mini']);
      expect([res.headers['x-model'], res.headers['x-attempts']]).toEqual(['gpt-4o-mini', '2']);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log.attempts[0]).toMatchObject({ outcome: 'error', httpStatus: 429 });
    });

    it('a Retry-After that does not fit in the time left skips to the fallback without waiting', async () => {
      const endpoint = await endpointWith(
        { retries: 2, fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] },
        { timeoutSeconds: 5 },
      );
      fake.reply({ status: 429, message: 'rate limited', retryAfter: '30' }, { text: GOOD });
      const started = Date.now();
      const res = await execute(endpoint.path);
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(models()).toEqual(['gpt-4o-mini', 'claude-sonnet-4-5']);
    });

    it.each<[string, FakeReply]>([
      ['500', { status: 500, message: 'internal' }],
      ['503', { status: 503, message: 'unavailable' }],
      ['a dropped connection', { drop: true }],
      ['an answer off the output fields', { text: '{"summary":"ok","score":"three"}' }],
      ['an answer that is not JSON', { text: 'Sure! Here is the summary.' }],
    ])('%s is retried', async (_name, failure) => {
      const endpoint = await endpointWith({ retries: 1 });
      fake.reply(failure, { text: GOOD });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ summary: 'ok', score: 3 });
      expect([res.headers['x-model'], res.headers['x-attempts']]).toEqual(['gpt-4o-mini', '2']);
    });

    it('an attempt out of time fails over within the endpoint timeout, the hanging call abandoned', async () => {
      const endpoint = await endpointWith(
        { fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] },
        { timeoutSeconds: 4 },
      );
      fake.reply({ text: GOOD, delayMs: 60_000 }, { text: GOOD });
      const started = Date.now();
      const res = await execute(endpoint.path);
      const elapsed = Date.now() - started;
      expect(res.status).toBe(200);
      expect(res.headers['x-model']).toBe('claude-sonnet-4-5');
      // The first model had half of the 4 s (two models to try), the fallback answered at once.
      expect(elapsed).toBeGreaterThanOrEqual(1900);
      expect(elapsed).toBeLessThan(3500);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log.attempts[0]).toMatchObject({ llmModel: 'gpt-4o-mini', outcome: 'timeout', httpStatus: 504 });
      expect(log.attempts[0].latencyMs).toBeGreaterThanOrEqual(1900);
    });
  });

  describe('what does not fail over', () => {
    it.each([400, 401, 403, 404, 422])('a provider %i is the answer at once (502), with one attempt', async (code) => {
      const endpoint = await endpointWith({ retries: 3, fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] });
      fake.reply({ status: code, message: 'bad request' });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(502);
      expect(res.body.error).toBe('upstream_error');
      expect(fake.requests).toHaveLength(1);
      expect([res.headers['x-model'], res.headers['x-attempts']]).toEqual(['gpt-4o-mini', '1']);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log.attempts).toEqual([expect.objectContaining({ outcome: 'error', httpStatus: code })]);
    });

    it("the service's own error (a provider not configured) is not failed over, and no attempt is made", async () => {
      const endpoint = await endpointWith({ llmModel: 'keyless-model', fallbackModels: [{ llmModel: 'mock-echo' }] });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(502);
      expect(res.body.message).toContain('not configured');
      expect(fake.requests).toHaveLength(0);
      expect(res.headers['x-attempts']).toBeUndefined();
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log).toMatchObject({ status: 'error', attempts: [] });
    });

    it('a failing fallback model whose provider is not configured ends the loop with that error', async () => {
      const endpoint = await endpointWith({
        fallbackModels: [{ llmModel: 'keyless-model' }, { llmModel: 'mock-echo' }],
      });
      fake.reply({ status: 503, message: 'busy' });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(502);
      expect(res.body.message).toContain('not configured');
      expect(res.headers['x-attempts']).toBe('1');
    });

    it('without retries or fallback models a 503 is the answer (502), as before', async () => {
      const endpoint = await endpointWith({});
      fake.reply({ status: 503, message: 'busy' }, { text: GOOD });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(502);
      expect(fake.requests).toHaveLength(1);
    });
  });

  describe('the endpoint timeout bounds all attempts', () => {
    it('stops retrying when less than a second is left; the last failure is the answer (502)', async () => {
      const endpoint = await endpointWith(
        { retries: 3, fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] },
        {
          timeoutSeconds: 2,
        },
      );
      const slowFailure: FakeReply = { status: 500, message: 'internal', delayMs: 600 };
      fake.reply(slowFailure, slowFailure, slowFailure, slowFailure, slowFailure);
      const started = Date.now();
      const res = await execute(endpoint.path);
      const elapsed = Date.now() - started;
      expect(res.status).toBe(502);
      // Attempts at 0 and 0.6 s; at 1.2 s less than a second is left: no third.
      expect(fake.requests).toHaveLength(2);
      expect(res.headers['x-attempts']).toBe('2');
      expect(elapsed).toBeLessThan(2000);
    });

    it('past the deadline the answer is 504, every attempt logged as a timeout', async () => {
      const endpoint = await endpointWith(
        { fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] },
        {
          timeoutSeconds: 3,
        },
      );
      fake.reply({ text: GOOD, delayMs: 60_000 }, { text: GOOD, delayMs: 60_000 });
      const started = Date.now();
      const res = await execute(endpoint.path);
      const elapsed = Date.now() - started;
      expect(res.status).toBe(504);
      expect(res.body.error).toBe('timeout');
      expect(elapsed).toBeGreaterThanOrEqual(2900);
      expect(elapsed).toBeLessThan(4000);
      expect([res.headers['x-model'], res.headers['x-attempts']]).toEqual(['claude-sonnet-4-5', '2']);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log).toMatchObject({ httpStatus: 504, errorCode: 'timeout', llmModel: 'claude-sonnet-4-5' });
      expect(log.attempts.map((a: any) => a.outcome)).toEqual(['timeout', 'timeout']);
    });
  });

  it('the log keeps every attempt with its model, latency, outcome, status, error, tokens and cost; the row sums them', async () => {
    const endpoint = await endpointWith({
      retries: 1,
      fallbackModels: [{ llmModel: 'claude-sonnet-4-5', temperature: 0.1 }],
    });
    fake.reply(
      { text: '{"summary":1}', inputTokens: 100, outputTokens: 10 },
      { status: 503, message: 'overloaded' },
      { text: GOOD, inputTokens: 200, outputTokens: 20 },
    );
    const res = await execute(endpoint.path);
    expect(res.status).toBe(200);
    expect([res.headers['x-model'], res.headers['x-attempts']]).toEqual(['claude-sonnet-4-5', '3']);
    expect(fake.requests[2].body).toMatchObject({ model: 'claude-sonnet-4-5', temperature: 0.1 });
    const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
    expect(log.attempts).toEqual([
      {
        llmModel: 'gpt-4o-mini',
        latencyMs: expect.any(Number),
        outcome: 'error',
        httpStatus: 502,
        errorMessage: expect.stringContaining('does not match the output fields'),
        inputTokens: 100,
        outputTokens: 10,
        costUsd: expect.any(Number),
      },
      {
        llmModel: 'gpt-4o-mini',
        latencyMs: expect.any(Number),
        outcome: 'error',
        httpStatus: 503,
        errorMessage: expect.stringContaining('server error (503)'),
        inputTokens: null,
        outputTokens: null,
        costUsd: null,
      },
      {
        llmModel: 'claude-sonnet-4-5',
        latencyMs: expect.any(Number),
        outcome: 'success',
        httpStatus: null,
        errorMessage: null,
        inputTokens: 200,
        outputTokens: 20,
        costUsd: expect.any(Number),
      },
    ]);
    expect(log).toMatchObject({ status: 'success', llmModel: 'claude-sonnet-4-5', inputTokens: 300, outputTokens: 30 });
    expect(log.costUsd).toBeCloseTo(log.attempts[0].costUsd + log.attempts[2].costUsd, 12);
    expect(log.attempts[0].costUsd).toBeGreaterThan(0);
    // The list row carries the sums and the answering model too.
    const list = await t.http.get(`/admin/v1/logs?endpointId=${endpoint.id}`).set(auth(tenant.admin));
    expect(list.body.data.items[0]).toMatchObject({ llmModel: 'claude-sonnet-4-5', inputTokens: 300 });
  });

  it("a fallback's answer is not cached; the prompt's own model's answer is", async () => {
    const endpoint = await endpointWith(
      { fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] },
      { cacheEnabled: true, cacheDurationSeconds: 60 },
    );
    fake.reply({ status: 500, message: 'internal' }, { text: '{"summary":"fallback","score":1}' });
    const first = await execute(endpoint.path);
    expect([first.status, first.headers['x-cache'], first.headers['x-model']]).toEqual([
      200,
      'MISS',
      'claude-sonnet-4-5',
    ]);
    fake.reply({ text: '{"summary":"primary","score":2}' });
    const second = await execute(endpoint.path);
    expect([second.body.summary, second.headers['x-cache'], second.headers['x-model']]).toEqual([
      'primary',
      'MISS',
      'gpt-4o-mini',
    ]);
    const third = await execute(endpoint.path);
    expect([third.body.summary, third.headers['x-cache']]).toEqual(['primary', 'HIT']);
    expect([third.headers['x-model'], third.headers['x-attempts']]).toEqual(['gpt-4o-mini', '0']);
    expect(fake.requests).toHaveLength(3);
  });

  it('test runs fail over the same way and report the model that answered', async () => {
    const endpoint = await endpointWith({ fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] });
    fake.reply({ status: 429, message: 'slow down' }, { text: GOOD });
    const res = await t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/test`)
      .set(auth(tenant.admin))
      .send({ promptId: endpoint.prompt.id, inputs: { text: 'hello' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ output: { summary: 'ok', score: 3 }, llmModel: 'claude-sonnet-4-5' });
    const log = (await t.http.get(`/admin/v1/logs/${res.body.data.logId}`).set(auth(tenant.admin))).body.data;
    expect(log.attempts.map((a: any) => a.llmModel)).toEqual(['gpt-4o-mini', 'claude-sonnet-4-5']);
  });

  it('MCP prompt tools carry retries and fallback models, validated as REST validates them', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {});
    const client = await connectMcp(await t.app.getUrl(), tenant.admin);
    try {
      const { tools } = await client.listTools();
      const create = tools.find((tool) => tool.name === 'create_prompt')!;
      const properties = create.inputSchema.properties as Record<string, any>;
      expect(properties.retries).toMatchObject({ type: 'integer', minimum: 0, maximum: 3 });
      expect(properties.fallbackModels).toMatchObject({ type: 'array', maxItems: 3 });
      expect(properties.fallbackModels.items).toMatchObject({
        type: 'object',
        required: ['llmModel'],
        properties: { llmModel: { type: 'string' }, temperature: { type: 'number', minimum: 0, maximum: 2 } },
      });
      const update = tools.find((tool) => tool.name === 'update_prompt')!;
      expect((update.inputSchema.properties as Record<string, any>).fallbackModels.items.required).toEqual([
        'llmModel',
      ]);

      const fallbackModels = [{ llmModel: 'claude-sonnet-4-5', temperature: 0.3 }];
      const created = await client.callTool({
        name: 'create_prompt',
        arguments: {
          endpointId: endpoint.id,
          name: 'Via MCP',
          template: 'x',
          llmModel: 'gpt-4o-mini',
          retries: 1,
          fallbackModels,
        },
      });
      expect(created.isError).toBeFalsy();
      expect(toolJson(created)).toMatchObject({ retries: 1, fallbackModels });
      const refused = await client.callTool({
        name: 'create_prompt',
        arguments: {
          endpointId: endpoint.id,
          name: 'Refused',
          template: 'x',
          llmModel: 'gpt-4o-mini',
          fallbackModels: [{ llmModel: 'no-such-model' }],
        },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('fallbackModels.0.llmModel');
    } finally {
      await client.close();
    }
  });

  it('MCP run_endpoint fails over the same way', async () => {
    const endpoint = await endpointWith({ fallbackModels: [{ llmModel: 'mock-echo' }] }, { outputs: [] });
    fake.reply({ status: 502, message: 'bad gateway' });
    const client = await connectMcp(await t.app.getUrl(), tenant.admin);
    try {
      const result = await client.callTool({
        name: 'run_endpoint',
        arguments: { endpointId: endpoint.id, inputs: { text: 'via mcp' } },
      });
      expect(result.isError).toBeFalsy();
      expect(toolJson(result)).toEqual({ output: 'Summarize: via mcp' });
      expect(fake.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
