import { Injectable } from '@nestjs/common';
import { pageWindow } from '../../common/http/paging';
import {
  ExecutionLogDetailResponse,
  ExecutionLogPageResponse,
  toExecutionLogDetailResponse,
  toExecutionLogResponse,
} from './dto/execution-log.response';
import { type ListLogsQuery, LOG_PAGE_SIZE } from './dto/list-logs.dto';
import { ExecutionLogsRepository, LogFilter } from './execution-logs.repository';
import { LogErrors } from './logs.errors';
import { tagFilterOf } from './tag-filter';

/** Whose spending a sum covers: one key, one endpoint, one tag, or (none) the tenant. */
export interface SpendScope {
  keyId?: string;
  endpointId?: string;
  tag?: { key: string; value: string };
}

/** GET /logs counts matching rows up to this many; an exact count over millions of rows would cost a full range scan. */
export const TOTAL_CAP = 10_000;

/** Reads of the execution logs (GET /logs and the MCP log tools), tenant-scoped. */
@Injectable()
export class ExecutionLogReadsService {
  constructor(private readonly logs: ExecutionLogsRepository) {}

  async list(tenantId: string, query: ListLogsQuery): Promise<ExecutionLogPageResponse> {
    const { page, pageSize, offset } = pageWindow(query, LOG_PAGE_SIZE.default);
    const filter = filterOf(query);
    const [rows, count] = await Promise.all([
      this.logs.findPage(tenantId, filter, offset, pageSize),
      this.logs.countUpTo(tenantId, filter, TOTAL_CAP),
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
   * What the executions of one key, endpoint or tag (or the whole tenant, with none) cost from `from` (inclusive) to
   * `to` (exclusive), by their start: the sum of their rows' costUsd, in dollars.
   */
  async spentUsd(tenantId: string, scope: SpendScope, from: Date, to: Date): Promise<number> {
    const filter: LogFilter = { from, to, keyId: scope.keyId, endpointId: scope.endpointId };
    if (scope.tag) filter.tags = { values: new Map([[scope.tag.key, [scope.tag.value]]]), present: [] };
    return Number(await this.logs.costTotal(tenantId, filter));
  }

  async get(tenantId: string, id: string): Promise<ExecutionLogDetailResponse> {
    const log = await this.logs.findOne(tenantId, id);
    if (!log) throw LogErrors.logNotFound(id);
    return toExecutionLogDetailResponse(log);
  }
}

export function filterOf(
  query: Pick<
    ListLogsQuery,
    'endpointId' | 'source' | 'status' | 'promptId' | 'assignment' | 'requestId' | 'from' | 'to' | 'tag' | 'hasTag'
  >,
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
  };
}
