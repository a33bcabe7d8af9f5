import type { CheckResult } from '../../datasets/dataset-check';

/** How an item's candidate result compares with its baseline result. */
export type ItemVerdict = 'improved' | 'regressed' | 'unchanged_pass' | 'unchanged_fail';

/** One call passes when every check on its output passes (a dataset without checks passes every call). */
export function callPasses(checks: readonly CheckResult[]): boolean {
  return checks.every((check) => check.pass);
}

/**
 * With repeats, an item passes when a strict majority of its repeats pass: 2 of 3 passes, 1 of 2 does not (a tie
 * fails, as a result that cannot be told from chance should not count as a pass). An item with no repeat results
 * fails.
 */
export function itemPasses(repeatResults: readonly boolean[]): boolean {
  const passes = repeatResults.filter(Boolean).length;
  return passes * 2 > repeatResults.length;
}

/**
 * The item's verdict: `regressed` when the baseline passes and the candidate fails, `improved` when the baseline fails
 * and the candidate passes, otherwise unchanged (`unchanged_pass` or `unchanged_fail`, by the candidate). Without a
 * baseline (null) nothing can change, so the verdict is unchanged by the candidate alone.
 */
export function verdictOf(candidatePass: boolean, baselinePass: boolean | null): ItemVerdict {
  if (baselinePass !== null && baselinePass !== candidatePass) return candidatePass ? 'improved' : 'regressed';
  return candidatePass ? 'unchanged_pass' : 'unchanged_fail';
}
