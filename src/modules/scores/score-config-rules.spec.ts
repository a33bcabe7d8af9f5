import { SCORE_NAME_PATTERN, scoreConfigProblems } from './score-config-rules';

const messages = (shape: Parameters<typeof scoreConfigProblems>[0]) =>
  scoreConfigProblems(shape).map((problem) => `${problem.field}: ${problem.message}`);

describe('score config rules', () => {
  it('names: a lowercase letter, then up to 63 of a-z, 0-9, _, . and -', () => {
    for (const name of ['a', 'helpful', 'tone.v2', 'x_y-z', `a${'b'.repeat(63)}`]) {
      expect(SCORE_NAME_PATTERN.test(name)).toBe(true);
    }
    for (const name of ['', 'A', '1a', '_a', 'a b', `a${'b'.repeat(64)}`])
      expect(SCORE_NAME_PATTERN.test(name)).toBe(false);
  });

  it('takes a boolean config without bounds or categories', () => {
    expect(messages({ dataType: 'boolean', minimum: null, maximum: null, categories: null })).toEqual([]);
    expect(messages({ dataType: 'boolean', minimum: 0, maximum: null, categories: ['a', 'b'] })).toEqual([
      'minimum: minimum applies to numeric scores only',
      'categories: categories apply to categorical scores only',
    ]);
  });

  it('needs both bounds of a numeric config, minimum below maximum', () => {
    expect(messages({ dataType: 'numeric', minimum: -1.5, maximum: 1.5, categories: null })).toEqual([]);
    expect(messages({ dataType: 'numeric', minimum: null, maximum: null, categories: null })).toEqual([
      'minimum: minimum is required for numeric scores',
      'maximum: maximum is required for numeric scores',
    ]);
    expect(messages({ dataType: 'numeric', minimum: 2, maximum: 1, categories: null })).toEqual([
      'maximum: maximum must be greater than minimum',
    ]);
  });

  it('needs 2 to 20 distinct categories of 1 to 64 characters for a categorical config', () => {
    const shape = (categories: string[] | null) => ({
      dataType: 'categorical' as const,
      minimum: null,
      maximum: null,
      categories,
    });
    expect(messages(shape(['a', 'b']))).toEqual([]);
    expect(messages(shape(Array.from({ length: 20 }, (_, i) => `c${i}`)))).toEqual([]);
    expect(messages(shape(null))).toEqual(['categories: categories are required for categorical scores']);
    expect(messages(shape(['a']))).toEqual(['categories: categories must hold 2 to 20 values']);
    expect(messages(shape(Array.from({ length: 21 }, (_, i) => `c${i}`)))).toEqual([
      'categories: categories must hold 2 to 20 values',
    ]);
    expect(messages(shape(['a', 'a']))).toEqual(['categories: categories must be distinct']);
    expect(messages(shape(['a', '', 'x'.repeat(65)]))).toEqual([
      'categories.1: categories.1 must be 1 to 64 characters',
      'categories.2: categories.2 must be 1 to 64 characters',
    ]);
  });
});
