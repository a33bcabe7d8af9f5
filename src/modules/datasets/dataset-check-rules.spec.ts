import { compileCheckPattern } from './check-pattern';
import { parseChecks } from './dataset-check-rules';

describe('parseChecks', () => {
  it('takes every type with its parameters and fills in the defaults', () => {
    expect(
      parseChecks([
        { type: 'schema' },
        { type: 'equals' },
        { type: 'field_equals', path: 'a.b' },
        { type: 'contains', value: 'x' },
        { type: 'not_contains', value: 'y', caseSensitive: false },
        { type: 'regex', pattern: '^a+$' },
        { type: 'max_latency_ms', value: 1 },
        { type: 'max_cost_usd', value: 1000 },
        { type: 'judge', llmModel: 'm', rubric: 'r' },
      ]),
    ).toEqual({
      checks: [
        { type: 'schema' },
        { type: 'equals' },
        { type: 'field_equals', path: 'a.b' },
        { type: 'contains', value: 'x', caseSensitive: true },
        { type: 'not_contains', value: 'y', caseSensitive: false },
        { type: 'regex', pattern: '^a+$' },
        { type: 'max_latency_ms', value: 1 },
        { type: 'max_cost_usd', value: 1000 },
        { type: 'judge', llmModel: 'm', rubric: 'r', threshold: 0.5 },
      ],
      problems: [],
    });
    expect(parseChecks([])).toEqual({ checks: [], problems: [] });
  });

  it('refuses more than 20 checks and what is not an array', () => {
    expect(parseChecks(Array(21).fill({ type: 'equals' })).problems).toEqual([
      { field: 'checks', message: 'checks must hold at most 20 checks' },
    ]);
    expect(parseChecks(Array(20).fill({ type: 'equals' })).problems).toEqual([]);
    expect(parseChecks({}).problems).toEqual([{ field: 'checks', message: 'checks must be an array' }]);
  });

  it.each([
    [null, 'checks.0', 'checks.0 must be an object with a type'],
    [{}, 'checks.0.type', /^checks\.0\.type must be one of: schema, equals/],
    [{ type: 'similar' }, 'checks.0.type', /^checks\.0\.type must be one of/],
    [{ type: 'schema', path: 'a' }, 'checks.0.path', 'checks.0.path does not apply to schema checks'],
    [{ type: 'field_equals', path: '' }, 'checks.0.path', 'checks.0.path must be a string of 1 to 200 characters'],
    [{ type: 'field_equals', path: 'p'.repeat(201) }, 'checks.0.path', /1 to 200 characters/],
    [{ type: 'contains', value: 3 }, 'checks.0.value', 'checks.0.value must be a string of 1 to 1000 characters'],
    [
      { type: 'contains', value: 'a', caseSensitive: 1 },
      'checks.0.caseSensitive',
      'checks.0.caseSensitive must be a boolean',
    ],
    [{ type: 'regex', pattern: 'a'.repeat(501) }, 'checks.0.pattern', /1 to 500 characters/],
    [{ type: 'regex', pattern: '(' }, 'checks.0.pattern', /^checks\.0\.pattern is not a valid regular expression: /],
    [
      { type: 'max_latency_ms', value: 600_001 },
      'checks.0.value',
      'checks.0.value must be an integer from 1 to 600000',
    ],
    [{ type: 'max_latency_ms', value: 2.5 }, 'checks.0.value', /an integer/],
    [{ type: 'max_cost_usd', value: -1 }, 'checks.0.value', 'checks.0.value must be a number above 0 and at most 1000'],
    [{ type: 'max_cost_usd', value: Infinity }, 'checks.0.value', /above 0/],
    [{ type: 'judge', llmModel: '', rubric: 'r' }, 'checks.0.llmModel', /1 to 200 characters/],
    [{ type: 'judge', llmModel: 'm', rubric: 'r'.repeat(20_001) }, 'checks.0.rubric', /1 to 20000 characters/],
    [{ type: 'judge', llmModel: 'm', rubric: 'r', threshold: -0.1 }, 'checks.0.threshold', /from 0 to 1/],
  ])('refuses %j, naming %s', (check, field, message) => {
    const { checks, problems } = parseChecks([check]);
    expect(checks).toBeNull();
    expect(problems).toEqual([
      { field, message: message instanceof RegExp ? expect.stringMatching(message) : message },
    ]);
  });

  it('lists every problem of every check, in order', () => {
    expect(parseChecks([{ type: 'equals' }, { type: 'regex', pattern: '[', value: 1 }]).problems).toEqual([
      { field: 'checks.1.value', message: 'checks.1.value does not apply to regex checks' },
      { field: 'checks.1.pattern', message: expect.stringMatching(/^checks\.1\.pattern is not a valid/) },
    ]);
  });
});

describe('compileCheckPattern', () => {
  it('compiles in Unicode mode', () => {
    expect(compileCheckPattern('^\\p{Lu}').test('Éclair')).toBe(true);
    // Outside Unicode mode this is an identity escape; in it, a syntax error.
    expect(() => compileCheckPattern('\\-')).toThrow(SyntaxError);
  });
});
