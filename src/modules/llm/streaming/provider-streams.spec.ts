import * as fs from 'node:fs';
import * as path from 'node:path';
import { type FakeRoute, fakeStreamWire } from '../../../../test/support/fake-llm-server';
import type { TokenUsage } from '../llm-client';
import { providerStreamOf, type StreamFailure, type StreamFormat } from './provider-streams';
import { SseDecoder } from './sse-decoder';

const FIXTURES = path.join(__dirname, '../../../../test/fixtures/provider-streams');

interface Read {
  text: string;
  pieces: number;
  usage: TokenUsage;
  finishReason: string;
  responseModel: string | undefined;
  failure: StreamFailure | null;
}

/** The bytes read as LeanEventStream reads them, in the given chunks. */
function read(format: StreamFormat, chunks: Buffer[]): Read {
  let text = '';
  let pieces = 0;
  const stream = providerStreamOf(format, (piece) => {
    text += piece;
    pieces++;
  });
  const decoder = new SseDecoder((name, data) => {
    if (stream.failure === null) stream.event(name, data);
  });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  if (stream.failure === null) stream.end();
  const { usage, finishReason, responseModel, failure } = stream;
  return { text, pieces, usage, finishReason, responseModel, failure };
}

/** A small seeded generator, so a failing split can be told again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The bytes cut at random places (anywhere: inside a line, a CRLF or a UTF-8 character), sometimes byte by byte. */
function splits(bytes: Buffer, seed: number): Buffer[] {
  const next = random(seed);
  const chunks: Buffer[] = [];
  const most = seed % 5 === 0 ? 1 : Math.max(1, Math.floor(next() * 64));
  for (let offset = 0; offset < bytes.length;) {
    const size = 1 + Math.floor(next() * most);
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

interface Recorded {
  file: string;
  format: StreamFormat;
  /** The fake provider's route for the same format. */
  route: FakeRoute;
  /** The body a request of this mode sends (what the fake shapes its stream by). */
  request: Record<string, unknown>;
  text: string;
  usage: TokenUsage;
  finishReason: string;
  responseModel: string | undefined;
}

/**
 * The recorded streams (test/fixtures/provider-streams: each provider's real wire format, one per provider and mode,
 * with the ids, event types and usage placement the providers send) and what each answers.
 */
const RECORDED: Recorded[] = [
  {
    file: 'openai-chat-text.sse',
    format: 'openai-chat',
    route: 'openai.chat',
    request: { model: 'gpt-4.1-nano', stream: true, stream_options: { include_usage: true } },
    text: '**Holiday Name:** Harmony Day\n\n**Date:** Celebrated annually on the first Saturday of May.',
    usage: { inputTokens: 16, outputTokens: 20 },
    finishReason: 'stop',
    responseModel: 'gpt-4.1-nano-2025-04-14',
  },
  {
    file: 'openai-chat-json.sse',
    format: 'openai-chat',
    route: 'openai.chat',
    request: { model: 'gpt-4.1-nano', stream: true, stream_options: { include_usage: true } },
    text: '{"summary":"A café serves crème brûlée — très bon.","score":8}',
    usage: { inputTokens: 87, outputTokens: 17 },
    finishReason: 'stop',
    responseModel: 'gpt-4.1-nano-2025-04-14',
  },
  {
    file: 'openai-responses-text.sse',
    format: 'openai-responses',
    route: 'openai.responses',
    request: { model: 'gpt-4o-mini', stream: true },
    text: 'The capital of France is Paris. It lies on the Seine.',
    usage: { inputTokens: 14, outputTokens: 13 },
    finishReason: 'stop',
    responseModel: 'gpt-4o-mini-2024-07-18',
  },
  {
    file: 'openai-responses-json.sse',
    format: 'openai-responses',
    route: 'openai.responses',
    request: { model: 'gpt-4o-mini', stream: true },
    text: '{"summary":"Un résumé 😀 bref","score": 7}',
    usage: { inputTokens: 61, outputTokens: 12 },
    finishReason: 'stop',
    responseModel: 'gpt-4o-mini-2024-07-18',
  },
  {
    file: 'anthropic-text.sse',
    format: 'anthropic',
    route: 'anthropic.messages',
    request: { model: 'claude-sonnet-4-5', stream: true },
    text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    usage: { inputTokens: 12, outputTokens: 30 },
    finishReason: 'stop',
    responseModel: 'claude-sonnet-4-5-20250929',
  },
  {
    file: 'anthropic-json.sse',
    format: 'anthropic',
    route: 'anthropic.messages',
    request: { model: 'claude-sonnet-4-5', stream: true },
    text: '{"characters":[{"name":"Theron Ironheart","class":"warrior","description":"A battle-scarred veteran with steel-gray hair."}]}',
    usage: { inputTokens: 313, outputTokens: 41 },
    finishReason: 'stop',
    responseModel: 'claude-sonnet-4-5-20250929',
  },
  {
    file: 'google-text.sse',
    format: 'google',
    route: 'google.streamGenerateContent',
    request: { contents: [] },
    text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
    // Thinking tokens count as output, as the provider bills them.
    usage: { inputTokens: 9, outputTokens: 208 },
    finishReason: 'stop',
    responseModel: undefined,
  },
  {
    file: 'google-json.sse',
    format: 'google',
    route: 'google.streamGenerateContent',
    request: { contents: [] },
    text: '{"summary": "Ein kurzer Überblick über Straßen", "score": 9}',
    usage: { inputTokens: 42, outputTokens: 17 },
    finishReason: 'stop',
    responseModel: undefined,
  },
];

describe('provider event streams: contract against recorded real payloads', () => {
  describe.each(RECORDED)('$file', (recorded) => {
    const bytes = fs.readFileSync(path.join(FIXTURES, recorded.file));

    it('is read to its text, usage, finish reason and model, in one piece and in 200 random splits', () => {
      const expected = {
        text: recorded.text,
        usage: recorded.usage,
        finishReason: recorded.finishReason,
        responseModel: recorded.responseModel,
        failure: null,
      };
      expect(read(recorded.format, [bytes])).toMatchObject(expected);
      for (let seed = 1; seed <= 200; seed++) {
        const result = read(recorded.format, splits(bytes, seed));
        if (result.text !== recorded.text || result.failure !== null) {
          throw new Error(`split ${seed}: ${JSON.stringify(result)}`);
        }
        expect(result).toMatchObject(expected);
      }
    });

    it("the fake provider's stream of the same answer reads the same", () => {
      const reply = {
        text: recorded.text,
        inputTokens: recorded.usage.inputTokens!,
        outputTokens: recorded.usage.outputTokens!,
        stream: { chunks: 7 },
      };
      const wire = Buffer.from(fakeStreamWire(recorded.route, reply, recorded.request), 'utf8');
      for (const chunks of [[wire], splits(wire, 3), splits(wire, 5)]) {
        const result = read(recorded.format, chunks);
        expect(result).toMatchObject({
          text: recorded.text,
          usage: recorded.usage,
          finishReason: recorded.finishReason,
          failure: null,
        });
        expect(result.pieces).toBeGreaterThanOrEqual(2);
      }
    });
  });
});

describe('provider event streams: what ends them', () => {
  const sse = (events: [string | null, unknown][]) =>
    Buffer.from(
      events
        .map(
          ([name, data]) =>
            `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
        )
        .join(''),
    );

  it('Anthropic: an error before message_start is a refusal with the status its type stands for', () => {
    const result = read('anthropic', [
      sse([['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]]),
    ]);
    expect(result.failure).toEqual({ status: 529, message: 'Overloaded' });
  });

  it('Anthropic: an error after the answer began is a failure while answering; nothing after it is read', () => {
    const start = { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 3 } } };
    const delta = (text: string) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
    const result = read('anthropic', [
      sse([
        ['message_start', start],
        ['content_block_delta', delta('Hel')],
        ['error', { type: 'error', error: { type: 'api_error', message: 'Internal server error' } }],
        ['content_block_delta', delta('lo')],
      ]),
    ]);
    expect(result.text).toBe('Hel');
    expect(result.failure).toEqual({ status: null, message: 'Internal server error' });
  });

  it('Anthropic: thinking is not the answer; a stream cut off after some text is interrupted', () => {
    const result = read('anthropic', [
      sse([
        ['message_start', { type: 'message_start', message: { id: 'm', model: 'c', usage: { input_tokens: 1 } } }],
        ['content_block_delta', { type: 'content_block_delta', delta: { type: 'thinking_delta', thinking: 'hmm' } }],
        ['content_block_delta', { type: 'content_block_delta', delta: { type: 'text_delta', text: 'Hi' } }],
      ]),
    ]);
    expect(result).toMatchObject({ text: 'Hi', finishReason: 'interrupted', failure: null });
  });

  it('OpenAI Responses: an error event before any output is refused with the status its code names', () => {
    const recorded = fs.readFileSync(path.join(FIXTURES, 'openai-responses-text.sse'), 'utf8');
    const created = recorded.slice(0, recorded.indexOf('event: response.output_item.added'));
    const error = {
      type: 'error',
      sequence_number: 2,
      error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota' },
    };
    const result = read('openai-responses', [Buffer.from(created), sse([['error', error]])]);
    expect(result.failure).toEqual({ status: 429, message: 'You exceeded your current quota' });
  });

  it('OpenAI Responses: an incomplete answer ends with its reason; a failed one after output is a failure', () => {
    const incomplete = read('openai-responses', [
      sse([
        ['response.output_text.delta', { type: 'response.output_text.delta', delta: 'Par' }],
        [
          'response.incomplete',
          {
            type: 'response.incomplete',
            response: {
              incomplete_details: { reason: 'max_output_tokens' },
              usage: { input_tokens: 5, output_tokens: 1 },
            },
          },
        ],
      ]),
    ]);
    expect(incomplete).toMatchObject({
      text: 'Par',
      finishReason: 'length',
      usage: { inputTokens: 5, outputTokens: 1 },
    });
    const failed = read('openai-responses', [
      sse([
        ['response.output_text.delta', { type: 'response.output_text.delta', delta: 'Par' }],
        [
          'response.failed',
          { type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } },
        ],
      ]),
    ]);
    expect(failed.failure).toEqual({ status: null, message: 'boom' });
  });

  it('Chat Completions: an error chunk, a stream without a finish reason and data that is not JSON are failures', () => {
    expect(
      read('openai-chat', [sse([[null, { error: { message: 'Bad things', type: 'server_error' } }]])]).failure,
    ).toEqual({ status: null, message: 'Bad things' });
    const unfinished = { id: 'c', model: 'm', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] };
    expect(
      read('openai-chat', [
        sse([
          [null, unfinished],
          [null, '[DONE]'],
        ]),
      ]).failure,
    ).toEqual({
      status: null,
      message: 'Response stream ended without a finish reason.',
    });
    expect(read('openai-chat', [sse([[null, '{"choices": [']])]).failure?.message).toMatch(/not JSON/);
  });

  it('Chat Completions: a refusal is the text, and finishes as filtered', () => {
    const chunk = (delta: object, finish: string | null) => ({
      id: 'c',
      model: 'm',
      choices: [{ delta, finish_reason: finish }],
    });
    const result = read('openai-chat', [
      sse([
        [null, chunk({ refusal: 'I cannot.' }, null)],
        [null, chunk({}, 'stop')],
      ]),
    ]);
    expect(result).toMatchObject({ text: 'I cannot.', finishReason: 'content-filter', usage: { inputTokens: null } });
  });

  it('Google: thought parts are not the answer; a blocked prompt finishes as filtered; an error is a failure', () => {
    const parts = { candidates: [{ content: { parts: [{ text: 'plan', thought: true }, { text: 'Answer' }] } }] };
    expect(read('google', [sse([[null, parts]])])).toMatchObject({ text: 'Answer', finishReason: 'interrupted' });
    const blocked = { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4 } };
    expect(read('google', [sse([[null, blocked]])])).toMatchObject({
      text: '',
      finishReason: 'content-filter',
      usage: { inputTokens: 4, outputTokens: 0 },
    });
    const error = { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } };
    expect(read('google', [sse([[null, error]])]).failure).toEqual({
      status: null,
      message: 'The model is overloaded.',
    });
  });
});
