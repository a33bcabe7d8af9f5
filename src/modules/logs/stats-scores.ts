import type { ScoreStatsFigures } from '../scores/score-stats.service';
import type { StatsGroupScoreResponse, StatsScoreResponse } from './dto/stats.response';
import { type ScoreSums, intervalOf, meanOf, verdictsOf } from './score-statistics';

/** A group's sums: the values' count, sum and sum of squares, and the count per category (categorical scores). */
interface ScoreGroup extends ScoreSums {
  counts: Map<string, number>;
}

const newGroup = (): ScoreGroup => ({ count: 0, sum: 0, sumOfSquares: 0, counts: new Map() });

/** Score sums by group key: the whole, per prompt and per tag value. */
export interface ScoreGroups {
  total: ScoreGroup;
  byPrompt: Map<string, ScoreGroup>;
  byTagValue: Map<string, ScoreGroup>;
}

/** Adds the figures up in total, per prompt (scores without a prompt in the total only) and per tag value. */
export function groupScores(stats: ScoreStatsFigures): ScoreGroups {
  const groups: ScoreGroups = { total: newGroup(), byPrompt: new Map(), byTagValue: new Map() };
  const into = (map: Map<string, ScoreGroup>, key: string) => {
    let group = map.get(key);
    if (!group) map.set(key, (group = newGroup()));
    return group;
  };
  for (const row of stats.figures) {
    const targets = [groups.total];
    if (row.promptId !== null) targets.push(into(groups.byPrompt, row.promptId));
    if (row.tagValue !== null) targets.push(into(groups.byTagValue, row.tagValue));
    for (const group of targets) {
      group.count += row.count;
      group.sum += row.sum;
      group.sumOfSquares += row.sumOfSquares;
      if (row.category !== '') group.counts.set(row.category, (group.counts.get(row.category) ?? 0) + row.count);
    }
  }
  return groups;
}

/** The sums of `whole` less those of `parts` (parts of it): the rest group of tag groups. */
export function restOf(whole: ScoreGroup, parts: (ScoreGroup | undefined)[]): ScoreGroup {
  const rest: ScoreGroup = { ...whole, counts: new Map(whole.counts) };
  for (const part of parts) {
    if (!part) continue;
    rest.count -= part.count;
    rest.sum -= part.sum;
    rest.sumOfSquares -= part.sumOfSquares;
    for (const [category, n] of part.counts) rest.counts.set(category, (rest.counts.get(category) ?? 0) - n);
  }
  return rest;
}

/**
 * A group's score summary: the count and, for boolean scores the share of true and for numeric ones the mean (null
 * without scores), or for categorical scores the count per category (every category of the config, in its order).
 */
export function scoreSummaryOf(stats: ScoreStatsFigures, group: ScoreGroup | undefined): StatsScoreResponse {
  const sums = group ?? newGroup();
  if (stats.dataType === 'categorical') {
    const counts: Record<string, number> = {};
    for (const category of stats.categories) counts[category] = sums.counts.get(category) ?? 0;
    // A category recorded before the config's categories changed still shows.
    for (const [category, n] of sums.counts) if (!(category in counts) && n > 0) counts[category] = n;
    return { name: stats.name, count: sums.count, counts };
  }
  const mean = meanOf(sums);
  return { name: stats.name, count: sums.count, mean: mean === null ? null : round(mean) };
}

/**
 * The summaries of prompt groups, in their order, each with its 95 % interval (Wilson for boolean, Student's t for
 * numeric; none for categorical) and its verdict against the best other group.
 */
export function promptScoreSummaries(
  stats: ScoreStatsFigures,
  groups: (ScoreGroup | undefined)[],
): StatsGroupScoreResponse[] {
  const sums = groups.map((group) => group ?? newGroup());
  const intervals = sums.map((group) => intervalOf(stats.dataType, group));
  const verdicts = verdictsOf(
    stats.dataType,
    sums.map((group, i) => ({ sums: group, interval: intervals[i] })),
  );
  return sums.map((group, i) => {
    const summary = scoreSummaryOf(stats, group);
    if (stats.dataType === 'categorical') return summary;
    const interval = intervals[i];
    return {
      ...summary,
      ci95: interval === null ? null : [round(interval[0]), round(interval[1])],
      verdict: verdicts[i],
    };
  });
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;
