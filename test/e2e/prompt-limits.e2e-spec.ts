import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DataSource } from 'typeorm';
import { RenderPool } from '../../src/modules/prompts/template/render-pool';
import {
  createEndpoint,
  createPrompt,
  endpointWithPrompt,
  type PromptSpec,
  textEndpoint,
} from '../support/endpoint-fixtures';
import { FAKE_PNG } from '../support/fake-llm-server';
import { connectMcp, toolText } from '../support/mcp-client';
import { auth } from '../support/seed';
import { logOf } from '../support/log-rows';
import { useTestApp } from '../support/app-suite';

const NESTED_LOOPS = '{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}x';
const DOUBLING = `{% assign s = "xxxxxxxx" %}${'{% assign s = s | append: s %}'.repeat(25)}{{ s }}`;
/** 4 million empty iterations: far more than 200 ms of work, and within the allocation budget. */
const SLOW_LOOPS = '{% for a in (1..2000) %}{% for b in (1..2000) %}{% endfor %}{% endfor %}x';
const RENDER_FAILED = "The prompt's template could not be rendered: ";
const MAX_RENDERED_BYTES = 2000;

/**
 * A prompt that cannot run answers 422 prompt_error and is logged: templates over the render time or output limits,
 * and customParameters out of bounds in rows saved before the rules. Saves of customParameters follow the rules (size,
 * settings the service controls, image `n`) on REST and MCP alike.
 */
describe('prompt limits', () => {
  const { t, tenant, fake } = useTestApp({
    config: { renderTimeoutMs: 200, maxRenderedPromptBytes: MAX_RENDERED_BYTES, maxImagesPerCall: 4 },
    fake: {},
    env: (server) => ({ OPENAI_API_KEY: 'sk-test-openai', OPENAI_BASE_URL: `${server.url}/v1` }),
  });
  const db = () => t.app.get(DataSource);

  const execute = (endpointPath: string, body: object = {}) =>
    t.http.post(endpointPath).set(auth(tenant.endpointKey)).send(body);

  /** An endpoint whose default prompt is `template` (`spec` sets the rest), with a `text` input. */
  const endpointWith = (template: string, spec: Omit<PromptSpec, 'template'> = {}) =>
    textEndpoint(t, tenant.admin, template, spec);

  /** Executes (without inputs) an endpoint whose default prompt is `template`: answered 422 prompt_error, `message`. */
  async function executeRefused(template: string, message: unknown) {
    const endpoint = await endpointWith(template);
    const res = await execute(endpoint.path);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'prompt_error', message });
    return res;
  }

  /** Sets a prompt's saved customParameters directly, as a row saved before the rules existed would hold them. */
  async function storeCustomParameters(promptId: string, parameters: Record<string, unknown>): Promise<void> {
    await db().query('UPDATE prompts SET custom_parameters = $1::jsonb WHERE id = $2', [
      JSON.stringify(parameters),
      promptId,
    ]);
  }

  describe('templates that cannot render', () => {
    it('nested loops: 422 prompt_error, logged with the prompt and no rendered prompt', async () => {
      const res = await executeRefused(
        NESTED_LOOPS,
        expect.stringMatching(new RegExp(`^${escape(RENDER_FAILED)}the template (took longer|builds strings)`)),
      );
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log).toMatchObject({
        status: 'error',
        httpStatus: 422,
        errorCode: 'prompt_error',
        errorMessage: res.body.message,
        renderedPrompt: null,
      });
      expect(log.promptId).toEqual(expect.any(String));
      expect(fake.requests).toHaveLength(0);
    });

    it('a string doubled 25 times: 422 prompt_error naming the memory budget', async () => {
      const res = await executeRefused(
        DOUBLING,
        `${RENDER_FAILED}the template builds strings larger than its memory budget`,
      );
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log).toMatchObject({ httpStatus: 422, errorCode: 'prompt_error', renderedPrompt: null });
    });

    it('a render longer than RENDER_TIMEOUT_MS: 422 prompt_error naming the budget', async () => {
      await executeRefused(SLOW_LOOPS, `${RENDER_FAILED}the template took longer than 200 ms to render`);
    });

    it('a rendered prompt over MAX_RENDERED_PROMPT_BYTES: 422, while one at the limit runs', async () => {
      const endpoint = await endpointWith('{{ inputs.text }}');
      const atLimit = await execute(endpoint.path, { text: 'é'.repeat(MAX_RENDERED_BYTES / 2) });
      expect(atLimit.status).toBe(200);
      const over = await execute(endpoint.path, { text: `${'é'.repeat(MAX_RENDERED_BYTES / 2)}x` });
      expect(over.status).toBe(422);
      expect(over.body).toEqual({
        error: 'prompt_error',
        message: `${RENDER_FAILED}the rendered prompt is larger than ${MAX_RENDERED_BYTES} bytes`,
      });
      // 2,292 bytes of digits: over the limit after little work, far inside the time budget on a loaded machine.
      const looped = await endpointWith('{% for i in (1..800) %}{{ i }}{% endfor %}');
      expect((await execute(looped.path)).body).toEqual(over.body);
      const log = await logOf(t, tenant.admin, over.headers['x-request-id']);
      expect(log).toMatchObject({ httpStatus: 422, errorCode: 'prompt_error', renderedPrompt: null });
    });

    it('test runs report it in the admin envelope, and other prompts keep rendering', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const hostile = await createPrompt(t, tenant.admin, endpoint.id, { template: NESTED_LOOPS }, 'Draft');
      const fine = await createPrompt(t, tenant.admin, endpoint.id, { template: 'fine' }, 'Draft');
      const [refused, answered] = await Promise.all([
        t.http
          .post(`/admin/v1/endpoints/${endpoint.id}/test`)
          .set(auth(tenant.readOnly))
          .send({ promptId: hostile.id, inputs: {} }),
        t.http
          .post(`/admin/v1/endpoints/${endpoint.id}/test`)
          .set(auth(tenant.readOnly))
          .send({ promptId: fine.id, inputs: {} }),
      ]);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        succeeded: false,
        messages: [expect.stringMatching(new RegExp(`^${escape(RENDER_FAILED)}`))],
        data: null,
      });
      expect(answered.status).toBe(200);
      expect(answered.body.data.output).toBe('fine');
    });

    it('the validator and save-time syntax checks still parse without rendering', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
      const validated = await t.http
        .post('/admin/v1/prompts/validate')
        .set(auth(tenant.admin))
        .send({ endpointId: endpoint.id, template: NESTED_LOOPS });
      expect(validated.status).toBe(200);
      expect(validated.body.data).toMatchObject({ valid: true, errors: [] });
      const broken = await t.http
        .post('/admin/v1/prompts')
        .set(auth(tenant.admin))
        .send({ endpointId: endpoint.id, name: 'broken', template: '{% for a in (1..3) %}', llmModel: 'mock-echo' });
      expect(broken.status).toBe(400);
      expect(broken.body.messages[0]).toMatch(/^template is not valid Liquid: /);
    });
  });

  describe('where templates render', () => {
    // Bounded templates whose output bound is within the limit render on the main thread; the rest in a render thread.
    const pooled = jest.spyOn(RenderPool.prototype, 'render');
    beforeEach(() => pooled.mockClear());
    afterAll(() => pooled.mockRestore());
    const pooledTemplates = () => pooled.mock.calls.map(([task]) => task.template);

    it('hostile templates still render in a render thread and answer 422 prompt_error', async () => {
      for (const template of [NESTED_LOOPS, DOUBLING, SLOW_LOOPS]) {
        await executeRefused(template, expect.stringMatching(new RegExp(`^${escape(RENDER_FAILED)}`)));
      }
      expect(pooledTemplates()).toEqual([NESTED_LOOPS, DOUBLING, SLOW_LOOPS]);
    });

    it('a bounded template renders on the main thread while its bound is within MAX_RENDERED_PROMPT_BYTES, else in a render thread', async () => {
      const template = '{{ inputs.text }} {{ inputs.text }} {{ inputs.text }}';
      const endpoint = await endpointWith(template);

      const small = await execute(endpoint.path, { text: 'hi' });
      expect(small.status).toBe(200);
      expect(await logOf(t, tenant.admin, small.headers['x-request-id'])).toMatchObject({
        status: 'success',
        renderedPrompt: 'hi hi hi',
      });
      expect(pooled).not.toHaveBeenCalled();

      // 1,952 bytes rendered, within the limit; the bound (three times the inputs' JSON, plus the text) is over it.
      const within = await execute(endpoint.path, { text: 'a'.repeat(650) });
      expect(within.status).toBe(200);
      expect(await logOf(t, tenant.admin, within.headers['x-request-id'])).toMatchObject({
        status: 'success',
        renderedPrompt: Array(3).fill('a'.repeat(650)).join(' '),
      });
      // 2,102 bytes: over the limit.
      const over = await execute(endpoint.path, { text: 'a'.repeat(700) });
      expect(over.status).toBe(422);
      expect(over.body).toEqual({
        error: 'prompt_error',
        message: `${RENDER_FAILED}the rendered prompt is larger than ${MAX_RENDERED_BYTES} bytes`,
      });
      expect(pooledTemplates()).toEqual([template, template]);
    });
  });

  describe('customParameters on save', () => {
    let textEndpoint: { id: string; path: string };
    let imageEndpoint: { id: string; path: string };

    beforeAll(async () => {
      textEndpoint = await createEndpoint(t, tenant.admin);
      imageEndpoint = await createEndpoint(t, tenant.admin, {
        outputs: [{ name: 'image', dataType: 'image', exampleValue: '{"size":"1024x1024"}' }],
      });
    });

    const create = (endpointId: string, customParameters: unknown, llmModel = 'mock-echo') =>
      t.http
        .post('/admin/v1/prompts')
        .set(auth(tenant.admin))
        .send({
          endpointId,
          name: `p-${Math.random().toString(36).slice(2)}`,
          template: 'x',
          llmModel,
          customParameters,
        });

    it('refuses what the service controls, naming each key, on create and update; nothing is saved', async () => {
      const refused = await create(textEndpoint.id, {
        model: 'openai/o1-pro',
        n: 64,
        max_completion_tokens: 100000,
        top_p: 0.5,
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        succeeded: false,
        messages: [
          'customParameters.model cannot be set: the service controls it',
          'customParameters.n cannot be set: the service controls it',
          'customParameters.max_completion_tokens cannot be set: the service controls it',
        ],
        data: null,
      });
      const listed = await t.http.get(`/admin/v1/prompts?endpointId=${textEndpoint.id}`).set(auth(tenant.admin));
      expect(listed.body.data).toEqual([]);

      const created = await create(textEndpoint.id, { top_p: 0.5 });
      expect(created.status).toBe(201);
      const updated = await t.http
        .put(`/admin/v1/prompts/${created.body.data.id}`)
        .set(auth(tenant.admin))
        .send({ customParameters: { messages: [], stream: true } });
      expect(updated.status).toBe(400);
      expect(updated.body.messages).toEqual([
        'customParameters.messages cannot be set: the service controls it',
        'customParameters.stream cannot be set: the service controls it',
      ]);
      const stored = await t.http.get(`/admin/v1/prompts/${created.body.data.id}`).set(auth(tenant.admin));
      expect(stored.body.data).toMatchObject({ customParameters: { top_p: 0.5 }, currentVersion: 1 });
    });

    it('refuses what would let a call bill beyond maxTokens, in any spelling and at any depth, naming the key', async () => {
      const beyond = (key: string, inner?: string) =>
        `customParameters.${key} cannot be set: ${inner ? `its ${inner}` : 'it'} would let a call bill beyond maxTokens or change its billing tier`;
      const thinking = await t.http
        .post('/admin/v1/prompts')
        .set(auth(tenant.admin))
        .send({
          endpointId: textEndpoint.id,
          name: 'thinking',
          template: 'x',
          llmModel: 'claude-sonnet-4-5',
          maxTokens: 10,
          customParameters: { thinking: { type: 'enabled', budgetTokens: 60000 } },
        });
      expect(thinking.status).toBe(400);
      expect(thinking.body).toEqual({ succeeded: false, messages: [beyond('thinking')], data: null });

      const spelled = await create(textEndpoint.id, { MAX_TOKENS: 5, maxCompletionTokens: 5, max_output_tokens: 5 });
      expect(spelled.status).toBe(400);
      expect(spelled.body.messages).toEqual([
        'customParameters.MAX_TOKENS cannot be set: the service controls it',
        'customParameters.maxCompletionTokens cannot be set: the service controls it',
        'customParameters.max_output_tokens cannot be set: the service controls it',
      ]);
      const tier = await create(textEndpoint.id, { serviceTier: 'priority', reasoning: { max_tokens: 9000 } });
      expect(tier.status).toBe(400);
      expect(tier.body.messages).toEqual([beyond('serviceTier'), beyond('reasoning', 'max_tokens')]);

      const created = await create(textEndpoint.id, { reasoningEffort: 'low' });
      expect(created.status).toBe(201);
      const updated = await t.http
        .put(`/admin/v1/prompts/${created.body.data.id}`)
        .set(auth(tenant.admin))
        .send({ customParameters: { thinkingConfig: { thinking_budget: 24576 } } });
      expect(updated.status).toBe(400);
      expect(updated.body.messages).toEqual([beyond('thinkingConfig', 'thinking_budget')]);
      const fallback = await t.http
        .put(`/admin/v1/prompts/${created.body.data.id}`)
        .set(auth(tenant.admin))
        .send({ fallbackModels: [{ llmModel: 'mock-echo', customParameters: { service_tier: 'flex' } }] });
      expect(fallback.status).toBe(400);
      expect(fallback.body.messages).toEqual([`fallbackModels.0.${beyond('service_tier')}`]);
      const stored = await t.http.get(`/admin/v1/prompts/${created.body.data.id}`).set(auth(tenant.admin));
      expect(stored.body.data).toMatchObject({ customParameters: { reasoningEffort: 'low' }, currentVersion: 1 });
    });

    it('bounds the object at 50 keys and 16 KiB of JSON', async () => {
      const keys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
      const tooMany = await create(textEndpoint.id, keys);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.messages).toEqual(['customParameters must have at most 50 keys; it has 51']);
      const tooLarge = await create(textEndpoint.id, { note: 'x'.repeat(16 * 1024) });
      expect(tooLarge.status).toBe(400);
      expect(tooLarge.body.messages).toEqual([
        expect.stringMatching(/^customParameters must be at most 16384 bytes of JSON; it has \d+$/),
      ]);
    });

    it('image endpoints: n is an integer from 1 to MAX_IMAGES_PER_CALL', async () => {
      const huge = await create(imageEndpoint.id, { n: 100000000 }, 'gpt-image-1');
      expect(huge.status).toBe(400);
      expect(huge.body).toEqual({
        succeeded: false,
        messages: ['customParameters.n must be an integer from 1 to 4'],
        data: null,
      });
      const created = await create(imageEndpoint.id, { n: 4, quality: 'high' }, 'gpt-image-1');
      expect(created.status).toBe(201);
      const updated = await t.http
        .put(`/admin/v1/prompts/${created.body.data.id}`)
        .set(auth(tenant.admin))
        .send({ customParameters: { n: 0 } });
      expect(updated.status).toBe(400);
      expect(updated.body.messages).toEqual(['customParameters.n must be an integer from 1 to 4']);
    });

    describe('through MCP', () => {
      let client: Client;
      beforeAll(async () => {
        await t.app.listen(0, '127.0.0.1');
        client = await connectMcp(await t.app.getUrl(), tenant.admin);
      });
      afterAll(() => client.close());

      it('the prompt tools apply the same rules, as a tool error naming the key', async () => {
        const result = await client.callTool({
          name: 'create_prompt',
          arguments: {
            endpointId: textEndpoint.id,
            name: 'mcp-prompt',
            template: 'x',
            llmModel: 'mock-echo',
            customParameters: { max_tokens: 100000 },
          },
        });
        expect(result.isError).toBe(true);
        expect(toolText(result)).toMatch(
          /^validation_error: customParameters\.max_tokens cannot be set: the service controls it/,
        );
      });
    });
  });

  describe('customParameters saved before the rules', () => {
    it('out of bounds on a text endpoint: 422 prompt_error on execution and on a ReadOnly test run, logged, nothing sent', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'Hello', llmModel: 'llama-test' });
      await storeCustomParameters(prompt.id, { model: 'openai/o1-pro', n: 64, max_completion_tokens: 100000 });

      const res = await execute(endpoint.path);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'prompt_error',
        message: expect.stringMatching(/^The prompt's settings are out of bounds: /),
      });
      // The database keeps JSON object keys in an order of its own.
      expect(
        res.body.message
          .replace(/^The prompt's settings are out of bounds: /, '')
          .split('; ')
          .sort(),
      ).toEqual([
        'customParameters.max_completion_tokens cannot be set: the service controls it',
        'customParameters.model cannot be set: the service controls it',
        'customParameters.n cannot be set: the service controls it',
      ]);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log).toMatchObject({
        httpStatus: 422,
        errorCode: 'prompt_error',
        llmModel: 'llama-test',
        costUsd: null,
        renderedPrompt: 'Hello',
      });

      const tested = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(auth(tenant.readOnly))
        .send({ promptId: prompt.id, inputs: {} });
      expect(tested.status).toBe(422);
      expect(tested.body).toEqual({ succeeded: false, messages: [res.body.message], data: null });
      expect(fake.requests).toHaveLength(0);
    });

    it('a billing setting saved before it was refused: 422 prompt_error on execution, nothing sent', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'Hello', llmModel: 'llama-test' });
      await storeCustomParameters(prompt.id, { extra_body: { max_new_tokens: 60000 } });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: 'prompt_error',
        message:
          "The prompt's settings are out of bounds: customParameters.extra_body cannot be set: its max_new_tokens would let a call bill beyond maxTokens or change its billing tier",
      });
      expect(fake.requests).toHaveLength(0);
    });

    it('image n out of bounds, from customParameters or the image field defaults: 422 on a ReadOnly test run, nothing sent', async () => {
      /** A Draft image prompt on an endpoint whose image field's example is `exampleValue`. */
      const lighthouse = (exampleValue: string) =>
        endpointWithPrompt(
          t,
          tenant.admin,
          { template: 'A lighthouse', llmModel: 'gpt-image-1' },
          { inputs: [], outputs: [{ name: 'image', dataType: 'image', exampleValue }] },
          'Draft',
        );
      /** A test run of `promptId` on `endpointId` by a ReadOnly key, without inputs. */
      const testRun = (endpointId: string, promptId: string) =>
        t.http.post(`/admin/v1/endpoints/${endpointId}/test`).set(auth(tenant.readOnly)).send({ promptId, inputs: {} });

      const { endpoint, prompt } = await lighthouse('{"size":"1024x1024"}');
      await storeCustomParameters(prompt.id, { n: 100000000 });
      const tested = await testRun(endpoint.id, prompt.id);
      expect(tested.status).toBe(422);
      expect(tested.body).toEqual({
        succeeded: false,
        messages: ["The prompt's settings are out of bounds: customParameters.n must be an integer from 1 to 4"],
        data: null,
      });

      const { endpoint: defaults, prompt: plain } = await lighthouse('{"n":10}');
      const merged = await testRun(defaults.id, plain.id);
      expect(merged.status).toBe(422);
      expect(fake.requests).toHaveLength(0);

      await storeCustomParameters(plain.id, { n: 2 });
      fake.reply({ images: [{ b64: FAKE_PNG }, { b64: FAKE_PNG }] });
      const within = await testRun(defaults.id, plain.id);
      expect(within.status).toBe(200);
      expect(fake.last().body).toMatchObject({ model: 'gpt-image-1', prompt: 'A lighthouse', n: 2 });
    });
  });

  it("an OpenAI-compatible provider receives the prompt's own model, messages and token limit, and the log says so", async () => {
    const endpoint = await endpointWith('Say {{ inputs.text }}', {
      llmModel: 'llama-test',
      maxTokens: 50,
      temperature: 0.3,
      customParameters: { num_ctx: 8192, top_p: 0.5 },
    });
    fake.reply({ text: 'hi', inputTokens: 5, outputTokens: 1 });
    const res = await execute(endpoint.path, { text: 'hi' });
    expect(res.status).toBe(200);
    const { path, body } = fake.last();
    expect(path).toBe('/local/v1/chat/completions');
    expect(body).toEqual({
      model: 'llama-test',
      max_tokens: 50,
      temperature: 0.3,
      top_p: 0.5,
      num_ctx: 8192,
      messages: [{ role: 'user', content: 'Say hi' }],
    });
    const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
    expect(log).toMatchObject({ status: 'success', llmModel: 'llama-test', inputTokens: 5, outputTokens: 1 });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
