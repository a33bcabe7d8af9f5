import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import type { StatsQuery } from './dto/stats.dto';
import type { StatsResponse } from './dto/stats.response';
import { filterOf } from './execution-logs.service';
import { ExecutionLogsRepository } from './execution-logs.repository';
import { bucketCount, buildPromptGroups, buildStats } from './stats-series';
import { PromptNames } from './prompt-names';

const MAX_BUCKETS = 1000;
const DEFAULT_SPAN_MS = { hour: 24 * 3_600_000, day: 7 * 86_400_000 };

/** GET /stats: how the tenant's endpoints (or one) did over a period, aggregated in SQL from the execution logs. */
@Injectable()
export class LogStatsService {
  constructor(
    private readonly logs: ExecutionLogsRepository,
    private readonly prompts: PromptNames,
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
    const [rows, errorRows] = await Promise.all([
      this.logs.stats(tenantId, filter, interval),
      this.logs.errorCodes(tenantId, filter, interval),
    ]);
    const stats = buildStats({ endpointId: query.endpointId ?? null, from, to, interval }, rows, errorRows);
    if (query.groupBy !== 'prompt') return stats;
    const [promptRows, promptErrorRows] = await Promise.all([
      this.logs.promptStats(tenantId, filter),
      this.logs.promptErrorCodes(tenantId, filter),
    ]);
    const names = await this.prompts.namesOf(
      tenantId,
      promptRows.map((row) => row.promptId),
    );
    return { ...stats, groups: buildPromptGroups(promptRows, promptErrorRows, names) };
  }
}
