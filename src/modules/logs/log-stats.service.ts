import { Inject, Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { StatsQuery } from './dto/stats.dto';
import type { StatsResponse } from './dto/stats.response';
import { filterOf } from './execution-log-reads.service';
import { ExecutionLogRollupsRepository, type RollupPiece, type RollupRead } from './execution-log-rollups.repository';
import { ExecutionLogsRepository, type LogFilter, type StatsInterval } from './execution-logs.repository';
import { bucketCount, buildPromptGroups, buildStats } from './stats-series';
import { type RolledUpStats, combineFigures, planPieces } from './stats-rollups';
import { PromptNames } from './prompt-names';

const MAX_BUCKETS = 1000;
const DEFAULT_SPAN_MS = { hour: 24 * 3_600_000, day: 7 * 86_400_000 };

/**
 * GET /stats: how the tenant's endpoints (or one) did over a period. The whole hours and days of the period are read
 * from the rollups and its partial edge hours from the logs, so the cost of a request does not grow with the number of
 * executions. Counts, tokens and cost are exact; latency percentiles are exact (computed from the logs) when the period
 * holds at most `statsExactPercentileRows` executions, and estimated from the latency histograms above it.
 */
@Injectable()
export class LogStatsService {
  constructor(
    private readonly logs: ExecutionLogsRepository,
    private readonly rollups: ExecutionLogRollupsRepository,
    private readonly prompts: PromptNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async stats(tenantId: string, query: StatsQuery): Promise<StatsResponse> {
    const interval = query.interval ?? 'day';
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_SPAN_MS[interval]);
    const filter = filterOf({ endpointId: query.endpointId, from: from.toISOString(), to: to.toISOString() });
    if (bucketCount(from, to, interval) > MAX_BUCKETS) {
      throw new ValidationError(
        `interval=${interval} gives more than ${MAX_BUCKETS} buckets between from and to; use interval=day or a shorter period`,
        'interval',
      );
    }
    const byPrompt = query.groupBy === 'prompt';
    const pieces = planPieces(from, to, interval);
    const rolledUp = await this.rolledUp(tenantId, pieces, { endpointId: query.endpointId, interval, byPrompt });
    // The rolled-up total says how many executions the period holds: a small period's figures are read again from
    // the rows, for exact percentiles.
    const calls = rolledUp.rows.find((row) => row.bucket === null)?.calls ?? 0;
    const figures =
      calls <= this.config.statsExactPercentileRows ? await this.exact(tenantId, filter, interval, byPrompt) : rolledUp;
    const stats = buildStats(
      { endpointId: query.endpointId ?? null, from, to, interval },
      figures.rows,
      figures.errorRows,
    );
    if (!byPrompt) return stats;
    const names = await this.prompts.namesOf(
      tenantId,
      figures.promptRows.map((row) => row.promptId),
    );
    return { ...stats, groups: buildPromptGroups(figures.promptRows, figures.promptErrorRows, names) };
  }

  private async rolledUp(tenantId: string, pieces: RollupPiece[], read: RollupRead): Promise<RolledUpStats> {
    const [figures, errorCodes] = await Promise.all([
      this.rollups.figures(tenantId, pieces, read),
      this.rollups.errorCodes(tenantId, pieces, read),
    ]);
    return combineFigures(figures, errorCodes);
  }

  /** Every figure from the log rows themselves, percentiles exact. */
  private async exact(
    tenantId: string,
    filter: LogFilter,
    interval: StatsInterval,
    byPrompt: boolean,
  ): Promise<RolledUpStats> {
    const [rows, errorRows, promptRows, promptErrorRows] = await Promise.all([
      this.logs.stats(tenantId, filter, interval),
      this.logs.errorCodes(tenantId, filter, interval),
      byPrompt ? this.logs.promptStats(tenantId, filter) : [],
      byPrompt ? this.logs.promptErrorCodes(tenantId, filter) : [],
    ]);
    return { rows, errorRows, promptRows, promptErrorRows };
  }
}
