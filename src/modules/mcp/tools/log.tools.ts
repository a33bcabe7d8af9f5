import { Injectable } from '@nestjs/common';
import { ListLogsQuery } from '../../logs/dto/list-logs.dto';
import { StatsQuery } from '../../logs/dto/stats.dto';
import { toLogScoreResponse } from '../../logs/dto/log-score.response';
import { ScoreLogDto } from '../../logs/dto/score-log.dto';
import { ExecutionLogReadsService } from '../../logs/execution-log-reads.service';
import { LogScoresService } from '../../logs/log-scores.service';
import { LogStatsService } from '../../logs/log-stats.service';
import { defineTool, McpTool, McpToolGroup, uuidId } from '../mcp-tool';

/**
 * Execution logs and usage statistics (read-only, also for ReadOnly keys), and scoring an execution (ReadWrite keys):
 * the same services and DTOs as REST.
 */
@Injectable()
export class LogTools extends McpToolGroup {
  readonly toolset = 'logs';

  constructor(
    private readonly logs: ExecutionLogReadsService,
    private readonly stats: LogStatsService,
    private readonly scores: LogScoresService,
  ) {
    super();
  }

  tools(): McpTool[] {
    return [
      defineTool({
        name: 'list_logs',
        title: 'List execution logs',
        description:
          'A page of executions, newest first, with status, errorCode, latency, tokens and cost. Filters combine with AND; ' +
          'score takes a score name (executions with that score) or name:value. ' +
          'The result is the REST page: {"items": [...]} with its paging fields.',
        access: 'read',
        input: ListLogsQuery,
        output: 'object',
        run: ({ principal, input }) => this.logs.list(principal.tenantId, input),
      }),
      defineTool({
        name: 'get_log',
        title: 'Get an execution log',
        description:
          'One execution in detail: inputs, rendered prompt, raw LLM response, parsed output, error message, scores. A field longer ' +
          'than the log limit is stored cut, ending in "…[truncated N bytes]", and named in truncatedFields.',
        access: 'read',
        ids: { id: uuidId('Log id (uuid)') },
        output: 'object',
        run: ({ principal, ids }) => this.logs.get(principal.tenantId, ids.id),
      }),
      defineTool({
        name: 'score_execution',
        title: 'Score an execution',
        description:
          "Records a feedback score on one execution (a log id from list_logs), as an admin annotation: name is one of the tenant's " +
          'score configs and value fits it (true/false, a number within its bounds, or one of its categories). One value per ' +
          'execution and name: a second call replaces it. The result is {"score": {name, value, comment, source, createdAt}, "created": <boolean>}.',
        access: 'write',
        ids: { id: uuidId('Log id (uuid)') },
        input: ScoreLogDto,
        output: 'object',
        run: async ({ principal, ids, input }) => {
          const { score, created } = await this.scores.scoreLog(principal.tenantId, ids.id, input, 'annotation');
          return { score: toLogScoreResponse(score), created };
        },
      }),
      defineTool({
        name: 'get_stats',
        title: 'Usage statistics',
        description:
          'Calls, errors by code, cache hits, p50/p95 latency, tokens and cost: totals and an hourly or daily series. ' +
          'With score=<name>, that feedback score (count, share of true or mean, or counts per category) in the totals ' +
          "and groups; with groupBy=prompt also each prompt's 95 % interval and verdict against the best other prompt.",
        access: 'read',
        input: StatsQuery,
        output: 'object',
        run: ({ principal, input }) => this.stats.stats(principal.tenantId, input),
      }),
    ];
  }
}
