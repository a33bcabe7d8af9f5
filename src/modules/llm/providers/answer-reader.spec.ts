import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LlmClient, TextRequest } from '../llm-client';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient } from './ai-sdk-client';
import { OpenAiCompatibleProvider } from './openai-compatible.provider';

// A plain call's answer read by us (one JSON parse, the library's own conversion) must give exactly what the provider
// library's own read gives, for real Chat Completions answers and for every kind of failure: the two clients below
// differ only in that.
const FIXTURES = path.join(__dirname, '../../../../test/fixtures/provider-answers');
const SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' }, score: { type: 'integer' } },
  required: ['summary', 'score'],
  additionalProperties: false,
};

interface Answer {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

describe("OpenAI-compatible plain answers read without the library's fetch handling", () => {
  let server: http.Server;
  let answer: Answer;
  let requests = 0;
  let lean: LlmClient;
  let library: LlmClient;
  let jsonAnswer: jest.SpyInstance;
  /** Whether the lean client's last call had its answer handed over as JSON text (read by us, not the library). */
  const readByUs = async () => !((await jsonAnswer.mock.results.at(-1)!.value) instanceof Response);

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        requests++;
        response.writeHead(answer.status, { 'content-type': answer.contentType, ...answer.headers });
        response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const providerHttp = new ProviderHttp({
      maxAnswerBytes: 64 * 1024,
      maxImagesPerCall: 1,
      maxImageBytes: 1024,
      egressProxy: undefined,
    });
    const definition = { name: 'local', kind: 'openai-compatible' as const, baseUrl, configured: true };
    jsonAnswer = jest.spyOn(providerHttp, 'textJsonAnswer');
    lean = new OpenAiCompatibleProvider(providerHttp).createClient(definition);
    const sdk = createOpenAICompatible({
      name: 'local',
      baseURL: baseUrl,
      supportsStructuredOutputs: true,
      includeUsage: true,
      fetch: providerHttp.text,
    });
    library = new AiSdkClient({ providerName: 'local', optionsKey: 'local', languageModel: (id) => sdk.chatModel(id) });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const request = (overrides: Partial<TextRequest> = {}): TextRequest => ({
    model: 'model-x',
    prompt: 'Summarize: the quick brown fox',
    temperature: 0,
    maxOutputTokens: 64,
    abortSignal: AbortSignal.timeout(5000),
    ...overrides,
  });
  const fixture = (name: string): Answer => ({
    status: 200,
    contentType: 'application/json',
    body: fs.readFileSync(path.join(FIXTURES, name), 'utf8'),
  });
  /** What a client answered or failed with, each after exactly one request. */
  const outcomeOf = async (client: LlmClient, call: TextRequest) => {
    requests = 0;
    const outcome = await client.generateText(call).then(
      (result) => ({ result }),
      (error: Error) => ({ error: { type: error.constructor.name, ...error, message: error.message } }),
    );
    expect(requests).toBe(1);
    return outcome;
  };
  const bothRead = async (given: Answer, call: TextRequest = request()) => {
    answer = given;
    const ours = await outcomeOf(lean, call);
    expect(ours).toEqual(await outcomeOf(library, call));
    return ours;
  };

  it.each(['openai-chat.json', 'vllm-length-reasoning.json', 'openai-refusal.json'])(
    'a recorded answer (%s) reads the same',
    async (name) => {
      jsonAnswer.mockClear();
      const { result } = (await bothRead(fixture(name))) as { result: { text: string } };
      expect(result.text.length).toBeGreaterThan(0);
      expect(jsonAnswer).toHaveBeenCalledTimes(1);
      expect(await readByUs()).toBe(true);
    },
  );

  it('a structured answer reads the same, its object parsed', async () => {
    const outcome = await bothRead(
      fixture('ollama-json.json'),
      request({ schema: { jsonSchema: SCHEMA, strict: true } }),
    );
    expect(outcome).toMatchObject({ result: { object: { summary: 'A fox jumps.', score: 3 }, finishReason: 'stop' } });
  });

  it("usage, finish reason and model are the answer's", async () => {
    const outcome = await bothRead(fixture('vllm-length-reasoning.json'));
    expect(outcome).toEqual({
      result: {
        text: 'A quick brown fox jumps over',
        usage: { inputTokens: 24, outputTokens: 64 },
        finishReason: 'length',
        responseModel: 'Qwen/Qwen3-8B',
      },
    });
  });

  it('a JSON media type with parameters is read here too', async () => {
    await bothRead({ ...fixture('openai-chat.json'), contentType: 'application/json; charset=utf-8' });
  });

  it.each([
    [
      'a refusal with Retry-After',
      {
        status: 429,
        contentType: 'application/json',
        body: '{"error":{"message":"Rate limit reached for org-123"}}',
        headers: { 'retry-after': '2' },
      },
    ],
    ['a server error', { status: 503, contentType: 'text/plain', body: 'unavailable' }],
    ['a 200 that is not JSON', { status: 200, contentType: 'text/html', body: '<html>maintenance</html>' }],
    ['a 200 JSON body that does not parse', { status: 200, contentType: 'application/json', body: '{"choices": [' }],
    [
      'a 200 JSON answer without choices',
      { status: 200, contentType: 'application/json', body: '{"id":"x","choices":[]}' },
    ],
    [
      'a 200 JSON answer of another shape',
      { status: 200, contentType: 'application/json', body: '{"choices":[{"message":7}]}' },
    ],
  ])('%s fails the same', async (_name, given) => {
    const outcome = await bothRead(given);
    expect(outcome).toHaveProperty('error');
    // Only a 200 JSON answer is handed over; any other reaches the library as its answer.
    expect(await readByUs()).toBe(given.status === 200 && given.contentType === 'application/json');
  });
});
