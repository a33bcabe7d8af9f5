import { describeQuality, formatMean, qualityChoices, type ScoreConfig } from './rules';

const config = (name: string, dataType: ScoreConfig['dataType']) => ({ id: name, name, dataType }) as ScoreConfig;

describe('the quality of a split’s prompts', () => {
  it('offers the boolean and numeric scores by name: categorical ones have no mean to compare', () => {
    const choices = qualityChoices([
      config('tone', 'categorical'),
      config('stars', 'numeric'),
      config('ok', 'boolean'),
    ]);
    expect(choices.map((choice) => choice.name)).toEqual(['ok', 'stars']);
  });

  it('writes a boolean score as the share of true and a numeric one as its mean', () => {
    expect(formatMean(0.724, 'boolean')).toBe('72 %');
    expect(formatMean(4.256, 'numeric')).toBe('4.26');
  });

  it('describes a prompt’s figure with its interval, count and verdict', () => {
    expect(
      describeQuality({ name: 'ok', count: 40, mean: 0.75, ci95: [0.6, 0.86], verdict: 'better' }, 'boolean'),
    ).toEqual({ figure: '75 % true', interval: '60–86 %', count: '40 scores', verdict: 'better', why: null });
    expect(
      describeQuality({ name: 'stars', count: 1, mean: 4, ci95: null, verdict: 'inconclusive' }, 'numeric'),
    ).toEqual({
      figure: '4.00 mean',
      interval: null,
      count: '1 score',
      verdict: 'inconclusive',
      why: 'fewer than 30 scores',
    });
    expect(
      describeQuality({ name: 'stars', count: 45, mean: 3, ci95: [2.5, 3.5], verdict: 'inconclusive' }, 'numeric').why,
    ).toBe('the intervals overlap, or no other prompt has enough scores');
  });

  it('says so when a prompt has no scores', () => {
    expect(describeQuality(undefined, 'boolean')).toEqual({
      figure: 'No scores',
      interval: null,
      count: '0 scores',
      verdict: null,
      why: null,
    });
  });
});
