import { verdictOf } from './item-verdict';

/** One item of a run as its summary counts it, after its repeats were decided (see itemPasses). */
export interface SummaryItem {
  candidatePass: boolean;
  /** Null when the run has no baseline (or the item's baseline side has no result). */
  baselinePass: boolean | null;
  /** What the item's calls cost, both sides, every repeat and judge included; null when none of it is known. */
  costUsd: number | null;
}

export interface RunSummary {
  items: number;
  passed: number;
  failed: number;
  passRate: number;
  /** Null when the run has no baseline. */
  baselinePassRate: number | null;
  regressions: number;
  improvements: number;
  costUsd: number;
  durationMs: number;
}

/**
 * A run's summary. Rates are exact fractions of the items (not rounded, so a gate never passes a rate that is just
 * under its threshold); a run of no items has a pass rate of 0, since it shows nothing passing and must open no gate.
 * With a baseline, an item whose baseline side has no result counts as a baseline failure. Costs unknown to the
 * model catalogue count as 0, and the total is rounded to nine decimals, the precision costs are stored with.
 */
export function summarize(
  items: readonly SummaryItem[],
  run: { hasBaseline: boolean; durationMs: number },
): RunSummary {
  let passed = 0;
  let baselinePassed = 0;
  let regressions = 0;
  let improvements = 0;
  let costUsd = 0;
  for (const item of items) {
    if (item.candidatePass) passed += 1;
    if (item.baselinePass === true) baselinePassed += 1;
    const verdict = verdictOf(item.candidatePass, run.hasBaseline ? (item.baselinePass ?? false) : null);
    if (verdict === 'regressed') regressions += 1;
    if (verdict === 'improved') improvements += 1;
    costUsd += item.costUsd ?? 0;
  }
  const rate = (count: number) => (items.length === 0 ? 0 : count / items.length);
  return {
    items: items.length,
    passed,
    failed: items.length - passed,
    passRate: rate(passed),
    baselinePassRate: run.hasBaseline ? rate(baselinePassed) : null,
    regressions,
    improvements,
    costUsd: Math.round(costUsd * 1e9) / 1e9,
    durationMs: Math.max(0, Math.round(run.durationMs)),
  };
}
