import { createEndpoint, createPrompt, endpointWithPrompt } from '../support/endpoint-fixtures';
import { FAKE_PNG } from '../support/fake-llm-server';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { logOf } from '../support/log-rows';

const PNG_URI = `data:image/png;base64,${FAKE_PNG}`;

/**
 * Execution through the real AI SDK adapters against the fake provider server: what reaches each provider (rendered
 * prompt, settings, JSON schema, image parts, image settings), the output rules, failures, timeouts and their logs.
 */
describe('execution through the provider adapters', () => {
  const { t, tenant, fake } = useTestApp({ fake: { unconfigured: true, providers: true } });

  const execute = (endpointPath: string, body: unknown) =>
    t.http
      .post(endpointPath)
      .set(auth(tenant.endpointKey))
      .send(body as object);

  it('OpenAI: structured output from a strict JSON schema of the output fields, with the prompt settings', async () => {
    const { endpoint } = await endpointWithPrompt(
      t,
      tenant.admin,
      {
        template: 'Summarize: {{ inputs.text }}',
        llmModel: 'gpt-4o-mini',
        temperature: 0.2,
        maxTokens: 300,
        customParameters: { topP: 0.9 },
      },
      {
        outputs: [
          { name: 'summary', dataType: 'string', description: 'One sentence' },
          { name: 'sentiment', dataType: 'string' },
          { name: 'score', dataType: 'integer' },
        ],
      },
    );
    fake.reply({
      text: '{"summary":"A greeting.","sentiment":"positive","score":8,"extra":"dropped"}',
      inputTokens: 1000,
      outputTokens: 200,
    });
    const res = await execute(endpoint.path, { text: 'hello there' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ summary: 'A greeting.', sentiment: 'positive', score: 8 });

    const sent = fake.last();
    expect(sent.path).toBe('/v1/responses');
    expect(sent.headers.authorization).toBe('Bearer sk-test-openai');
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.2, max_output_tokens: 300, top_p: 0.9 });
    expect(JSON.stringify(sent.body.input)).toContain('Summarize: hello there');
    expect(sent.body.text.format).toEqual({
      type: 'json_schema',
      strict: true,
      name: 'response',
      schema: {
        type: 'object',
        properties: {
          summary: { type: 'string', description: 'One sentence' },
          sentiment: { type: 'string' },
          score: { type: 'integer' },
        },
        required: ['summary', 'sentiment', 'score'],
        additionalProperties: false,
      },
    });

    const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
    expect(log).toMatchObject({
      status: 'success',
      llmModel: 'gpt-4o-mini',
      inputTokens: 1000,
      outputTokens: 200,
      renderedPrompt: 'Summarize: hello there',
      rawResponse: '{"summary":"A greeting.","sentiment":"positive","score":8,"extra":"dropped"}',
      parsedOutput: { summary: 'A greeting.', sentiment: 'positive', score: 8 },
    });
    expect(log.costUsd).toBeGreaterThan(0);
  });

  it('Anthropic: image inputs become image parts of the message; raw text output', async () => {
    const photoAndQuestion = [
      { name: 'photo', dataType: 'image', isRequired: true },
      { name: 'question', dataType: 'string' },
    ];
    const { endpoint } = await endpointWithPrompt(
      t,
      tenant.admin,
      {
        template: '{{ inputs.question | default: "What is in this picture?" }}',
        llmModel: 'claude-sonnet-4-5',
        maxTokens: 200,
        temperature: 0,
      },
      { inputs: photoAndQuestion },
    );
    fake.reply({ text: 'A single pixel.' });
    const res = await execute(endpoint.path, { photo: PNG_URI });
    expect(res.status).toBe(200);
    expect(res.body).toBe('A single pixel.');
    const sent = fake.last();
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-test-anthropic');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 200, temperature: 0 });
    expect(sent.body.messages[0].content).toEqual([
      expect.objectContaining({ type: 'text', text: 'What is in this picture?' }),
      expect.objectContaining({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: FAKE_PNG } }),
    ]);
    const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
    expect(log.inputs.photo).toMatch(/^\[image image\/png, \d+ characters\]$/);
  });

  it('Google: a JSON answer without output fields is answered as that JSON value', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'city', dataType: 'string' }] });
    await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Facts about {{ inputs.city }} as JSON',
      llmModel: 'gemini-2.5-flash',
      maxTokens: 100,
    });
    fake.reply({ text: '{"city":"Paris","population":2100000}' });
    const res = await execute(endpoint.path, { city: 'Paris' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ city: 'Paris', population: 2100000 });
    const sent = fake.last();
    expect(sent.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('test-google');
    expect(sent.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Facts about Paris as JSON' }] }]);
    expect(sent.body.generationConfig).toMatchObject({ maxOutputTokens: 100, temperature: 0.7 });
  });

  it('OpenAI-compatible (MODELS_FILE): chat completions with the schema and custom parameters in the body', async () => {
    const tagsAndLanguage = [
      { name: 'tags', dataType: 'array' },
      { name: 'language', dataType: 'string' },
    ];
    const { endpoint } = await endpointWithPrompt(
      t,
      tenant.admin,
      { template: 'Tag: {{ inputs.text }}', llmModel: 'llama-test', customParameters: { num_ctx: 8192, seed: 7 } },
      { inputs: [{ name: 'text', dataType: 'string' }], outputs: tagsAndLanguage },
    );
    fake.reply({ text: '{"tags":["a","b"],"language":"en"}' });
    const res = await execute(endpoint.path, { text: 'apples and bananas' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tags: ['a', 'b'], language: 'en' });
    const sent = fake.last();
    expect(sent.path).toBe('/local/v1/chat/completions');
    expect(sent.body).toMatchObject({
      model: 'llama-test',
      temperature: 0.7,
      max_tokens: 1024,
      num_ctx: 8192,
      seed: 7,
      messages: [{ role: 'user', content: 'Tag: apples and bananas' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          strict: false,
          schema: {
            type: 'object',
            properties: { tags: { type: 'array' }, language: { type: 'string' } },
            required: ['tags', 'language'],
            additionalProperties: false,
          },
        },
      },
    });
  });

  it('image endpoints: the output field settings, overridden by customParameters, reach the image API', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'subject', dataType: 'string', isRequired: true }],
      outputs: [
        {
          name: 'image',
          dataType: 'image',
          exampleValue: '{"size":"1024x1024","quality":"low","background":"opaque"}',
        },
      ],
    });
    await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'A watercolor of {{ inputs.subject }}',
      llmModel: 'gpt-image-1',
      customParameters: { quality: 'high', size: '1536x1024' },
    });
    fake.reply({
      images: [{ b64: FAKE_PNG, revisedPrompt: 'A soft watercolor of a lighthouse' }],
      inputTokens: 15,
      outputTokens: 4160,
    });
    const res = await execute(endpoint.path, { subject: 'a lighthouse' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      generatedImages: [{ base64Data: FAKE_PNG, revisedPrompt: 'A soft watercolor of a lighthouse' }],
      usage: { inputTokens: 15, outputTokens: 4160 },
    });
    const sent = fake.last();
    expect(sent.path).toBe('/v1/images/generations');
    expect(sent.body).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'A watercolor of a lighthouse',
      size: '1536x1024',
      quality: 'high',
      background: 'opaque',
    });
    const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
    expect(log).toMatchObject({
      status: 'success',
      inputTokens: 15,
      outputTokens: 4160,
      renderedPrompt: 'A watercolor of a lighthouse',
    });
    expect(log.parsedOutput.generatedImages).toEqual([
      { revisedPrompt: 'A soft watercolor of a lighthouse', base64Length: FAKE_PNG.length },
    ]);
  });

  describe('failures', () => {
    let endpoint: { id: string; path: string };

    beforeAll(async () => {
      endpoint = await createEndpoint(t, tenant.admin, {
        timeoutSeconds: 1,
        inputs: [{ name: 'text', dataType: 'string' }],
        outputs: [
          { name: 'answer', dataType: 'string' },
          { name: 'confidence', dataType: 'number' },
        ],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'Q: {{ inputs.text }}', llmModel: 'gpt-4o-mini' });
    });

    it('a structured answer that does not match the output fields is a 502 upstream_error, logged with the raw response', async () => {
      fake.reply({ text: '{"answer":"yes","confidence":"very"}' });
      const res = await execute(endpoint.path, { text: 'q1' });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        error: 'upstream_error',
        message: expect.stringContaining("field 'confidence' is not a number"),
      });
      expect(res.headers['x-request-id']).toBeDefined();
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log).toMatchObject({
        status: 'error',
        httpStatus: 502,
        errorCode: 'upstream_error',
        rawResponse: '{"answer":"yes","confidence":"very"}',
        renderedPrompt: 'Q: q1',
        parsedOutput: null,
      });
    });

    it('an answer that is not JSON at all is a 502 upstream_error with the raw text logged', async () => {
      fake.reply({ text: 'I cannot answer in JSON.' });
      const res = await execute(endpoint.path, { text: 'q2' });
      expect(res.status).toBe(502);
      expect(res.body.error).toBe('upstream_error');
      expect((await logOf(t, tenant.admin, res.headers['x-request-id'])).rawResponse).toBe('I cannot answer in JSON.');
    });

    it('a provider error is a 502 upstream_error naming the provider and its status, without retries', async () => {
      fake.reply({ status: 500, message: 'The server had an error while processing your request' });
      const res = await execute(endpoint.path, { text: 'q3' });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        error: 'upstream_error',
        message: "the provider 'openai' refused the call: server error (500)",
      });
      expect(fake.requests).toHaveLength(1);
      expect(await logOf(t, tenant.admin, res.headers['x-request-id'])).toMatchObject({
        status: 'error',
        httpStatus: 502,
        errorCode: 'upstream_error',
      });
    });

    it('a provider slower than the endpoint timeout is a 504 timeout, answered when the timeout expires', async () => {
      fake.reply({ text: '{"answer":"late","confidence":1}', delayMs: 5000 });
      const started = Date.now();
      const res = await execute(endpoint.path, { text: 'q4' });
      const elapsed = Date.now() - started;
      expect(res.status).toBe(504);
      expect(res.body).toEqual({ error: 'timeout', message: expect.stringContaining('1 seconds') });
      expect(res.headers['x-request-id']).toBeDefined();
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(4000);
      expect(fake.requests).toHaveLength(1);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log).toMatchObject({ status: 'error', httpStatus: 504, errorCode: 'timeout' });
      expect(log.latencyMs).toBeGreaterThanOrEqual(900);
    });

    it('a model whose provider is not configured is a 502 naming the provider, and nothing is sent', async () => {
      const other = await createEndpoint(t, tenant.admin);
      await createPrompt(t, tenant.admin, other.id, { template: 'x', llmModel: 'keyless-model' });
      const res = await execute(other.path, {});
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ error: 'upstream_error', message: expect.stringContaining("provider 'keyless'") });
      expect(fake.requests).toHaveLength(0);
      expect(await logOf(t, tenant.admin, res.headers['x-request-id'])).toMatchObject({
        status: 'error',
        errorCode: 'upstream_error',
        llmModel: 'keyless-model',
      });
    });
  });
});
