import { FAKE_PNG, FakeLlmServer } from '../../../test/support/fake-llm-server';
import { UpstreamError, UpstreamTimeoutError } from '../../common/errors/app-error';
import type { ProviderDefinition } from '../models/model';
import { type ChatMessage, InvalidLlmOutputError, type LlmClient, ProviderError, type TextRequest } from './llm-client';
import { ProviderHttp } from './provider-http';
import { LlmRegistry } from './llm-registry';
import { AnthropicProvider } from './providers/anthropic.provider';
import { GoogleProvider } from './providers/google.provider';
import { MockProvider } from './providers/mock.provider';
import { OpenAiCompatibleProvider } from './providers/openai-compatible.provider';
import { OpenAiProvider } from './providers/openai.provider';

const SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' }, score: { type: 'integer' } },
  required: ['summary', 'score'],
  additionalProperties: false,
};
const PNG_URI = `data:image/png;base64,${FAKE_PNG}`;

describe('LLM provider adapters against the fake provider server', () => {
  let fake: FakeLlmServer;
  let registry: LlmRegistry;

  beforeAll(async () => {
    fake = await FakeLlmServer.start();
    const config = { maxAnswerBytes: 4 * 1024 * 1024, maxImagesPerCall: 4, maxImageBytes: 5 * 1024 * 1024 };
    const http = new ProviderHttp({ ...config, egressProxy: undefined });
    registry = new LlmRegistry([
      new OpenAiProvider(http),
      new AnthropicProvider(http),
      new GoogleProvider(http),
      new OpenAiCompatibleProvider(http),
      new MockProvider(config),
    ]);
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const definitions = (): Record<string, ProviderDefinition> => ({
    openai: { name: 'openai', kind: 'openai', apiKey: 'sk-openai', baseUrl: `${fake.url}/v1`, configured: true },
    anthropic: { name: 'anthropic', kind: 'anthropic', apiKey: 'sk-ant', baseUrl: `${fake.url}/v1`, configured: true },
    google: { name: 'google', kind: 'google', apiKey: 'g-key', baseUrl: `${fake.url}/v1beta`, configured: true },
    ollama: { name: 'ollama', kind: 'openai-compatible', baseUrl: `${fake.url}/ollama/v1`, configured: true },
    mock: { name: 'mock', kind: 'mock', configured: true },
  });
  const client = (name: string): LlmClient => registry.clientFor(definitions()[name]);
  const request = (overrides: Partial<TextRequest> = {}): TextRequest => ({
    model: 'model-x',
    prompt: 'Summarize: hello',
    temperature: 0.3,
    maxOutputTokens: 64,
    abortSignal: AbortSignal.timeout(5000),
    ...overrides,
  });
  /** One user message: the text, then the image. */
  const withImage = (text: string): ChatMessage[] => [
    {
      role: 'user',
      parts: [
        { type: 'text', text },
        { type: 'image', image: { mediaType: 'image/png', dataUri: PNG_URI } },
      ],
    },
  ];
  /** A request with an image part and a strict JSON schema, which each provider sends in its own way. */
  const imageAndSchemaRequest = (model: string): TextRequest =>
    request({
      model,
      messages: withImage('Summarize: hello'),
      schema: { jsonSchema: SCHEMA, strict: true },
    });

  it('OpenAI: calls the Responses API with the prompt, settings and key, and reports usage', async () => {
    fake.reply({ text: 'Hi there', inputTokens: 12, outputTokens: 3 });
    const result = await client('openai').generateText(request({ customParameters: { topP: 0.5 } }));
    expect(result).toEqual({
      text: 'Hi there',
      usage: { inputTokens: 12, outputTokens: 3 },
      finishReason: 'stop',
      responseModel: 'model-x',
    });
    const sent = fake.last();
    expect(sent.path).toBe('/v1/responses');
    expect(sent.headers.authorization).toBe('Bearer sk-openai');
    expect(sent.body).toMatchObject({ model: 'model-x', temperature: 0.3, max_output_tokens: 64, top_p: 0.5 });
    expect(JSON.stringify(sent.body.input)).toContain('Summarize: hello');
  });

  it('OpenAI: requests a strict JSON schema and returns the parsed object', async () => {
    fake.reply({ text: '{"summary":"s","score":4}' });
    const result = await client('openai').generateText(request({ schema: { jsonSchema: SCHEMA, strict: true } }));
    expect(result.object).toEqual({ summary: 's', score: 4 });
    expect(result.text).toBe('{"summary":"s","score":4}');
    expect(fake.last().body.text.format).toMatchObject({ type: 'json_schema', strict: true, schema: SCHEMA });
  });

  it('OpenAI: sends image inputs as image parts', async () => {
    fake.reply({ text: 'a dot' });
    await client('openai').generateText(request({ messages: withImage('Summarize: hello') }));
    const content = fake.last().body.input[0].content;
    expect(content[0]).toMatchObject({ type: 'input_text', text: 'Summarize: hello' });
    expect(content[1]).toMatchObject({ type: 'input_image', image_url: PNG_URI });
  });

  it('OpenAI: generates images with size, n and provider settings, returning revised prompts and usage', async () => {
    fake.reply({
      images: [{ b64: FAKE_PNG, revisedPrompt: 'a red dot, centered' }],
      inputTokens: 20,
      outputTokens: 100,
    });
    const result = await client('openai').generateImage({
      model: 'gpt-image-1',
      prompt: 'a red dot',
      settings: { size: '1024x1024', quality: 'high', n: 1, output_format: 'png' },
      abortSignal: AbortSignal.timeout(5000),
    });
    expect(result).toEqual({
      images: [{ base64Data: FAKE_PNG, revisedPrompt: 'a red dot, centered' }],
      usage: { inputTokens: 20, outputTokens: 100 },
    });
    expect(fake.last().path).toBe('/v1/images/generations');
    expect(fake.last().body).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'a red dot',
      size: '1024x1024',
      quality: 'high',
      n: 1,
      output_format: 'png',
    });
  });

  it('Anthropic: calls /v1/messages with its key header, image parts and a JSON schema', async () => {
    fake.reply({ text: '{"summary":"s","score":1}', inputTokens: 5, outputTokens: 6 });
    const result = await client('anthropic').generateText(imageAndSchemaRequest('claude-sonnet-4-5'));
    expect(result.object).toEqual({ summary: 's', score: 1 });
    expect(result.usage).toEqual({ inputTokens: 5, outputTokens: 6 });
    const sent = fake.last();
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant');
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 64, temperature: 0.3 });
    const content = sent.body.messages[0].content;
    expect(content[0]).toMatchObject({ type: 'text', text: 'Summarize: hello' });
    expect(content[1]).toMatchObject({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: FAKE_PNG },
    });
    expect(JSON.stringify(sent.body)).toContain('"summary"');
  });

  it('Google: calls :generateContent with its key header, inline image data and a response schema', async () => {
    fake.reply({ text: '{"summary":"g","score":2}' });
    const result = await client('google').generateText(imageAndSchemaRequest('gemini-2.5-flash'));
    expect(result.object).toEqual({ summary: 'g', score: 2 });
    const sent = fake.last();
    expect(sent.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('g-key');
    expect(sent.body.generationConfig).toMatchObject({
      temperature: 0.3,
      maxOutputTokens: 64,
      responseMimeType: 'application/json',
    });
    expect(JSON.stringify(sent.body.generationConfig)).toContain('"summary"');
    expect(sent.body.contents[0].parts).toEqual([
      { text: 'Summarize: hello' },
      { inlineData: { mimeType: 'image/png', data: FAKE_PNG } },
    ]);
  });

  it('Google: generates images with a Gemini image model through :generateContent', async () => {
    fake.reply({ images: [{ b64: FAKE_PNG }], inputTokens: 9, outputTokens: 1290 });
    const result = await client('google').generateImage({
      model: 'gemini-2.5-flash-image',
      prompt: 'a dot',
      settings: { n: 1, aspectRatio: '1:1' },
      abortSignal: AbortSignal.timeout(5000),
    });
    expect(result.images).toEqual([{ base64Data: FAKE_PNG, revisedPrompt: 'a dot' }]);
    expect(fake.last().path).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(fake.last().body.contents[0].parts[0]).toEqual({ text: 'a dot' });
    expect(fake.last().body.generationConfig).toMatchObject({
      responseModalities: ['IMAGE'],
      imageConfig: { aspectRatio: '1:1' },
    });
  });

  it('OpenAI-compatible: posts to <baseUrl>/chat/completions with json_schema and passes unknown parameters through', async () => {
    fake.reply({ text: '{"summary":"o","score":3}' });
    const result = await client('ollama').generateText(
      request({
        model: 'llama3.2',
        customParameters: { num_ctx: 4096, top_p: 0.9 },
        schema: { jsonSchema: SCHEMA, strict: false },
      }),
    );
    expect(result.object).toEqual({ summary: 'o', score: 3 });
    const sent = fake.last();
    expect(sent.path).toBe('/ollama/v1/chat/completions');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({
      model: 'llama3.2',
      temperature: 0.3,
      max_tokens: 64,
      top_p: 0.9,
      num_ctx: 4096,
      response_format: { type: 'json_schema', json_schema: { schema: SCHEMA, strict: false } },
    });
    expect(sent.body.messages).toEqual([{ role: 'user', content: 'Summarize: hello' }]);
  });

  it("a provider error is an UpstreamError in our words, the provider's text kept for the service log, after exactly one request (no retries)", async () => {
    fake.reply({ status: 500, message: 'the model is overloaded' });
    const failure = client('openai').generateText(request());
    await expect(failure).rejects.toBeInstanceOf(UpstreamError);
    await expect(failure).rejects.toThrow(/^the provider 'openai' refused the call: server error \(500\)$/);
    await expect(failure).rejects.toMatchObject({
      providerMessage: expect.stringContaining('the model is overloaded'),
    });
    expect(fake.requests).toHaveLength(1);
  });

  it.each(['openai', 'anthropic', 'google', 'ollama'])(
    '%s: a provider error carries its HTTP status and Retry-After, after one request; no answer is a network failure',
    async (name) => {
      fake.reply({ status: 429, message: 'slow down', retryAfter: '2' });
      const limited = await client(name)
        .generateText(request())
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(limited).toBeInstanceOf(ProviderError);
      expect(limited).toMatchObject({ providerStatus: 429, retryAfterMs: 2000 });
      expect(fake.requests).toHaveLength(1);

      fake.reply({ status: 503, message: 'unavailable' });
      await expect(client(name).generateText(request())).rejects.toMatchObject({
        providerStatus: 503,
        retryAfterMs: null,
      });
      fake.reply({ drop: true });
      await expect(client(name).generateText(request())).rejects.toMatchObject({
        providerStatus: null,
        message: `the provider '${name}' could not be reached`,
      });
      expect(fake.requests).toHaveLength(3);
    },
  );

  it.each([
    [{ topP: 'high' }, 'topP must be a number'],
    [{ seed: Number.NaN }, 'seed must be a number'],
    [{ stop: 42 }, 'stopSequences must be a string or a list of strings'],
  ])(
    'customParameters %p of the wrong type are an UpstreamError, and nothing is sent',
    async (customParameters, message) => {
      await expect(client('openai').generateText(request({ customParameters }))).rejects.toThrow(message);
      expect(fake.requests).toHaveLength(0);
    },
  );

  it('an answer that is not JSON for a schema is an InvalidLlmOutputError carrying the raw text', async () => {
    fake.reply({ text: 'sorry, no JSON today' });
    const failure = client('anthropic').generateText(request({ schema: { jsonSchema: SCHEMA, strict: true } }));
    await expect(failure).rejects.toBeInstanceOf(InvalidLlmOutputError);
    await expect(failure).rejects.toMatchObject({ rawText: 'sorry, no JSON today' });
  });

  it('a provider slower than the deadline is an UpstreamTimeoutError', async () => {
    // The provider answers long after the deadline; a loaded machine may take seconds to notice the abort.
    fake.reply({ text: 'late', delayMs: 15_000 });
    const started = Date.now();
    await expect(
      client('google').generateText(request({ abortSignal: AbortSignal.timeout(300) })),
    ).rejects.toBeInstanceOf(UpstreamTimeoutError);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('mock: echoes the prompt, and fills string fields of a schema with it', async () => {
    await expect(client('mock').generateText(request())).resolves.toEqual({
      text: 'Summarize: hello',
      usage: { inputTokens: 4, outputTokens: 4 },
      finishReason: 'stop',
    });
    const structured = await client('mock').generateText(request({ schema: { jsonSchema: SCHEMA, strict: true } }));
    expect(structured.object).toEqual({ summary: 'Summarize: hello', score: 0 });
    expect(JSON.parse(structured.text)).toEqual(structured.object);
    expect(fake.requests).toHaveLength(0);
  });
});
