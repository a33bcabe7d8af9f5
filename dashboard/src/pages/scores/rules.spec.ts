import { annotationChoices, formatScoreValue, type LogScore, type ScoreConfig, scoreValueOf } from './rules';

const config = (settings: Partial<ScoreConfig>): ScoreConfig =>
  ({ id: settings.name, minimum: null, maximum: null, categories: null, ...settings }) as ScoreConfig;
const HELPFUL = config({ name: 'helpful', dataType: 'boolean' });
const STARS = config({ name: 'stars', dataType: 'numeric', minimum: 1, maximum: 5 });
const TONE = config({ name: 'tone', dataType: 'categorical', categories: ['good', 'bad'] });

describe('an annotation’s value', () => {
  it('reads true or false for a boolean score', () => {
    expect(scoreValueOf(HELPFUL, 'true')).toEqual({ value: true });
    expect(scoreValueOf(HELPFUL, 'false')).toEqual({ value: false });
    expect(scoreValueOf(HELPFUL, '')).toEqual({ problem: 'Choose true or false.' });
  });

  it('reads a number within the bounds for a numeric score, the bounds included', () => {
    expect(scoreValueOf(STARS, '1')).toEqual({ value: 1 });
    expect(scoreValueOf(STARS, '4.5')).toEqual({ value: 4.5 });
    expect(scoreValueOf(STARS, '5')).toEqual({ value: 5 });
    expect(scoreValueOf(STARS, '0.99')).toEqual({ problem: 'The value must be from 1 to 5.' });
    expect(scoreValueOf(STARS, '6')).toEqual({ problem: 'The value must be from 1 to 5.' });
    expect(scoreValueOf(STARS, '')).toEqual({ problem: 'Type a number.' });
    expect(scoreValueOf(STARS, 'abc')).toEqual({ problem: 'Type a number.' });
  });

  it('takes only a declared category', () => {
    expect(scoreValueOf(TONE, 'good')).toEqual({ value: 'good' });
    expect(scoreValueOf(TONE, 'Good')).toEqual({ problem: 'Choose one of the categories.' });
  });
});

describe('scores shown', () => {
  it('writes each type’s value', () => {
    expect(formatScoreValue(true)).toBe('true');
    expect(formatScoreValue(false)).toBe('false');
    expect(formatScoreValue(3)).toBe((3).toLocaleString());
    expect(formatScoreValue('good')).toBe('good');
  });

  it('offers every declared config by name, saying which ones this call already has', () => {
    const scores = [{ name: 'stars', value: 4 } as LogScore];
    expect(annotationChoices([TONE, STARS, HELPFUL], scores).map(({ config: c, scored }) => [c.name, scored])).toEqual([
      ['helpful', false],
      ['stars', true],
      ['tone', false],
    ]);
  });
});
