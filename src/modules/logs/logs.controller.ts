import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { ExecutionLogDetailResponse, ExecutionLogPageResponse } from './dto/execution-log.response';
import { ListLogsQuery } from './dto/list-logs.dto';
import { ExecutionLogReadsService } from './execution-log-reads.service';

/** Reads only, so ReadOnly keys may use it. */
@ApiTags('logs')
@AdminRoute()
@Controller('admin/v1/logs')
export class LogsController {
  constructor(private readonly logs: ExecutionLogReadsService) {}

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
}
