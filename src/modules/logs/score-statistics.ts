import { jStat } from 'jstat';

/** The sums a group's scores are summarised from: how many, their total and the total of their squares. */
export interface ScoreSums {
  count: number;
  sum: number;
  sumOfSquares: number;
}

/** The kind of a score, which decides its summary: a mean with an interval, a share with one, or counts. */
export type ScoreKind = 'boolean' | 'numeric' | 'categorical';

/** Whether a group's scores are better or worse than the best other group's, or cannot tell yet. */
export type ScoreVerdict = 'better' | 'worse' | 'inconclusive';

/** Fewer scores than this on either side of a comparison make its verdict `inconclusive`. */
export const MIN_SCORES_FOR_VERDICT = 30;

/** The standard normal quantile at 0.975: a two-sided 95 % interval. */
const Z_95 = 1.959963984540054;

/** The mean of the scores (for boolean scores stored as 0 and 1, the share of true); null without scores. */
export function meanOf(sums: ScoreSums): number | null {
  return sums.count === 0 ? null : sums.sum / sums.count;
}

/**
 * The Wilson score interval (95 %) of a share: `successes` true answers out of `count`. Unlike the normal
 * approximation it stays inside [0, 1] and is sensible for shares near 0 or 1 and for small counts. Null without
 * answers.
 */
export function wilsonInterval(successes: number, count: number): [number, number] | null {
  if (count <= 0) return null;
  const share = successes / count;
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / count;
  const centre = (share + z2 / (2 * count)) / denominator;
  const half = (Z_95 / denominator) * Math.sqrt((share * (1 - share)) / count + z2 / (4 * count * count));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The two-sided 95 % quantile of Student's t distribution with `degreesOfFreedom` degrees of freedom. */
export function tQuantile95(degreesOfFreedom: number): number {
  return jStat.studentt.inv(0.975, degreesOfFreedom);
}

/**
 * Student's t interval (95 %) of a mean, from the count, sum and sum of squares of the values: mean ± t(0.975, n − 1)
 * · s / √n, s being the sample standard deviation. Null below two values (no spread to estimate).
 */
export function meanInterval(sums: ScoreSums): [number, number] | null {
  const { count, sum, sumOfSquares } = sums;
  if (count < 2) return null;
  const mean = sum / count;
  // Rounding can leave a tiny negative where every value is the same.
  const variance = Math.max(0, (sumOfSquares - sum * mean) / (count - 1));
  const half = tQuantile95(count - 1) * Math.sqrt(variance / count);
  return [mean - half, mean + half];
}

/** The 95 % interval of a group's mean (boolean: Wilson on the share of true; numeric: Student's t); none for categories. */
export function intervalOf(kind: ScoreKind, sums: ScoreSums): [number, number] | null {
  if (kind === 'boolean') return wilsonInterval(sums.sum, sums.count);
  if (kind === 'numeric') return meanInterval(sums);
  return null;
}

/** One group's scores as a verdict compares them. */
export interface ScoredGroup {
  sums: ScoreSums;
  interval: [number, number] | null;
}

/**
 * The verdict of each group against the best other group. Higher is better: the best other group is, among the other
 * groups with at least MIN_SCORES_FOR_VERDICT scores, the one with the highest mean (numeric) or share of true
 * (boolean), ties going to the one with more scores, then to the earlier group. A group is `better` when its interval
 * lies wholly above that group's, `worse` when wholly below, and `inconclusive` when the intervals overlap, when either
 * has fewer than MIN_SCORES_FOR_VERDICT scores, or when no other group qualifies. Categorical scores have no order: their
 * groups are always `inconclusive`.
 */
export function verdictsOf(kind: ScoreKind, groups: ScoredGroup[]): ScoreVerdict[] {
  const qualified = groups
    .map((group, index) => ({ group, index, mean: meanOf(group.sums) }))
    .filter(({ group, mean }) => group.sums.count >= MIN_SCORES_FOR_VERDICT && group.interval !== null && mean !== null)
    .sort((a, b) => b.mean! - a.mean! || b.group.sums.count - a.group.sums.count || a.index - b.index);
  return groups.map((group, index) => {
    if (kind === 'categorical' || group.sums.count < MIN_SCORES_FOR_VERDICT || group.interval === null) {
      return 'inconclusive';
    }
    const best = qualified.find((other) => other.index !== index);
    if (!best) return 'inconclusive';
    const [low, high] = group.interval;
    const [bestLow, bestHigh] = best.group.interval!;
    if (low > bestHigh) return 'better';
    if (high < bestLow) return 'worse';
    return 'inconclusive';
  });
}
