// The quality of a traffic split's prompts by one score, free of React: which scores can be compared (those with a
// mean: boolean ones as the share of true, numeric ones as the mean value), and each prompt's figure, interval and
// verdict in words.
import type { Schemas } from '../../../api/client';

export type ScoreConfig = Schemas['ScoreConfigResponse'];
export type GroupScore = Schemas['StatsGroupScoreResponse'];
export type Verdict = Schemas['ScoreVerdict'];

/** How many scores each side needs before the service gives a verdict other than inconclusive. */
const VERDICT_MIN_SCORES = 30;

export const VERDICT_LABEL: Record<Verdict, string> = {
  better: 'Better',
  worse: 'Worse',
  inconclusive: 'Inconclusive',
};

/** The scores whose prompts can be compared by a mean and its interval, by name (categorical ones have neither). */
export function qualityChoices(configs: ScoreConfig[]): ScoreConfig[] {
  return configs
    .filter((config) => config.dataType !== 'categorical')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A boolean score's share of true as a percentage, a numeric score's mean to two decimals. */
export function formatMean(value: number, dataType: ScoreConfig['dataType']): string {
  return dataType === 'boolean' ? `${(value * 100).toFixed(0)} %` : value.toFixed(2);
}

/** One prompt's figure for the score: "72 % true", its 95 % interval, its count and its verdict, in words. */
export function describeQuality(
  score: GroupScore | undefined,
  dataType: ScoreConfig['dataType'],
): { figure: string; interval: string | null; count: string; verdict: Verdict | null; why: string | null } {
  const count = score?.count ?? 0;
  const countText = `${count.toLocaleString()} ${count === 1 ? 'score' : 'scores'}`;
  if (!score || count === 0 || score.mean === null || score.mean === undefined)
    return { figure: 'No scores', interval: null, count: countText, verdict: null, why: null };
  const figure = `${formatMean(score.mean, dataType)}${dataType === 'boolean' ? ' true' : ' mean'}`;
  const [low, high] = score.ci95 ?? [];
  const interval =
    low === undefined || high === undefined
      ? null
      : dataType === 'boolean'
        ? `${(low * 100).toFixed(0)}–${(high * 100).toFixed(0)} %`
        : `${low.toFixed(2)}–${high.toFixed(2)}`;
  const verdict = score.verdict ?? null;
  const why =
    verdict === 'inconclusive'
      ? count < VERDICT_MIN_SCORES
        ? `fewer than ${VERDICT_MIN_SCORES} scores`
        : 'the intervals overlap, or no other prompt has enough scores'
      : null;
  return { figure, interval, count: countText, verdict, why };
}
