/** How an item's candidate compares with its baseline. */
export type Verdict = 'improved' | 'regressed' | 'unchanged_pass' | 'unchanged_fail';
export const VERDICTS: Verdict[] = ['improved', 'regressed', 'unchanged_pass', 'unchanged_fail'];

/** Whether an item passes on one side over its repeats: when most of them pass (more than half). */
export function itemPasses(repeats: boolean[]): boolean {
  return repeats.filter(Boolean).length * 2 > repeats.length;
}

/**
 * An item's verdict: `regressed` when the baseline passes and the candidate fails, `improved` the other way round,
 * else unchanged. Without a baseline (null), the candidate alone decides whether it is an unchanged pass or fail.
 */
export function verdictOf(candidatePasses: boolean, baselinePasses: boolean | null): Verdict {
  if (baselinePasses === null || baselinePasses === candidatePasses) {
    return candidatePasses ? 'unchanged_pass' : 'unchanged_fail';
  }
  return candidatePasses ? 'improved' : 'regressed';
}

/** One dataset item's result: whether each side passes (baseline null when the run has none). */
export interface ItemResult {
  candidatePasses: boolean;
  baselinePasses: boolean | null;
}

export interface RunFigures {
  items: number;
  passed: number;
  failed: number;
  /** Share of items the candidate passes, 0–1 (0 for a run without items). */
  passRate: number;
  /** Share of items the baseline passes; null without a baseline. */
  baselinePassRate: number | null;
  regressions: number;
  improvements: number;
}

/** The figures of a run's items. */
export function summarize(items: ItemResult[], hasBaseline: boolean): RunFigures {
  const passed = items.filter((item) => item.candidatePasses).length;
  const baselinePassed = items.filter((item) => item.baselinePasses === true).length;
  const verdicts = items.map((item) => verdictOf(item.candidatePasses, item.baselinePasses));
  return {
    items: items.length,
    passed,
    failed: items.length - passed,
    passRate: rate(passed, items.length),
    baselinePassRate: hasBaseline ? rate(baselinePassed, items.length) : null,
    regressions: verdicts.filter((verdict) => verdict === 'regressed').length,
    improvements: verdicts.filter((verdict) => verdict === 'improved').length,
  };
}

function rate(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 10_000) / 10_000;
}
