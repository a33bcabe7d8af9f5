import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { validateDto } from '../../../common/http/validation.pipe';
import { ListLogsQuery, LOG_PAGE_SIZE } from '../../logs/dto/list-logs.dto';
import { StatsQuery } from '../../logs/dto/stats.dto';
import { ExecutionLogsService } from '../../logs/execution-logs.service';
import { LogStatsService } from '../../logs/log-stats.service';
import { defineTool, McpTool, McpToolGroup, pageArguments } from '../mcp-tool';

const timestamp = z.string().optional().describe('ISO 8601 timestamp');

/** Execution logs and usage statistics (read-only, also for ReadOnly keys). */
@Injectable()
export class LogTools extends McpToolGroup {
  constructor(
    private readonly logs: ExecutionLogsService,
    private readonly stats: LogStatsService,
  ) {
    super();
  }

  tools(): McpTool[] {
    return [
      defineTool({
        name: 'list_logs',
        title: 'List execution logs',
        description: 'A page of executions, newest first, with status, errorCode, latency, tokens and cost. Filters combine with AND.',
        access: 'read',
        input: {
          endpointId: z.string().uuid().optional(),
          source: z.enum(['Api', 'TestPage', 'Internal']).optional(),
          status: z.enum(['success', 'error']).optional(),
          promptId: z.string().uuid().optional(),
          from: timestamp,
          to: timestamp,
          ...pageArguments(LOG_PAGE_SIZE),
        },
        run: (p, args) => this.logs.list(p.tenantId, validateDto(ListLogsQuery, args)),
      }),
      defineTool({
        name: 'get_log',
        title: 'Get an execution log',
        description:
          'One execution in detail: inputs, rendered prompt, raw LLM response, parsed output, error message. A field longer than the log limit is stored cut, ending in "…[truncated N bytes]", and named in truncatedFields.',
        access: 'read',
        input: { id: z.string().uuid() },
        run: (p, args) => this.logs.get(p.tenantId, args.id),
      }),
      defineTool({
        name: 'get_stats',
        title: 'Usage statistics',
        description: 'Calls, errors by code, cache hits, p50/p95 latency, tokens and cost: totals and an hourly or daily series.',
        access: 'read',
        input: { endpointId: z.string().uuid().optional(), from: timestamp, to: timestamp, interval: z.enum(['hour', 'day']).optional() },
        run: (p, args) => this.stats.stats(p.tenantId, validateDto(StatsQuery, args)),
      }),
    ];
  }
}
