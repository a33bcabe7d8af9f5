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
import { ExecutionScoresService } from '../scores/execution-scores.service';
import { tagFilterOf } from './tag-filter';
import { scoreFilterOf } from './score-filter';

/** GET /logs counts matching rows up to this many; an exact count over millions of rows would cost a full range scan. */
export const TOTAL_CAP = 10_000;

/** Reads of the execution logs (GET /logs and the MCP log tools), tenant-scoped. */
@Injectable()
export class ExecutionLogReadsService {
  constructor(
    private readonly logs: ExecutionLogsRepository,
    private readonly scores: ExecutionScoresService,
  ) {}

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
