import { FakeLlmServer } from '../../../../test/support/fake-llm-server';
import { UpstreamTimeoutError } from '../../../common/errors/app-error';
import type { ProviderDefinition } from '../../models/model';
import { AnswerTooLargeError, type LlmClient, ProviderError, type TextRequest } from '../llm-client';
import { LlmRegistry } from '../llm-registry';
import { ProviderHttp } from '../provider-http';
import { AnthropicProvider } from '../providers/anthropic.provider';
import { GoogleProvider } from '../providers/google.provider';
import { OpenAiCompatibleProvider } from '../providers/openai-compatible.provider';
import { OpenAiProvider } from '../providers/openai.provider';
import { SseDecoder } from './sse-decoder';

const SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' }, score: { type: 'integer' } },
  required: ['summary', 'score'],
  additionalProperties: false,
};

/** Streamed calls through each provider adapter, read by LeanEventStream from the fake provider's real formats. */
describe('streamed answers read by the lean event-stream reader', () => {
  let fake: FakeLlmServer;
  const registries = new Map<number, LlmRegistry>();

  beforeAll(async () => {
    fake = await FakeLlmServer.start();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());
  afterEach(() => jest.restoreAllMocks());

  const definitions = (): Record<string, ProviderDefinition> => ({
    openai: { name: 'openai', kind: 'openai', apiKey: 'sk-openai', baseUrl: `${fake.url}/v1`, configured: true },
    anthropic: { name: 'anthropic', kind: 'anthropic', apiKey: 'sk-ant', baseUrl: `${fake.url}/v1`, configured: true },
    google: { name: 'google', kind: 'google', apiKey: 'g-key', baseUrl: `${fake.url}/v1beta`, configured: true },
    local: { name: 'local', kind: 'openai-compatible', baseUrl: `${fake.url}/local/v1`, configured: true },
  });
  const client = (name: string, maxAnswerBytes = 4 * 1024 * 1024): LlmClient => {
    let registry = registries.get(maxAnswerBytes);
    if (!registry) {
      const http = new ProviderHttp({
        maxAnswerBytes,
        maxImagesPerCall: 1,
        maxImageBytes: 1024,
        egressProxy: undefined,
      });
      registry = new LlmRegistry([
        new OpenAiProvider(http),
        new AnthropicProvider(http),
        new GoogleProvider(http),
        new OpenAiCompatibleProvider(http),
      ]);
      registries.set(maxAnswerBytes, registry);
    }
    return registry.clientFor(definitions()[name]);
  };
  const request = (model: string, overrides: Partial<TextRequest> = {}): TextRequest => ({
    model,
    prompt: 'Say hello',
    temperature: 0.2,
    maxOutputTokens: 64,
    abortSignal: AbortSignal.timeout(5000),
    ...overrides,
  });

  const providers: [string, string][] = [
    ['openai', 'gpt-4o-mini'],
    ['anthropic', 'claude-sonnet-4-5'],
    ['google', 'gemini-2.5-flash'],
    ['local', 'llama-test'],
  ];

  it.each(providers)('%s: the text in pieces as they come, then the usage and finish reason', async (name, model) => {
    const read = jest.spyOn(SseDecoder.prototype, 'push');
    fake.reply({ text: 'Hello there, streaming world!', inputTokens: 21, outputTokens: 9, stream: { chunks: 5 } });
    const pieces: string[] = [];
    const result = await client(name).streamText(request(model), (event) => {
      if (event.type === 'delta') pieces.push(event.text);
    });
    expect(read).toHaveBeenCalled();
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    expect(pieces.join('')).toBe('Hello there, streaming world!');
    expect(result).toMatchObject({
      text: 'Hello there, streaming world!',
      usage: { inputTokens: 21, outputTokens: 9 },
      finishReason: 'stop',
    });
  });

  it.each(providers)(
    '%s: a structured answer streams its JSON text and is parsed once, at the end',
    async (name, model) => {
      const read = jest.spyOn(SseDecoder.prototype, 'push');
      fake.reply({ text: '{"summary":"Brève","score":3}', stream: { chunks: 6 } });
      const pieces: string[] = [];
      const result = await client(name).streamText(
        request(model, { schema: { jsonSchema: SCHEMA, strict: true } }),
        (event) => {
          if (event.type === 'delta') pieces.push(event.text);
        },
      );
      expect(read).toHaveBeenCalled();
      expect(pieces.join('')).toBe('{"summary":"Brève","score":3}');
      expect(result.object).toEqual({ summary: 'Brève', score: 3 });
      // Asked for natively, not through a tool the lean reader would leave to the library.
      expect(JSON.stringify(fake.last().body)).not.toContain('"tools":');
    },
  );

  it.each(providers)(
    '%s: a refusal is read by the provider library, as a plain call is: its status and Retry-After',
    async (name, model) => {
      fake.reply({ status: 429, message: 'Slow down', retryAfter: '3' });
      const failure = await client(name)
        .streamText(request(model), () => undefined)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderError);
      expect(failure).toMatchObject({ providerStatus: 429, retryAfterMs: 3000 });
      expect((failure as ProviderError).providerMessage).toContain('Slow down');
      // One request: the library built it, and was handed the answer rather than sending it again.
      expect(fake.requests).toHaveLength(1);
    },
  );

  it('an answer past MAX_ANSWER_BYTES stops the read and closes the connection', async () => {
    fake.reply({ text: 'x'.repeat(4000), stream: { chunks: 40, chunkDelayMs: 5 } });
    await expect(client('local', 1000).streamText(request('llama-test'), () => undefined)).rejects.toBeInstanceOf(
      AnswerTooLargeError,
    );
    await waitFor(() => fake.last().closedEarly === true);
  });

  it('an error the provider reports after the answer began is a failure while answering, its text for the log', async () => {
    fake.reply({ text: 'Hello there', streamError: 'Overloaded', stream: { chunks: 3 } });
    const pieces: string[] = [];
    const failure = await client('anthropic')
      .streamText(request('claude-sonnet-4-5'), (event) => {
        if (event.type === 'delta') pieces.push(event.text);
      })
      .catch((error: unknown) => error);
    expect(pieces.length).toBe(1);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({
      message: "the provider 'anthropic' reported an error while answering",
      providerStatus: null,
      providerMessage: 'Overloaded',
    });
  });

  it('an aborted call stops reading and closes the connection: a timeout', async () => {
    fake.reply({ text: 'a'.repeat(50), stream: { chunks: 10, chunkDelayMs: 50 } });
    const stopping = new AbortController();
    const call = client('openai').streamText(request('gpt-4o-mini', { abortSignal: stopping.signal }), () =>
      stopping.abort(new Error('deadline')),
    );
    await expect(call).rejects.toBeInstanceOf(UpstreamTimeoutError);
    await waitFor(() => fake.last().closedEarly === true);
  });

  it('waits while its reader is full, and reads on once it drains', async () => {
    fake.reply({ text: 'abcdefgh', stream: { chunks: 8, chunkDelayMs: 2 } });
    let full = true;
    let resume: (() => void) | null = null;
    const pieces: string[] = [];
    const call = client('local').streamText(
      request('llama-test', {
        backpressure: {
          isFull: () => full,
          onceDrained: (next) => (resume = next),
        },
      }),
      (event) => {
        if (event.type === 'delta') pieces.push(event.text);
      },
    );
    await waitFor(() => resume !== null);
    const seen = pieces.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Paused: nothing more was read meanwhile, though the provider wrote on.
    expect(pieces.length).toBe(seen);
    full = false;
    resume!();
    const result = await call;
    expect(result.text).toBe('abcdefgh');
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
