import { MAX_REASON_LENGTH } from './check-reason';
import { judgeCheckResult, judgeOutputSchema, judgeRubricScope } from './judge';

describe('judgeOutputSchema', () => {
  it('asks for {pass, score, reason}, all required, strictly', () => {
    expect(judgeOutputSchema.strict).toBe(true);
    expect(judgeOutputSchema.jsonSchema).toMatchObject({
      type: 'object',
      properties: {
        pass: { type: 'boolean' },
        score: { type: 'number', description: expect.stringContaining('from 0') },
        reason: { type: 'string' },
      },
      required: ['pass', 'score', 'reason'],
      additionalProperties: false,
    });
  });
});

describe('judgeRubricScope', () => {
  it('names the inputs, the output and the expected output, null when the item has none', () => {
    const inputs = { text: 'buy now' };
    expect(judgeRubricScope({ inputs, output: { category: 'spam' }, expectedOutput: 'spam' })).toEqual({
      inputs,
      output: { category: 'spam' },
      expected: 'spam',
    });
    expect(judgeRubricScope({ inputs, output: 'x', expectedOutput: undefined }).expected).toBeNull();
  });
});

describe('judgeCheckResult', () => {
  it("passes when the judge says pass at or above the threshold, with the judge's reason", () => {
    expect(judgeCheckResult({ pass: true, score: 0.8, reason: 'Polite and correct.' }, 0.8)).toEqual({
      type: 'judge',
      pass: true,
      reason: 'Polite and correct.',
    });
  });

  it('fails a passing answer that scored below the threshold, saying so', () => {
    expect(judgeCheckResult({ pass: true, score: 0.6, reason: 'Mostly right.' }, 0.75)).toEqual({
      type: 'judge',
      pass: false,
      reason: 'scored 0.6, below the threshold 0.75: Mostly right.',
    });
    expect(judgeCheckResult({ pass: true, score: 0, reason: ' ' }, 0.5).reason).toBe(
      'scored 0, below the threshold 0.5',
    );
  });

  it('fails when the judge says fail, whatever the score', () => {
    expect(judgeCheckResult({ pass: false, score: 1, reason: 'Wrong language.' }, 0)).toEqual({
      type: 'judge',
      pass: false,
      reason: 'Wrong language.',
    });
  });

  it('gives no reason for an empty one and bounds a long one', () => {
    expect(judgeCheckResult({ pass: true, score: 1, reason: '' }, 1).reason).toBeNull();
    expect(judgeCheckResult({ pass: false, score: 0, reason: 'x'.repeat(2000) }, 1).reason).toHaveLength(
      MAX_REASON_LENGTH,
    );
  });

  it('fails a malformed answer', () => {
    const malformed = [
      null,
      'pass',
      [true, 1, 'ok'],
      { pass: 'yes', score: 1, reason: 'ok' },
      { pass: true, reason: 'ok' },
      { pass: true, score: 1.5, reason: 'ok' },
      { pass: true, score: -0.1, reason: 'ok' },
      { pass: true, score: 1, reason: 42 },
    ];
    for (const answer of malformed) {
      expect(judgeCheckResult(answer, 0)).toEqual({
        type: 'judge',
        pass: false,
        reason: "the judge's answer was not {pass, score, reason}",
      });
    }
  });
});
