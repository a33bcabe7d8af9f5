import { scoreCommentProblem, scoreValueOf, scoreValueProblem, storedScoreValue } from './score-value';

const boolean = { dataType: 'boolean' as const, minimum: null, maximum: null, categories: null };
const numeric = { dataType: 'numeric' as const, minimum: 1, maximum: 5, categories: null };
const categorical = {
  dataType: 'categorical' as const,
  minimum: null,
  maximum: null,
  categories: ['formal', 'casual'],
};

describe('scoreValueProblem', () => {
  it('takes true and false for a boolean score, nothing else', () => {
    expect(scoreValueProblem('helpful', boolean, true)).toBeNull();
    expect(scoreValueProblem('helpful', boolean, false)).toBeNull();
    for (const value of [1, 0, 'true', null, undefined, {}]) {
      expect(scoreValueProblem('helpful', boolean, value)).toBe("value of score 'helpful' must be true or false");
    }
  });

  it('takes a finite number within the bounds, inclusive, for a numeric score', () => {
    for (const value of [1, 5, 3.25]) expect(scoreValueProblem('stars', numeric, value)).toBeNull();
    for (const value of [0.999, 5.001, -1]) {
      expect(scoreValueProblem('stars', numeric, value)).toBe("value of score 'stars' must be between 1 and 5");
    }
    for (const value of ['3', NaN, Infinity, true, null]) {
      expect(scoreValueProblem('stars', numeric, value)).toBe("value of score 'stars' must be a number");
    }
  });

  it('takes one of the categories, exactly, for a categorical score', () => {
    expect(scoreValueProblem('tone', categorical, 'formal')).toBeNull();
    for (const value of ['Formal', 'rude', '', 1, true]) {
      expect(scoreValueProblem('tone', categorical, value)).toBe(
        "value of score 'tone' must be one of: formal, casual",
      );
    }
  });
});

describe('storedScoreValue and scoreValueOf', () => {
  it.each([
    ['boolean', true, { valueNumber: 1, valueCategory: null }],
    ['boolean', false, { valueNumber: 0, valueCategory: null }],
    ['numeric', 4.5, { valueNumber: 4.5, valueCategory: null }],
    ['categorical', 'formal', { valueNumber: null, valueCategory: 'formal' }],
  ] as const)('stores a %s value %p as %p and types it back', (dataType, value, stored) => {
    expect(storedScoreValue(dataType, value)).toEqual(stored);
    expect(scoreValueOf(dataType, stored)).toBe(value);
  });

  it('reads a numeric value the driver answered as a string as a number', () => {
    expect(scoreValueOf('numeric', { valueNumber: '2.5' as unknown as number, valueCategory: null })).toBe(2.5);
  });
});

describe('scoreCommentProblem', () => {
  it('takes no comment, null, or a string of at most 2,000 characters', () => {
    expect(scoreCommentProblem(undefined)).toBeNull();
    expect(scoreCommentProblem(null)).toBeNull();
    expect(scoreCommentProblem('c'.repeat(2000))).toBeNull();
    expect(scoreCommentProblem('c'.repeat(2001))).toBe('comment must be at most 2000 characters');
    expect(scoreCommentProblem(42)).toBe('comment must be a string');
  });
});
