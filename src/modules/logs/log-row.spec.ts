import { toLogRow } from './log-row';
import type { NewExecutionLog } from './new-execution-log';
import { newLogEntry } from '../../../test/support/log-entries';

const ENTRY = newLogEntry();

const rowOf = (entry: Partial<NewExecutionLog>, maxFieldBytes = 65_536) =>
  toLogRow({ ...ENTRY, ...entry }, maxFieldBytes).row;

describe('toLogRow', () => {
  it('gives each row an id of its own and keeps what fits as it is', () => {
    const first = rowOf({ inputs: { text: 'hi' }, renderedPrompt: 'Say hi', parsedOutput: { a: 1 } });
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rowOf({}).id).not.toBe(first.id);
    expect(first).toMatchObject({
      inputsJson: '{"text":"hi"}',
      renderedPrompt: 'Say hi',
      parsedOutputJson: '{"a":1}',
      truncatedFields: [],
      attemptsJson: '[]',
    });
  });

  it('drops NUL characters, which text and jsonb columns cannot hold, and replaces lone surrogates', () => {
    const row = rowOf({
      inputs: { text: 'a\u0000b\ud800c', typed: '\\u0000' },
      renderedPrompt: 'x\u0000y',
      errorMessage: 'bad\u0000',
    });
    expect(row.inputsJson).toBe('{"text":"ab\\ufffdc","typed":"\\\\u0000"}');
    expect(JSON.parse(row.inputsJson!)).toEqual({ text: 'ab\ufffdc', typed: '\\u0000' });
    expect([row.renderedPrompt, row.errorMessage]).toEqual(['xy', 'bad']);
  });

  it('caps each large field at the byte limit and lists the fields cut', () => {
    const long = 'é'.repeat(100);
    const row = rowOf({ inputs: { text: long }, renderedPrompt: long, rawResponse: 'short', parsedOutput: long }, 50);
    expect(row.truncatedFields).toEqual(['inputs', 'renderedPrompt', 'parsedOutput']);
    expect(row.renderedPrompt).toBe(`${'é'.repeat(25)}…[truncated 150 bytes]`);
    expect(row.rawResponse).toBe('short');
    // A cut JSON value is stored as the string of its cut text.
    expect(typeof JSON.parse(row.inputsJson!)).toBe('string');
    expect(JSON.parse(row.parsedOutputJson!)).toMatch(/…\[truncated \d+ bytes\]$/);
  });

  it('bounds the short columns and rounds the times', () => {
    const row = rowOf({
      requestId: 'r'.repeat(300),
      errorCode: 'c'.repeat(100),
      llmModel: 'm'.repeat(300),
      finishReason: 'f'.repeat(50),
      latencyMs: 12.6,
      ttftMs: -3,
    });
    expect([row.requestId.length, row.errorCode?.length, row.llmModel?.length, row.finishReason?.length]).toEqual([
      128, 64, 200, 32,
    ]);
    expect([row.latencyMs, row.ttftMs]).toEqual([13, 0]);
  });

  it("cuts each attempt's error message", () => {
    const row = rowOf({
      attempts: [
        {
          llmModel: 'gpt',
          latencyMs: 5,
          outcome: 'error',
          httpStatus: 502,
          errorMessage: 'x'.repeat(5000),
          inputTokens: null,
          outputTokens: null,
          costUsd: null,
        },
      ],
    });
    const [attempt] = JSON.parse(row.attemptsJson) as { errorMessage: string }[];
    expect(attempt.errorMessage).toHaveLength(2000);
  });

  it('measures the row by its variable parts', () => {
    const small = toLogRow(ENTRY, 65_536).bytes;
    const large = toLogRow({ ...ENTRY, rawResponse: 'x'.repeat(1000) }, 65_536).bytes;
    expect(large - small).toBe(1000);
  });

  it('stores no messages for one user message of the whole text, and the others as JSON with their texts capped', () => {
    const plain = rowOf({ renderedPrompt: 'Hi', renderedMessages: [{ role: 'user', content: 'Hi' }] });
    expect(plain.renderedMessagesJson).toBeNull();
    expect(rowOf({ renderedPrompt: null, renderedMessages: null }).renderedMessagesJson).toBeNull();
    const chat = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'x'.repeat(2000) },
    ];
    const full = rowOf({ renderedPrompt: `Be brief.${'x'.repeat(2000)}`, renderedMessages: chat });
    expect(JSON.parse(full.renderedMessagesJson!)).toEqual(chat);
    const capped = rowOf({ renderedPrompt: 'short', renderedMessages: chat }, 1024);
    expect(JSON.parse(capped.renderedMessagesJson!)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: `${'x'.repeat(1015)}…[truncated 985 bytes]` },
    ]);
    expect(capped.truncatedFields).toEqual(['renderedMessages']);
  });
});
