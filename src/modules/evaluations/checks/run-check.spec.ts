import type { OutputFieldRule } from '../../execution/output-schema';
import { MAX_REASON_LENGTH } from './check-reason';
import { type CheckSubject, failedCallResult, type OutputCheck, runCheck } from './run-check';

const field = (name: string, dataType: OutputFieldRule['dataType']): OutputFieldRule => ({
  name,
  dataType,
  description: '',
  exampleValue: null,
});

function subject(overrides: Partial<CheckSubject> = {}): CheckSubject {
  return {
    output: { category: 'spam', score: 3 },
    expectedOutput: { score: 3, category: 'spam' },
    outputFields: [field('category', 'string'), field('score', 'integer')],
    latencyMs: 120,
    costUsd: 0.002,
    failure: null,
    ...overrides,
  };
}

const passed = (type: OutputCheck['type']) => ({ type, pass: true, reason: null });

describe('runCheck', () => {
  describe('a failed call', () => {
    it('fails every check with the failure message', () => {
      const failure = { code: 'upstream_timeout', message: 'the provider did not answer within 30000 ms' };
      const checks: OutputCheck[] = [
        { type: 'schema' },
        { type: 'not_contains', value: 'x', caseSensitive: true },
        { type: 'max_latency_ms', value: 1_000_000 },
        { type: 'max_cost_usd', value: 100 },
      ];
      for (const check of checks) {
        expect(runCheck(check, subject({ failure }))).toEqual({
          type: check.type,
          pass: false,
          reason: 'the call failed: the provider did not answer within 30000 ms',
        });
      }
    });

    it('gives the same result to a judge check, bounded', () => {
      const result = failedCallResult('judge', { message: 'x'.repeat(1000) });
      expect(result).toMatchObject({ type: 'judge', pass: false });
      expect(result.reason!.length).toBe(MAX_REASON_LENGTH);
    });
  });

  describe('schema', () => {
    it('passes an output that conforms to the output fields', () => {
      expect(runCheck({ type: 'schema' }, subject())).toEqual(passed('schema'));
    });

    it('fails a missing field, a field of another type or an output that is not an object', () => {
      expect(runCheck({ type: 'schema' }, subject({ output: { category: 'spam' } }))).toEqual({
        type: 'schema',
        pass: false,
        reason: "the output does not match the output fields: field 'score' is missing",
      });
      expect(runCheck({ type: 'schema' }, subject({ output: { category: 'spam', score: 2.5 } })).reason).toBe(
        "the output does not match the output fields: field 'score' is not an integer",
      );
      expect(runCheck({ type: 'schema' }, subject({ output: 'spam' })).reason).toBe(
        'the output does not match the output fields: it is not a JSON object',
      );
    });

    it("fails an output that breaks a field's constraints, naming the value by its path", () => {
      const outputFields: OutputFieldRule[] = [
        { ...field('category', 'string'), enum: ['spam', 'ham'] },
        {
          ...field('scores', 'array'),
          items: {
            dataType: 'integer',
            description: '',
            enum: null,
            minimum: 0,
            maximum: 5,
            maxLength: null,
            properties: null,
            items: null,
          },
        },
      ];
      expect(
        runCheck({ type: 'schema' }, subject({ output: { category: 'spam', scores: [1, 5] }, outputFields })).pass,
      ).toBe(true);
      expect(
        runCheck({ type: 'schema' }, subject({ output: { category: 'eggs', scores: [] }, outputFields })).reason,
      ).toBe("the output does not match the output fields: field 'category' is not one of its 2 enum values");
      expect(
        runCheck({ type: 'schema' }, subject({ output: { category: 'ham', scores: [1, 9] }, outputFields })).reason,
      ).toBe("the output does not match the output fields: field 'scores[1]' is above its maximum 5");
    });

    it('passes when the endpoint has no output fields, or only an image field', () => {
      expect(runCheck({ type: 'schema' }, subject({ output: 'prose', outputFields: [] })).pass).toBe(true);
      expect(runCheck({ type: 'schema' }, subject({ outputFields: [field('picture', 'image')] })).pass).toBe(true);
    });
  });

  describe('equals', () => {
    it('compares as JSON: key order does not matter, array order and types do', () => {
      expect(runCheck({ type: 'equals' }, subject())).toEqual(passed('equals'));
      const nested = { a: [1, { b: null, c: 'x' }], d: { e: true } };
      expect(
        runCheck(
          { type: 'equals' },
          subject({ output: nested, expectedOutput: { d: { e: true }, a: [1, { c: 'x', b: null }] } }),
        ).pass,
      ).toBe(true);
      expect(runCheck({ type: 'equals' }, subject({ output: [1, 2], expectedOutput: [2, 1] })).pass).toBe(false);
      expect(runCheck({ type: 'equals' }, subject({ output: { a: 1 }, expectedOutput: { a: '1' } })).pass).toBe(false);
      expect(runCheck({ type: 'equals' }, subject({ output: { a: 1 }, expectedOutput: { a: 1, b: 2 } })).pass).toBe(
        false,
      );
      expect(runCheck({ type: 'equals' }, subject({ output: { 0: 'a' }, expectedOutput: ['a'] })).pass).toBe(false);
      expect(runCheck({ type: 'equals' }, subject({ output: 'spam', expectedOutput: 'spam' })).pass).toBe(true);
      expect(runCheck({ type: 'equals' }, subject({ output: 0, expectedOutput: -0 })).pass).toBe(true);
    });

    it('quotes both sides in its reason, cut when long', () => {
      expect(runCheck({ type: 'equals' }, subject({ output: { a: 1 }, expectedOutput: { a: 2 } })).reason).toBe(
        'the output is {"a":1}, expected {"a":2}',
      );
      const long = runCheck({ type: 'equals' }, subject({ output: 'x'.repeat(500), expectedOutput: 'y'.repeat(500) }));
      expect(long.reason).toBe(`the output is "${'x'.repeat(78)}…, expected "${'y'.repeat(78)}…`);
    });

    it('fails an item without an expected output', () => {
      expect(runCheck({ type: 'equals' }, subject({ expectedOutput: null }))).toEqual({
        type: 'equals',
        pass: false,
        reason: 'the item has no expected output',
      });
    });
  });

  describe('field_equals', () => {
    const output = { result: { category: 'spam', tags: ['a', { k: 1 }] } };

    it('compares the value at a dot path, array indexes included', () => {
      const expectedOutput = { result: { category: 'spam', tags: ['b', { k: 1 }] } };
      for (const path of ['result.category', 'result.tags.1', 'result.tags.1.k']) {
        expect(runCheck({ type: 'field_equals', path }, subject({ output, expectedOutput }))).toEqual(
          passed('field_equals'),
        );
      }
      expect(runCheck({ type: 'field_equals', path: 'result.tags.0' }, subject({ output, expectedOutput }))).toEqual({
        type: 'field_equals',
        pass: false,
        reason: '"output.result.tags.0" is "a", expected "b"',
      });
    });

    it('names a field missing from the output or from the expected output', () => {
      const check = { type: 'field_equals', path: 'result.score' } as const;
      expect(runCheck(check, subject({ output, expectedOutput: { result: { score: 2 } } })).reason).toBe(
        '"output.result.score" is missing, expected 2',
      );
      expect(runCheck(check, subject({ output, expectedOutput: { result: {} } })).reason).toBe(
        'the expected output has no "output.result.score"',
      );
      expect(runCheck(check, subject({ output, expectedOutput: null })).reason).toBe('the item has no expected output');
    });

    it('reads own keys only, and indexes arrays by whole numbers within them', () => {
      const expectedOutput = { list: ['a'], obj: {} };
      for (const path of ['obj.constructor', 'obj.__proto__', 'list.01', 'list.1', 'list.length', 'list.-1']) {
        expect(runCheck({ type: 'field_equals', path }, subject({ output: expectedOutput, expectedOutput })).pass).toBe(
          false,
        );
      }
    });

    it('treats null at the path as a value', () => {
      const both = { a: null };
      expect(runCheck({ type: 'field_equals', path: 'a' }, subject({ output: both, expectedOutput: both })).pass).toBe(
        true,
      );
    });
  });

  describe('contains and not_contains', () => {
    it("looks in the output's JSON text, keys included", () => {
      const contains = (value: string, output: unknown = { category: 'Spam' }) =>
        runCheck({ type: 'contains', value, caseSensitive: true }, subject({ output }));
      expect(contains('Spam')).toEqual(passed('contains'));
      expect(contains('"category":"Spam"').pass).toBe(true);
      expect(contains('spam')).toEqual({ type: 'contains', pass: false, reason: 'does not contain "spam"' });
    });

    it('matches a string output as its JSON text, quotes and escapes included', () => {
      const output = 'He said "hi"\n';
      const contains = (value: string) =>
        runCheck({ type: 'contains', value, caseSensitive: true }, subject({ output })).pass;
      expect(contains('"He said')).toBe(true);
      expect(contains('\\"hi\\"\\n"')).toBe(true);
      expect(contains('"hi"')).toBe(false);
    });

    it('ignores case unless caseSensitive', () => {
      const check = { type: 'contains', value: 'SPAM', caseSensitive: false } as const;
      expect(runCheck(check, subject()).pass).toBe(true);
      expect(runCheck({ ...check, caseSensitive: true }, subject()).pass).toBe(false);
    });

    it('not_contains fails when the text holds the value', () => {
      const check = { type: 'not_contains', value: 'SPAM', caseSensitive: false } as const;
      expect(runCheck(check, subject())).toEqual({ type: 'not_contains', pass: false, reason: 'contains "SPAM"' });
      expect(runCheck({ ...check, caseSensitive: true }, subject())).toEqual(passed('not_contains'));
    });
  });

  describe('regex', () => {
    it("matches the output's JSON text", () => {
      expect(runCheck({ type: 'regex', pattern: '"score":\\d+' }, subject())).toEqual(passed('regex'));
      expect(runCheck({ type: 'regex', pattern: '^"[a-z ]+"$' }, subject({ output: 'just words' })).pass).toBe(true);
      expect(runCheck({ type: 'regex', pattern: '"score":\\d{2,}' }, subject())).toEqual({
        type: 'regex',
        pass: false,
        reason: 'does not match /"score":\\d{2,}/',
      });
    });

    it('fails with a reason when the pattern does not compile', () => {
      expect(runCheck({ type: 'regex', pattern: '(?=x)' }, subject())).toEqual({
        type: 'regex',
        pass: false,
        reason: 'the pattern does not compile: invalid or unsupported Perl syntax: `(?=`',
      });
    });

    it('answers at once on a pattern that backtracks exponentially elsewhere', () => {
      const output = `${'a'.repeat(40)}!`;
      expect(runCheck({ type: 'regex', pattern: '^"(a+)+"$' }, subject({ output })).pass).toBe(false);
    });
  });

  describe('max_latency_ms', () => {
    it('passes at or under the bound', () => {
      expect(runCheck({ type: 'max_latency_ms', value: 120 }, subject())).toEqual(passed('max_latency_ms'));
      expect(runCheck({ type: 'max_latency_ms', value: 500 }, subject({ latencyMs: 811.6 }))).toEqual({
        type: 'max_latency_ms',
        pass: false,
        reason: 'took 812 ms, over 500 ms',
      });
    });
  });

  describe('max_cost_usd', () => {
    it('passes at or under the bound', () => {
      expect(runCheck({ type: 'max_cost_usd', value: 0.002 }, subject())).toEqual(passed('max_cost_usd'));
      expect(runCheck({ type: 'max_cost_usd', value: 0.001 }, subject({ costUsd: 0.0123 }))).toEqual({
        type: 'max_cost_usd',
        pass: false,
        reason: 'cost $0.0123, over $0.001',
      });
      expect(runCheck({ type: 'max_cost_usd', value: 0 }, subject({ costUsd: 0.000000123 })).reason).toBe(
        'cost $0.000000123, over $0',
      );
    });

    it('passes an unpriced call, saying its cost is unknown', () => {
      expect(runCheck({ type: 'max_cost_usd', value: 0 }, subject({ costUsd: null }))).toEqual({
        type: 'max_cost_usd',
        pass: true,
        reason: 'cost unknown: the model has no price',
      });
    });
  });

  it('bounds every reason', () => {
    const huge = 'é'.repeat(5000);
    const results = [
      runCheck({ type: 'contains', value: huge, caseSensitive: true }, subject()),
      runCheck({ type: 'field_equals', path: huge }, subject({ expectedOutput: { [huge]: 1 } })),
      runCheck({ type: 'regex', pattern: `${huge}x` }, subject()),
    ];
    for (const result of results) {
      expect(result.pass).toBe(false);
      expect(result.reason!.length).toBeLessThanOrEqual(MAX_REASON_LENGTH);
    }
  });
});
