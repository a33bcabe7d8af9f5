import { createEndpoint, createPrompt, endpointWithPrompt } from '../support/endpoint-fixtures';
import { FAKE_PNG, FakeLlmServer } from '../support/fake-llm-server';
import { auth, SeededTenant, seedTenant } from '../support/seed';
import { createTestApp, TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';
import { logRows } from '../support/log-rows';
import { UUID } from '../support/envelope';

/**
 * POST /admin/v1/endpoints/{id}/test answers what the dashboard's test runner shows: the execution body as `output`,
 * the rendered prompt, the prompt version and model that ran, tokens, cost, latency, and the id of its log row, which
 * GET /admin/v1/logs/{id} finds as soon as the answer arrives. Failures answer the execution error in the envelope.
 */
describe('test runs (POST /admin/v1/endpoints/{id}/test)', () => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let tenant: SeededTenant;
  /** gpt-4o-mini's prices from the model catalog the service answers. */
  let price: { inputPerMillionTokens: number; outputPerMillionTokens: number };

  beforeAll(async () => {
    fake = await FakeLlmServer.start();
    t = await createTestApp({}, { OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: `${fake.url}/v1` });
    tenant = await seedTenant(t.app);
    const models = await t.http.get('/admin/v1/prompts/models').set(auth(tenant.admin));
    const list: any[] = models.body.data.items ?? models.body.data;
    price = list.find((model) => model.id === 'gpt-4o-mini').pricing;
    expect(price.inputPerMillionTokens).toBeGreaterThan(0);
    expect(price.outputPerMillionTokens).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  const testRun = (endpointId: string, body: unknown, key = tenant.admin) =>
    t.http
      .post(`/admin/v1/endpoints/${endpointId}/test`)
      .set(auth(key))
      .send(body as object);
  /** An endpoint with the required `text` input (and `options`) and its default prompt `template` on gpt-4o-mini. */
  const gptEndpoint = (template: string, options: Record<string, unknown> = {}) =>
    endpointWithPrompt(t, tenant.admin, { template, llmModel: 'gpt-4o-mini' }, options);
  const logOf = (id: string) => t.http.get(`/admin/v1/logs/${id}`).set(auth(tenant.admin));
  const costOf = (inputTokens: number, outputTokens: number) =>
    Math.round(
      ((inputTokens * price.inputPerMillionTokens + outputTokens * price.outputPerMillionTokens) / 1_000_000) * 1e9,
    ) / 1e9;

  it('a text endpoint: the output with the rendered prompt, the prompt version and model, tokens and cost from the provider, latency and the log row', async () => {
    const { endpoint, prompt } = await gptEndpoint('Summarize: {{ inputs.text }}');
    fake.reply({ text: 'A greeting.', inputTokens: 1200, outputTokens: 345 });

    const res = await testRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'hello there' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      succeeded: true,
      messages: [],
      data: {
        output: 'A greeting.',
        renderedPrompt: 'Summarize: hello there',
        renderedMessages: [{ role: 'user', content: 'Summarize: hello there' }],
        promptId: prompt.id,
        promptVersion: 1,
        unsaved: false,
        llmModel: 'gpt-4o-mini',
        usage: { inputTokens: 1200, outputTokens: 345 },
        costUsd: costOf(1200, 345),
        latencyMs: expect.any(Number),
        logId: expect.stringMatching(UUID),
      },
    });
    expect(Object.keys(res.body.data)).toEqual([
      'output',
      'renderedPrompt',
      'renderedMessages',
      'promptId',
      'promptVersion',
      'unsaved',
      'llmModel',
      'usage',
      'costUsd',
      'latencyMs',
      'logId',
    ]);
    expect(res.headers['x-log-id']).toBe(res.body.data.logId);
    expect(res.body.data.costUsd).toBeGreaterThan(0);
    expect(Number.isInteger(res.body.data.latencyMs)).toBe(true);
    expect(res.body.data.latencyMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(fake.last().body.input)).toContain('Summarize: hello there');

    // The log row says the same, and is there at once.
    const log = await logOf(res.body.data.logId);
    expect(log.status).toBe(200);
    expect(log.body.data).toMatchObject({
      id: res.body.data.logId,
      endpointId: endpoint.id,
      source: 'TestPage',
      status: 'success',
      cached: false,
      requestId: res.headers['x-request-id'],
      promptId: prompt.id,
      promptVersion: 1,
      llmModel: 'gpt-4o-mini',
      inputTokens: 1200,
      outputTokens: 345,
      costUsd: res.body.data.costUsd,
      latencyMs: res.body.data.latencyMs,
      renderedPrompt: 'Summarize: hello there',
      rawResponse: 'A greeting.',
      parsedOutput: 'A greeting.',
      inputs: { text: 'hello there' },
    });
  });

  it('a structured-output endpoint: the output is the object of its output fields', async () => {
    const { endpoint, prompt } = await gptEndpoint('Rate: {{ inputs.text }}', {
      outputs: [
        { name: 'summary', dataType: 'string' },
        { name: 'score', dataType: 'integer' },
      ],
    });
    fake.reply({ text: '{"summary":"Kind words.","score":8,"extra":"dropped"}', inputTokens: 40, outputTokens: 12 });

    const res = await testRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'thank you' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      output: { summary: 'Kind words.', score: 8 },
      renderedPrompt: 'Rate: thank you',
      renderedMessages: [{ role: 'user', content: 'Rate: thank you' }],
      promptId: prompt.id,
      promptVersion: 1,
      unsaved: false,
      llmModel: 'gpt-4o-mini',
      usage: { inputTokens: 40, outputTokens: 12 },
      costUsd: costOf(40, 12),
      latencyMs: expect.any(Number),
      logId: expect.stringMatching(UUID),
    });
    expect(fake.last().body.text.format).toMatchObject({ type: 'json_schema', strict: true });
    expect((await logOf(res.body.data.logId)).body.data).toMatchObject({
      parsedOutput: { summary: 'Kind words.', score: 8 },
      source: 'TestPage',
    });
  });

  it('a Draft prompt runs at its latest version, for ReadWrite and ReadOnly admin keys', async () => {
    const { endpoint } = await endpointWithPrompt(t, tenant.admin, { template: 'Live: {{ inputs.text }}' });
    const draft = await createPrompt(
      t,
      tenant.admin,
      endpoint.id,
      { template: 'Draft v1: {{ inputs.text }}' },
      'Draft',
    );
    const updated = await t.http
      .put(`/admin/v1/prompts/${draft.id}`)
      .set(auth(tenant.admin))
      .send({ template: 'Draft v2: {{ inputs.text }}', changeNotes: 'second' });
    expect(updated.status).toBe(200);

    for (const key of [tenant.admin, tenant.readOnly]) {
      const res = await testRun(endpoint.id, { promptId: draft.id, inputs: { text: 'hi' } }, key);
      expect(res.status).toBe(200);
      // mock-echo answers the rendered prompt, at about four characters per token, free.
      expect(res.body.data).toEqual({
        output: 'Draft v2: hi',
        renderedPrompt: 'Draft v2: hi',
        renderedMessages: [{ role: 'user', content: 'Draft v2: hi' }],
        promptId: draft.id,
        promptVersion: 2,
        unsaved: false,
        llmModel: 'mock-echo',
        usage: { inputTokens: 3, outputTokens: 3 },
        costUsd: 0,
        latencyMs: expect.any(Number),
        logId: expect.stringMatching(UUID),
      });
      const log = await logOf(res.body.data.logId);
      expect(log.body.data).toMatchObject({
        source: 'TestPage',
        promptId: draft.id,
        promptVersion: 2,
        keyEnvironment: null,
      });
    }
  });

  it('an image endpoint: the output is the image body, as the execution API answers it', async () => {
    const { endpoint, prompt } = await endpointWithPrompt(
      t,
      tenant.admin,
      { template: 'A drawing of {{ inputs.subject }}', llmModel: 'gpt-image-1' },
      {
        inputs: [{ name: 'subject', dataType: 'string', isRequired: true }],
        outputs: [{ name: 'image', dataType: 'image', exampleValue: '{"size":"1024x1024"}' }],
      },
      'Draft',
    );
    fake.reply({
      images: [{ b64: FAKE_PNG, revisedPrompt: 'A drawing of a cat, softly lit' }],
      inputTokens: 15,
      outputTokens: 4160,
    });

    const res = await testRun(endpoint.id, { promptId: prompt.id, inputs: { subject: 'a cat' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      output: {
        generatedImages: [{ base64Data: FAKE_PNG, revisedPrompt: 'A drawing of a cat, softly lit' }],
        usage: { inputTokens: 15, outputTokens: 4160 },
      },
      renderedPrompt: 'A drawing of a cat',
      promptId: prompt.id,
      promptVersion: 1,
      llmModel: 'gpt-image-1',
      usage: { inputTokens: 15, outputTokens: 4160 },
    });
    const log = (await logOf(res.body.data.logId)).body.data;
    expect(log).toMatchObject({ source: 'TestPage', inputTokens: 15, outputTokens: 4160 });
    expect(res.body.data.costUsd).toBe(log.costUsd);
  });

  it('never answers from the response cache nor stores in it: each run calls the model and is logged with cached false', async () => {
    const { endpoint, prompt } = await gptEndpoint('Cache: {{ inputs.text }}', { cacheEnabled: true });
    const execute = () => t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: 'same' });

    // A test run first: nothing is stored, so the execution API then misses.
    fake.reply({ text: 'from the test run', inputTokens: 7, outputTokens: 3 });
    const first = await testRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'same' } });
    expect(first.status).toBe(200);
    fake.reply({ text: 'stored by the API', inputTokens: 9, outputTokens: 4 });
    const miss = await execute();
    expect(miss.headers['x-cache']).toBe('MISS');
    expect(miss.body).toBe('stored by the API');
    const hit = await execute();
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.body).toBe('stored by the API');

    // The entry the execution API stored is not what a test run answers: it calls the model again.
    fake.reply({ text: 'fresh', inputTokens: 5, outputTokens: 2 });
    const second = await testRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'same' } });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({
      output: 'fresh',
      renderedPrompt: 'Cache: same',
      usage: { inputTokens: 5, outputTokens: 2 },
      costUsd: costOf(5, 2),
    });
    expect(fake.requests).toHaveLength(3);
    for (const run of [first, second])
      expect((await logOf(run.body.data.logId)).body.data).toMatchObject({ cached: false, source: 'TestPage' });
  });

  it('the log id of every run of a burst finds its row right after the answer', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'n', dataType: 'integer', isRequired: true }],
    });
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'Run {{ inputs.n }}' }, 'Draft');
    // Each run's row is read as soon as its answer arrives, while the other runs are still being answered and logged.
    const runs = await Promise.all(
      Array.from({ length: 8 }, async (_, n) => {
        const run = await testRun(endpoint.id, { promptId: prompt.id, inputs: { n } });
        return { n, run, log: await logOf(run.body.data.logId) };
      }),
    );
    for (const { n, run, log } of runs) {
      expect(run.status).toBe(200);
      expect(log.status).toBe(200);
      expect(log.body.data).toMatchObject({ id: run.body.data.logId, renderedPrompt: `Run ${n}`, inputs: { n } });
    }
    expect(new Set(runs.map(({ run }) => run.body.data.logId)).size).toBe(8);
  });

  it('a failure answers the execution error in the envelope with its status; a logged one names its row in X-Log-Id', async () => {
    const { endpoint, prompt } = await endpointWithPrompt(
      t,
      tenant.admin,
      { template: 'Say {{ inputs.text }}' },
      {},
      'Draft',
    );

    const invalid = await testRun(endpoint.id, { promptId: prompt.id, inputs: {} });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ succeeded: false, messages: ["Field 'text' is required"], data: null });
    expect(invalid.headers['x-request-id']).toMatch(UUID);
    expect(invalid.headers['x-log-id']).toMatch(UUID);

    const unknownPrompt = await testRun(endpoint.id, {
      promptId: '00000000-0000-4000-8000-000000000000',
      inputs: { text: 'x' },
    });
    expect(unknownPrompt.status).toBe(404);
    expect(unknownPrompt.body).toEqual({ succeeded: false, messages: [expect.any(String)], data: null });

    // The refused run is still logged (source TestPage, status error) within the queue's second.
    const rows = await eventually(async () => {
      const found = await logRows(t, tenant.admin, `endpointId=${endpoint.id}&status=error`);
      return found.some((row) => row.requestId === invalid.headers['x-request-id']) && found;
    }, 'the refused run to be logged');
    expect(rows.find((row) => row.requestId === invalid.headers['x-request-id'])).toMatchObject({
      source: 'TestPage',
      status: 'error',
      httpStatus: 400,
      errorCode: 'validation_error',
    });
  });

  it('an off-schema answer: 502 naming the field, and X-Log-Id finds the row holding the raw answer at once', async () => {
    const { endpoint, prompt } = await gptEndpoint('Rate: {{ inputs.text }}', {
      outputs: [
        { name: 'summary', dataType: 'string' },
        { name: 'score', dataType: 'integer' },
      ],
    });
    fake.reply({ text: '{"summary":"ok","score":"high"}' });

    const res = await testRun(endpoint.id, { promptId: prompt.id, inputs: { text: 'x' } });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      succeeded: false,
      messages: [expect.stringContaining("field 'score'")],
      data: null,
    });
    const log = await logOf(res.headers['x-log-id']);
    expect(log.status).toBe(200);
    expect(log.body.data).toMatchObject({
      source: 'TestPage',
      status: 'error',
      httpStatus: 502,
      errorCode: 'upstream_error',
      promptId: prompt.id,
      rawResponse: '{"summary":"ok","score":"high"}',
      requestId: res.headers['x-request-id'],
    });
  });

  describe('unsaved text (`prompt` in place of `promptId`)', () => {
    const unsaved = (settings: Record<string, unknown> = {}) => ({
      template: 'Unsaved: {{ inputs.text }}',
      llmModel: 'gpt-4o-mini',
      ...settings,
    });

    it('runs the prompt as it stands: marked unsaved, logged with source TestPage and promptId null; the saved prompt is untouched', async () => {
      const { endpoint, prompt } = await gptEndpoint('Saved: {{ inputs.text }}');
      fake.reply({ text: 'Fresh.', inputTokens: 10, outputTokens: 2 });

      const res = await testRun(endpoint.id, {
        prompt: unsaved({ temperature: 0.2, maxTokens: 64, customParameters: { top_p: 0.5 } }),
        inputs: { text: 'hi' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        output: 'Fresh.',
        renderedPrompt: 'Unsaved: hi',
        renderedMessages: [{ role: 'user', content: 'Unsaved: hi' }],
        promptId: null,
        promptVersion: null,
        unsaved: true,
        llmModel: 'gpt-4o-mini',
        usage: { inputTokens: 10, outputTokens: 2 },
        costUsd: costOf(10, 2),
        latencyMs: expect.any(Number),
        logId: expect.stringMatching(UUID),
      });
      expect(res.headers['x-log-id']).toBe(res.body.data.logId);
      // The unsaved settings are what the provider got.
      expect(fake.last().body).toMatchObject({ temperature: 0.2, max_output_tokens: 64, top_p: 0.5 });

      const log = await logOf(res.body.data.logId);
      expect(log.body.data).toMatchObject({
        source: 'TestPage',
        status: 'success',
        promptId: null,
        promptVersion: null,
        renderedPrompt: 'Unsaved: hi',
        rawResponse: 'Fresh.',
      });
      const saved = await t.http.get(`/admin/v1/prompts/${prompt.id}`).set(auth(tenant.admin));
      expect(saved.body.data).toMatchObject({ template: 'Saved: {{ inputs.text }}', currentVersion: 1 });
    });

    it('goes through the same stages: input validation, retries and fallback models, and a ReadOnly key may run it', async () => {
      const { endpoint } = await gptEndpoint('Saved: {{ inputs.text }}');
      const invalid = await testRun(endpoint.id, { prompt: unsaved(), inputs: {} });
      expect(invalid.status).toBe(400);
      expect(invalid.body.messages).toEqual(["Field 'text' is required"]);
      expect(invalid.headers['x-log-id']).toMatch(UUID);

      fake.reply({ status: 500, message: 'boom' }, { text: 'From the fallback.' });
      const res = await testRun(
        endpoint.id,
        { prompt: unsaved({ fallbackModels: [{ llmModel: 'gpt-4o' }] }), inputs: { text: 'x' } },
        tenant.readOnly,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ output: 'From the fallback.', llmModel: 'gpt-4o', unsaved: true });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a template that is not Liquid', { template: '{% if %}' }, 'prompt.template is not valid Liquid'],
      ['an unknown model', { llmModel: 'no-such-model' }, "prompt.llmModel 'no-such-model' is not a model"],
      ['a temperature out of range', { temperature: 3 }, 'prompt.temperature must not be greater than 2'],
      ['a template of the wrong type', { template: 5 }, 'prompt.template must be a string'],
      [
        'a custom parameter the service controls',
        { customParameters: { model: 'x' } },
        'prompt.customParameters.model cannot be set',
      ],
      [
        "a fallback model's unknown model",
        { fallbackModels: [{ llmModel: 'nope' }] },
        "prompt.fallbackModels.0.llmModel 'nope' is not a model",
      ],
      ['an unknown setting', { name: 'x' }, 'property prompt.name should not exist'],
    ])(
      'is validated as a prompt create is: %s is a 400 naming prompt.<field>, never run',
      async (_c, change, message) => {
        const { endpoint } = await gptEndpoint('Saved: {{ inputs.text }}');
        const res = await testRun(endpoint.id, { prompt: unsaved(change), inputs: { text: 'x' } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ succeeded: false, messages: [expect.stringContaining(message)], data: null });
        expect(fake.requests).toHaveLength(0);
      },
    );

    it('promptId and prompt together, or neither, is a 400', async () => {
      const { endpoint, prompt } = await gptEndpoint('Saved: {{ inputs.text }}');
      const both = await testRun(endpoint.id, { promptId: prompt.id, prompt: unsaved(), inputs: { text: 'x' } });
      expect(both.status).toBe(400);
      expect(both.body.messages).toEqual([expect.stringContaining('either promptId')]);
      const neither = await testRun(endpoint.id, { inputs: { text: 'x' } });
      expect(neither.status).toBe(400);
      expect(neither.body.messages).toEqual([expect.stringContaining('promptId or prompt is required')]);
      expect(fake.requests).toHaveLength(0);
    });
  });
});
