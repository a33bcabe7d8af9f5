import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParamPipe } from '../../common/http/uuid-param.pipe';
import { ExecutionLogDetailResponse, ExecutionLogPageResponse } from './dto/execution-log.response';
import { ListLogsQuery } from './dto/list-logs.dto';
import { ExecutionLogsService } from './execution-logs.service';

/** Reads only, so ReadOnly keys may use it. */
@ApiTags('logs')
@AdminRoute()
@Controller('admin/v1/logs')
export class LogsController {
  constructor(private readonly logs: ExecutionLogsService) {}

  /** A page of the tenant's execution logs, newest first, with the (capped) number of matching rows. */
  @Get()
  @ApiEnvelope(ExecutionLogPageResponse)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListLogsQuery): Promise<ExecutionLogPageResponse> {
    return this.logs.list(principal.tenantId, query);
  }

  /** One execution with its inputs, rendered prompt, raw LLM response and parsed output. */
  @Get(':id')
  @ApiEnvelope(ExecutionLogDetailResponse)
  get(@CurrentPrincipal() principal: Principal, @Param('id', UuidParamPipe) id: string): Promise<ExecutionLogDetailResponse> {
    return this.logs.get(principal.tenantId, id);
  }
}
