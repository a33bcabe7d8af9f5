import { Body, Controller, Get, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { type HttpResponseLike, setStatus } from '../../common/http/http-context';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { ExecutionLogDetailResponse, ExecutionLogPageResponse } from './dto/execution-log.response';
import { ListLogsQuery } from './dto/list-logs.dto';
import { ExecutionLogReadsService } from './execution-log-reads.service';
import { LogScoreResponse, toLogScoreResponse } from './dto/log-score.response';
import { ScoreLogDto } from './dto/score-log.dto';
import { LogScoresService } from './log-scores.service';

/** Reads, which ReadOnly keys may use, and scoring an execution (ReadWrite keys). */
@ApiTags('logs')
@AdminRoute()
@Controller('admin/v1/logs')
export class LogsController {
  constructor(
    private readonly logs: ExecutionLogReadsService,
    private readonly scores: LogScoresService,
  ) {}

  /** A page of the tenant's execution logs, newest first, with the (capped) number of matching rows. */
  @Get()
  @ApiOperation({ operationId: 'listLogs', summary: 'List execution logs' })
  @ApiEnvelope(ExecutionLogPageResponse, { failures: { 400: true } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListLogsQuery): Promise<ExecutionLogPageResponse> {
    return this.logs.list(principal.tenantId, query);
  }

  /** One execution with its inputs, rendered prompt, raw LLM response and parsed output. */
  @Get(':id')
  @ApiOperation({ operationId: 'getLog', summary: 'Get one execution log' })
  @ApiEnvelope(ExecutionLogDetailResponse, {
    failures: { 400: true, 404: 'No execution log with this id in the tenant' },
  })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<ExecutionLogDetailResponse> {
    return this.logs.get(principal.tenantId, id);
  }

  /**
   * An admin's score on the execution (source `annotation`): one value per execution and score name, so a second one
   * replaces the first. The name must be one of the tenant's score configs and the value fit it.
   */
  @Post(':id/scores')
  @ApiOperation({ operationId: 'scoreLog', summary: 'Score an execution' })
  @ApiEnvelope(LogScoreResponse, {
    status: 201,
    write: true,
    failures: {
      400: 'The body failed validation: an undeclared score name (name) or a value that does not fit its config (value)',
      404: 'No execution log with this id in the tenant',
      413: true,
    },
  })
  async score(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: ScoreLogDto,
    @Res({ passthrough: true }) response: HttpResponseLike,
  ): Promise<LogScoreResponse> {
    const { score, created } = await this.scores.scoreLog(principal.tenantId, id, dto, 'annotation');
    // 201 for the execution's first score of this name, 200 when it replaced one.
    if (!created) setStatus(response, 200);
    return toLogScoreResponse(score);
  }
}
