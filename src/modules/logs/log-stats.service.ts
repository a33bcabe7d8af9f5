import { Inject, Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { StatsQuery } from './dto/stats.dto';
import type { StatsResponse } from './dto/stats.response';
import { filterOf } from './execution-log-reads.service';
import {
  ExecutionLogRollupsRepository,
  type RollupErrorCodes,
  type RollupFigures,
  type RollupPiece,
  type RollupRead,
} from './execution-log-rollups.repository';
import {
  ExecutionLogsRepository,
  type LogFilter,
  type StatsInterval,
  TAG_GROUPS,
  type TagErrorCodeRow,
  type TagStatsRow,
} from './execution-logs.repository';
import { bucketCount, buildPromptGroups, buildStats, buildTagGroups } from './stats-series';
import { TagSumWindowsRepository } from './tag-sum-windows.repository';
import { type RolledUpStats, combineFigures, combineTagGroups, planPieces, topTagValues } from './stats-rollups';
import { type TagFilter, singleKeyFilter, tagFilterKeys } from './tag-filter';
import { PromptNames } from './prompt-names';
import { ScoreStatsService, type ScorePiece } from '../scores/score-stats.service';
import { groupScores, promptScoreSummaries, restOf, scoreSummaryOf } from './stats-scores';

const MAX_BUCKETS = 1000;
const DEFAULT_SPAN_MS = { hour: 24 * 3_600_000, day: 7 * 86_400_000 };

/**
 * GET /stats: how the tenant's endpoints (or one) did over a period. The whole hours and days of the period are read
 * from the rollups and its partial edge hours from the logs, so the cost of a request does not grow with the number of
 * executions. Counts, tokens and cost are exact; latency percentiles are exact (computed from the logs) when the period
 * holds at most `statsExactPercentileRows` executions, and estimated from the latency histograms above it. With
 * `score`, a feedback score's count and mean (or counts per category) come from its hourly sums the same way, kept in
 * the transaction that records each score, so a score shows on every instance as soon as it is recorded.
 */
@Injectable()
export class LogStatsService {
  constructor(
    private readonly logs: ExecutionLogsRepository,
    private readonly rollups: ExecutionLogRollupsRepository,
    private readonly windows: TagSumWindowsRepository,
    private readonly prompts: PromptNames,
    private readonly scores: ScoreStatsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async stats(tenantId: string, query: StatsQuery): Promise<StatsResponse> {
    const interval = query.interval ?? 'day';
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_SPAN_MS[interval]);
    const filter = filterOf({
      endpointId: query.endpointId,
      from: from.toISOString(),
      to: to.toISOString(),
      tag: query.tag,
      hasTag: query.hasTag,
    });
    // Evaluation runs' executions count only when asked for, and then alone; the rollups never hold them. The execution
    // API's calls alone (a split's figures, without test runs and MCP runs) are one source among those the rollups sum.
    if (query.source) filter.source = query.source;
    else filter.notSource = 'Eval';
    if (bucketCount(from, to, interval) > MAX_BUCKETS) {
      throw new ValidationError(
        `interval=${interval} gives more than ${MAX_BUCKETS} buckets between from and to; use interval=day or a shorter period`,
        'interval',
      );
    }
    const byPrompt = query.groupBy === 'prompt';
    const groupTag = query.groupBy?.startsWith('tag:') ? query.groupBy.slice('tag:'.length) : undefined;
    const scoreRead =
      query.score === undefined
        ? undefined
        : {
            name: query.score,
            endpointId: query.endpointId,
            tags: filter.tags,
            byPrompt,
            groupTag,
            executionSource: query.source,
          };
    // The score sums are read while the executions' figures are.
    const [figures, scores] = await Promise.all([
      this.figures(tenantId, filter, { from, to, interval, endpointId: query.endpointId, byPrompt, groupTag }),
      scoreRead && this.scores.figures(tenantId, scorePiecesOf(from, to), scoreRead),
    ]);
    const names = byPrompt
      ? await this.prompts.namesOf(
          tenantId,
          figures.promptRows.map((row) => row.promptId),
        )
      : undefined;
    const stats = buildStats(
      { endpointId: query.endpointId ?? null, from, to, interval },
      figures.rows,
      figures.errorRows,
    );
    const scoreGroups = scores && groupScores(scores);
    if (scores) stats.totals.scores = scoreSummaryOf(scores, scoreGroups!.total);
    if (groupTag !== undefined) {
      const groups = buildTagGroups(groupTag, figures.tagRows, figures.tagErrorRows);
      if (scores) {
        const named = groups
          .filter((group) => group.tag.value !== null)
          .map((group) => scoreGroups!.byTagValue.get(group.tag.value!));
        for (const group of groups) {
          group.totals.scores = scoreSummaryOf(
            scores,
            group.tag.value === null ? restOf(scoreGroups!.total, named) : scoreGroups!.byTagValue.get(group.tag.value),
          );
        }
      }
      return { ...stats, groups };
    }
    if (!names) return stats;
    const groups = buildPromptGroups(figures.promptRows, figures.promptErrorRows, names);
    if (scores) {
      const summaries = promptScoreSummaries(
        scores,
        groups.map((group) => scoreGroups!.byPrompt.get(group.promptId)),
      );
      groups.forEach((group, i) => (group.totals.scores = summaries[i]));
    }
    return { ...stats, groups };
  }

  /** The executions' figures of the period: from the rollups and the edge hours' rows, or from the rows alone. */
  private async figures(
    tenantId: string,
    filter: LogFilter,
    range: {
      from: Date;
      to: Date;
      interval: StatsInterval;
      endpointId: string | undefined;
      byPrompt: boolean;
      groupTag: string | undefined;
    },
  ): Promise<StatsFigures> {
    const { from, to, interval, byPrompt, groupTag } = range;
    const read = rollupReadOf(filter.tags, groupTag, byPrompt);
    if (read === null || filter.source !== undefined) {
      // Two tag keys at once (or a filter on one and groups by another), evaluation runs' executions (the rollups leave
      // them out) or one source alone (the rollups sum the sources together): only the rows can answer.
      return this.exact(tenantId, filter, interval, byPrompt, groupTag);
    }
    // The tag rollups miss the sums of windows not written yet: their hours come from the rows.
    const tagged = read !== undefined || groupTag !== undefined;
    const pieces = planPieces(from, to, interval, tagged ? await this.windows.earliestUnsummed(tenantId) : null);
    const rolledUp = await this.rolledUp(tenantId, pieces, {
      endpointId: range.endpointId,
      interval,
      byPrompt,
      tag: read,
      groupTag,
    });
    // The rolled-up total says how many executions the period holds: a small period's figures are read again from
    // the rows, for exact percentiles.
    const calls = rolledUp.rows.find((row) => row.bucket === null)?.calls ?? 0;
    return calls <= this.config.statsExactPercentileRows
      ? this.exact(tenantId, filter, interval, byPrompt, groupTag)
      : rolledUp;
  }

  private async rolledUp(
    tenantId: string,
    pieces: RollupPiece[],
    read: Omit<RollupRead, 'tag'> & { tag: RollupRead['tag']; groupTag: string | undefined },
  ): Promise<StatsFigures> {
    const { groupTag, ...plain } = read;
    const [figures, errorCodes, tagGroups] = await Promise.all([
      this.rollups.figures(tenantId, pieces, plain),
      this.rollups.errorCodes(tenantId, pieces, plain),
      groupTag === undefined ? undefined : this.tagFigures(tenantId, pieces, plain, groupTag),
    ]);
    const combined = combineFigures(figures, errorCodes);
    if (!tagGroups) return { ...combined, tagRows: [], tagErrorRows: [] };
    // The rest group: every execution counted (the figures of all buckets) less the named values.
    const tag = combineTagGroups(tagGroups.figures, tagGroups.errorCodes, { figures, errorCodes });
    return { ...combined, tagRows: tag.rows, tagErrorRows: tag.errorRows };
  }

  /** The figures of each value of tag `key` over the period, within the read's own filter. */
  private async tagFigures(
    tenantId: string,
    pieces: RollupPiece[],
    read: RollupRead,
    key: string,
  ): Promise<{ figures: RollupFigures[]; errorCodes: RollupErrorCodes[] }> {
    // Filtered on the same key (rollupReadOf allows no other), or on none: the values' figures of the key's rollups.
    const tag = { key, values: read.tag?.values ?? null };
    const byValue = (values: string[] | null): RollupRead => ({
      ...read,
      byPrompt: false,
      tag: { key, values },
      byTagValue: true,
    });
    if (tag.values !== null && tag.values.length <= TAG_GROUPS) {
      const [figures, errorCodes] = await Promise.all([
        this.rollups.figures(tenantId, pieces, byValue(tag.values)),
        this.rollups.errorCodes(tenantId, pieces, byValue(tag.values)),
      ]);
      return { figures, errorCodes };
    }
    // Only the values the groups name are read in full from the rollups (with their latency histograms): they are
    // ranked first by their executions alone, which the rollups' index holds, and those of the partial edge hours, whose
    // rows are read once for every value.
    const rolled = pieces.filter((piece) => piece.source !== 'logs');
    const raw = pieces.filter((piece) => piece.source === 'logs');
    const [counts, rawFigures, rawErrorCodes] = await Promise.all([
      this.rollups.tagCalls(tenantId, rolled, { endpointId: read.endpointId, tag }, true),
      this.rollups.figures(tenantId, raw, byValue(tag.values)),
      this.rollups.errorCodes(tenantId, raw, byValue(tag.values)),
    ]);
    const calls = new Map<string, number>();
    for (const row of [...counts, ...rawFigures])
      if (row.tagValue !== null) calls.set(row.tagValue, (calls.get(row.tagValue) ?? 0) + row.calls);
    const named = topTagValues([...calls].map(([tagValue, n]) => ({ tagValue, calls: n })));
    const isNamed = new Set(named);
    const [figures, errorCodes] = named.length
      ? await Promise.all([
          this.rollups.figures(tenantId, rolled, byValue(named)),
          this.rollups.errorCodes(tenantId, rolled, byValue(named)),
        ])
      : [[], []];
    return {
      figures: [...figures, ...rawFigures.filter((row) => row.tagValue !== null && isNamed.has(row.tagValue))],
      errorCodes: [...errorCodes, ...rawErrorCodes.filter((row) => row.tagValue !== null && isNamed.has(row.tagValue))],
    };
  }

  /** Every figure from the log rows themselves, percentiles exact. */
  private async exact(
    tenantId: string,
    filter: LogFilter,
    interval: StatsInterval,
    byPrompt: boolean,
    groupTag: string | undefined,
  ): Promise<StatsFigures> {
    const [rows, errorRows, promptRows, promptErrorRows, tag] = await Promise.all([
      this.logs.stats(tenantId, filter, interval),
      this.logs.errorCodes(tenantId, filter, interval),
      byPrompt ? this.logs.promptStats(tenantId, filter) : [],
      byPrompt ? this.logs.promptErrorCodes(tenantId, filter) : [],
      groupTag === undefined ? { rows: [], errorRows: [] } : this.logs.tagStats(tenantId, filter, groupTag),
    ]);
    return { rows, errorRows, promptRows, promptErrorRows, tagRows: tag.rows, tagErrorRows: tag.errorRows };
  }
}

/**
 * The pieces of [from, to) for the score sums: whole days and hours from the score rollups, the partial hours at the
 * edges from the scores themselves (only totals are asked of them, so whole days are used whatever the interval).
 */
function scorePiecesOf(from: Date, to: Date): ScorePiece[] {
  return planPieces(from, to, 'day').map((piece) => ({
    source: piece.source === 'logs' ? 'scores' : piece.source,
    from: piece.from,
    to: piece.to,
  }));
}

/** The figures a response is built from: per bucket and in total, and per prompt or tag value when grouped. */
interface StatsFigures extends RolledUpStats {
  tagRows: TagStatsRow[];
  tagErrorRows: TagErrorCodeRow[];
}

/**
 * How the rollups answer a tag filter and tag groups: no filter, from the plain rollups (with groups by a key, from
 * that key's rollups as well); a filter on a single key (values of it, or its presence), from that key's rollups,
 * grouped by the same key or not at all. Null when they cannot (filters on two keys, or on one and groups by another
 * key or by prompt: the tag rollups are not split by prompt).
 */
function rollupReadOf(
  filter: TagFilter | undefined,
  groupTag: string | undefined,
  byPrompt: boolean,
): RollupRead['tag'] | null {
  if (tagFilterKeys(filter).length === 0) return undefined;
  const single = singleKeyFilter(filter);
  if (!single || byPrompt || (groupTag !== undefined && groupTag !== single.key)) return null;
  return single;
}
