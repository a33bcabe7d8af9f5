import { type SummaryItem, summarize } from './run-summary';

const item = (candidatePass: boolean, baselinePass: boolean | null, costUsd: number | null = 0): SummaryItem => ({
  candidatePass,
  baselinePass,
  costUsd,
});

describe('summarize', () => {
  it('counts passes, regressions and improvements against a baseline', () => {
    const items = [item(true, true), item(false, true), item(true, false), item(true, false), item(false, false)];
    expect(summarize(items, { hasBaseline: true, durationMs: 1234.4 })).toEqual({
      items: 5,
      passed: 3,
      failed: 2,
      passRate: 0.6,
      baselinePassRate: 0.4,
      regressions: 1,
      improvements: 2,
      costUsd: 0,
      durationMs: 1234,
    });
  });

  it('has no baseline pass rate, regressions or improvements without a baseline', () => {
    const summary = summarize([item(true, null), item(false, null)], { hasBaseline: false, durationMs: 10 });
    expect(summary).toMatchObject({ passRate: 0.5, baselinePassRate: null, regressions: 0, improvements: 0 });
  });

  it('counts a missing baseline result as a baseline failure', () => {
    const summary = summarize([item(true, null), item(false, null)], { hasBaseline: true, durationMs: 10 });
    expect(summary).toMatchObject({ baselinePassRate: 0, regressions: 0, improvements: 1 });
  });

  it('keeps rates exact', () => {
    expect(
      summarize([item(true, true), item(true, true), item(false, true)], { hasBaseline: true, durationMs: 0 }),
    ).toMatchObject({ passRate: 2 / 3, baselinePassRate: 1, regressions: 1 });
  });

  it('gives a run of no items a pass rate of 0', () => {
    expect(summarize([], { hasBaseline: true, durationMs: 0 })).toEqual({
      items: 0,
      passed: 0,
      failed: 0,
      passRate: 0,
      baselinePassRate: 0,
      regressions: 0,
      improvements: 0,
      costUsd: 0,
      durationMs: 0,
    });
    expect(summarize([], { hasBaseline: false, durationMs: 0 }).baselinePassRate).toBeNull();
  });

  it('adds costs to nine decimals, unknown ones as 0', () => {
    const items = [item(true, null, 0.1), item(true, null, 0.2), item(true, null, null), item(true, null, 1e-10)];
    expect(summarize(items, { hasBaseline: false, durationMs: 0 }).costUsd).toBe(0.3);
  });
});
