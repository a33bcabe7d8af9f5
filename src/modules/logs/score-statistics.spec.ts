import {
  MIN_SCORES_FOR_VERDICT,
  type ScoreSums,
  type ScoredGroup,
  intervalOf,
  meanInterval,
  meanOf,
  tQuantile95,
  verdictsOf,
  wilsonInterval,
} from './score-statistics';

const sumsOf = (values: number[]): ScoreSums => ({
  count: values.length,
  sum: values.reduce((a, b) => a + b, 0),
  sumOfSquares: values.reduce((a, b) => a + b * b, 0),
});

const expectInterval = (actual: [number, number] | null, low: number, high: number, digits = 4) => {
  expect(actual).not.toBeNull();
  expect(actual![0]).toBeCloseTo(low, digits);
  expect(actual![1]).toBeCloseTo(high, digits);
};

describe('wilsonInterval', () => {
  it('gives the published 95 % intervals for 8 of 10 and 50 of 100', () => {
    expectInterval(wilsonInterval(8, 10), 0.4902, 0.9433);
    expectInterval(wilsonInterval(50, 100), 0.4038, 0.5962);
  });

  it('stays within 0 and 1 at the edges', () => {
    expectInterval(wilsonInterval(0, 10), 0, 0.2775);
    expectInterval(wilsonInterval(10, 10), 0.7225, 1);
  });

  it('has no interval without answers', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('tQuantile95', () => {
  it('matches the tables of Student t quantiles', () => {
    expect(tQuantile95(1)).toBeCloseTo(12.706, 3);
    expect(tQuantile95(9)).toBeCloseTo(2.262, 3);
    expect(tQuantile95(29)).toBeCloseTo(2.045, 3);
    expect(tQuantile95(100)).toBeCloseTo(1.984, 3);
    expect(tQuantile95(1_000_000)).toBeCloseTo(1.96, 3);
  });
});

describe('meanInterval', () => {
  // Student's sleep data (Cushny and Peebles): the extra hours of sleep of ten patients, and the differences between
  // the two drugs, whose one-sample 95 % intervals are the textbook's -0.5298..2.0298 and 0.7001..2.4599.
  const drug1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
  const differences = [1.2, 2.4, 1.3, 1.3, 0.0, 1.0, 1.8, 0.8, 4.6, 1.4];

  it('gives the textbook intervals of the sleep data', () => {
    expectInterval(meanInterval(sumsOf(drug1)), -0.5297804, 2.0297804, 5);
    expectInterval(meanInterval(sumsOf(differences)), 0.7001142, 2.4598858, 5);
    expect(meanOf(sumsOf(differences))).toBeCloseTo(1.58, 10);
  });

  it('is (up to the rounding of the sums) a single point when every value is the same, and absent below two values', () => {
    expectInterval(meanInterval(sumsOf([0.3, 0.3, 0.3])), 0.3, 0.3, 6);
    expect(meanInterval(sumsOf([4]))).toBeNull();
    expect(meanInterval(sumsOf([]))).toBeNull();
  });
});

describe('intervalOf', () => {
  it('uses Wilson for shares, t for means and nothing for categories', () => {
    const sums = { count: 10, sum: 8, sumOfSquares: 8 };
    expect(intervalOf('boolean', sums)).toEqual(wilsonInterval(8, 10));
    expect(intervalOf('numeric', sums)).toEqual(meanInterval(sums));
    expect(intervalOf('categorical', sums)).toBeNull();
  });
});

describe('verdictsOf', () => {
  const share = (yes: number, count: number): ScoredGroup => ({
    sums: { count, sum: yes, sumOfSquares: yes },
    interval: wilsonInterval(yes, count),
  });

  it('finds the better and the worse of two well-separated groups', () => {
    expect(verdictsOf('boolean', [share(90, 100), share(40, 100)])).toEqual(['better', 'worse']);
  });

  it('is inconclusive when the intervals overlap', () => {
    expect(verdictsOf('boolean', [share(55, 100), share(50, 100)])).toEqual(['inconclusive', 'inconclusive']);
  });

  it('is inconclusive while either side has fewer than the minimum of scores', () => {
    const few = MIN_SCORES_FOR_VERDICT - 1;
    expect(verdictsOf('boolean', [share(few, few), share(0, 100)])).toEqual(['inconclusive', 'inconclusive']);
    expect(verdictsOf('boolean', [share(30, 30), share(0, 30)])).toEqual(['better', 'worse']);
  });

  it('compares each group with the best of the others that have enough scores', () => {
    // The best (0.9) is compared with the second (0.6); the others with the best.
    const groups = [share(60, 100), share(90, 100), share(10, 100), share(5, 5)];
    expect(verdictsOf('boolean', groups)).toEqual(['worse', 'better', 'worse', 'inconclusive']);
  });

  it('compares numeric means by their t intervals', () => {
    const values = (centre: number) => Array.from({ length: 40 }, (_, i) => centre + (i % 5) * 0.1);
    const group = (centre: number): ScoredGroup => {
      const sums = sumsOf(values(centre));
      return { sums, interval: meanInterval(sums) };
    };
    expect(verdictsOf('numeric', [group(3), group(4), group(4.05)])).toEqual(['worse', 'inconclusive', 'inconclusive']);
  });

  it('is inconclusive alone and for categories', () => {
    expect(verdictsOf('boolean', [share(90, 100)])).toEqual(['inconclusive']);
    expect(verdictsOf('categorical', [share(90, 100), share(10, 100)])).toEqual(['inconclusive', 'inconclusive']);
  });
});
