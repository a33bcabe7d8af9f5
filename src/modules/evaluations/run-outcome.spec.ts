import { itemPasses, summarize, verdictOf } from './run-outcome';

describe('itemPasses', () => {
  it.each([
    [[true], true],
    [[false], false],
    [[true, false], false],
    [[true, true, false], true],
    [[true, false, false], false],
    [[true, true, false, false, true], true],
  ])('%j passes: %s', (repeats, expected) => {
    expect(itemPasses(repeats)).toBe(expected);
  });
});

describe('verdictOf', () => {
  it.each([
    [true, true, 'unchanged_pass'],
    [false, false, 'unchanged_fail'],
    [true, false, 'improved'],
    [false, true, 'regressed'],
    [true, null, 'unchanged_pass'],
    [false, null, 'unchanged_fail'],
  ] as const)('candidate %s, baseline %s: %s', (candidate, baseline, verdict) => {
    expect(verdictOf(candidate, baseline)).toBe(verdict);
  });
});

describe('summarize', () => {
  it('counts passes, rates, regressions and improvements', () => {
    const summary = summarize(
      [
        { candidatePasses: true, baselinePasses: true },
        { candidatePasses: false, baselinePasses: true },
        { candidatePasses: true, baselinePasses: false },
        { candidatePasses: false, baselinePasses: false },
      ],
      true,
    );
    expect(summary).toEqual({
      items: 4,
      passed: 2,
      failed: 2,
      passRate: 0.5,
      baselinePassRate: 0.5,
      regressions: 1,
      improvements: 1,
    });
  });

  it('has no baseline pass rate without a baseline, and a zero rate without items', () => {
    expect(summarize([], false)).toMatchObject({ items: 0, passRate: 0, baselinePassRate: null });
  });
});
