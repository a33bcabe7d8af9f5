import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { pageWindow } from '../../common/http/paging';
import {
  ExecutionLogDetailResponse,
  ExecutionLogPageResponse,
  toExecutionLogDetailResponse,
  toExecutionLogResponse,
} from './dto/execution-log.response';
import { type ListLogsQuery, LOG_PAGE_SIZE } from './dto/list-logs.dto';
import { ExecutionLogRollupsRepository, type RollupPiece } from './execution-log-rollups.repository';
import { ExecutionLogsRepository, LogFilter } from './execution-logs.repository';
import { retentionCutoff } from './log-retention.service';
import { LogErrors } from './logs.errors';
import { countPieces } from './stats-rollups';
import { singleKeyFilter, tagFilterOf } from './tag-filter';
import { TagSumWindowsRepository } from './tag-sum-windows.repository';
import { ExecutionScoresService } from '../scores/execution-scores.service';
import { scoreFilterOf } from './score-filter';

/** Whose spending a sum covers: one key, one endpoint, one tag, or (none) the tenant. */
export interface SpendScope {
  keyId?: string;
  endpointId?: string;
  tag?: { key: string; value: string };
}

/** What a copy of a logged execution reads of its row. */
export interface LoggedExecutionCopy {
  id: string;
  endpointId: string;
  status: 'success' | 'error';
  inputs: unknown;
  /** The parsed output (null when the execution failed). */
  output: unknown;
  /** Which of inputs, renderedPrompt, rawResponse and parsedOutput were cut to the log's size limit. */
  truncatedFields: string[];
}

/** GET /logs counts matching rows up to this many; an exact count over millions of rows would cost a full range scan. */
export const TOTAL_CAP = 10_000;

/** Reads of the execution logs (GET /logs and the MCP log tools), tenant-scoped. */
@Injectable()
export class ExecutionLogReadsService {
  constructor(
    private readonly logs: ExecutionLogsRepository,
    private readonly rollups: ExecutionLogRollupsRepository,
    private readonly windows: TagSumWindowsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly scores: ExecutionScoresService,
  ) {}

  async list(tenantId: string, query: ListLogsQuery): Promise<ExecutionLogPageResponse> {
    const { page, pageSize, offset } = pageWindow(query, LOG_PAGE_SIZE.default);
    const filter = filterOf(query);
    const [rows, count] = await Promise.all([
      this.logs.findPage(tenantId, filter, offset, pageSize),
      this.countUpTo(tenantId, filter),
    ]);
    return {
      items: rows.map(toExecutionLogResponse),
      page,
      pageSize,
      total: Math.min(count, TOTAL_CAP),
      totalIsExact: count <= TOTAL_CAP,
    };
  }

  /**
   * The matching rows, counted up to TOTAL_CAP + 1 at most. A filter on one tag key (with the endpoint and the period
   * at most) is counted exactly from the tag rollups, whose cost is their rows for the key (or its values) rather than
   * the log rows walked to find that many matches (a tag on 10 % of the rows means 100,000 rows for 10,000 matches);
   * the older part of the period only when the recent part has not passed the cap.
   */
  private async countUpTo(tenantId: string, filter: LogFilter): Promise<number> {
    const tag = singleKeyFilter(filter.tags);
    const onlyTagAndPeriod =
      !filter.source && !filter.status && !filter.promptId && !filter.assignment && !filter.requestId && !filter.scores;
    if (!tag || !onlyTagAndPeriod) return this.logs.countUpTo(tenantId, filter, TOTAL_CAP);
    const now = new Date();
    const { recent, older } = countPieces(
      filter.from,
      filter.to,
      retentionCutoff(now, this.config.logRetentionDays),
      now,
      await this.windows.earliestUnsummed(tenantId),
    );
    const read = { endpointId: filter.endpointId, tag };
    const count = async (pieces: RollupPiece[]) =>
      pieces.length ? ((await this.rollups.tagCalls(tenantId, pieces, read, false))[0]?.calls ?? 0) : 0;
    const recentCount = await count(recent);
    return recentCount > TOTAL_CAP ? recentCount : recentCount + (await count(older));
  }

  /**
   * What the executions of one key, endpoint or tag (or the whole tenant, with none) cost from `from` (inclusive) to
   * `to` (exclusive), by their start: the sum of their rows' costUsd, in dollars.
   */
  async spentUsd(tenantId: string, scope: SpendScope, from: Date, to: Date): Promise<number> {
    const filter: LogFilter = { from, to, keyId: scope.keyId, endpointId: scope.endpointId };
    if (scope.tag) filter.tags = { values: new Map([[scope.tag.key, [scope.tag.value]]]), present: [] };
    return Number(await this.logs.costTotal(tenantId, filter));
  }

  /**
   * The tenant's executions of these ids, for copying them (into a dataset): each one's endpoint, status, inputs,
   * parsed output and the fields the log cut to its size limit. Ids the tenant has no row of are left out.
   */
  async executionsForCopy(tenantId: string, ids: string[]): Promise<LoggedExecutionCopy[]> {
    const rows = await this.logs.findForCopy(tenantId, ids);
    return rows.map((row) => ({
      id: row.id,
      endpointId: row.endpointId,
      status: row.status,
      inputs: row.inputs,
      output: row.parsedOutput,
      truncatedFields: row.truncatedFields,
    }));
  }

  async get(tenantId: string, id: string): Promise<ExecutionLogDetailResponse> {
    const [log, scores] = await Promise.all([this.logs.findOne(tenantId, id), this.scores.scoresOfLog(tenantId, id)]);
    if (!log) throw LogErrors.logNotFound(id);
    return toExecutionLogDetailResponse(log, scores);
  }
}

export function filterOf(
  query: Pick<
    ListLogsQuery,
    'endpointId' | 'source' | 'status' | 'promptId' | 'assignment' | 'requestId' | 'from' | 'to' | 'tag' | 'hasTag'
  > & { score?: string[] },
): LogFilter {
  const from = query.from ? new Date(query.from) : undefined;
  const to = query.to ? new Date(query.to) : undefined;
  if (from && to && from >= to) throw LogErrors.periodReversed();
  return {
    endpointId: query.endpointId,
    source: query.source,
    status: query.status,
    promptId: query.promptId,
    assignment: query.assignment,
    requestId: query.requestId,
    from,
    to,
    tags: tagFilterOf(query.tag, query.hasTag),
    scores: scoreFilterOf(query.score),
  };
}
