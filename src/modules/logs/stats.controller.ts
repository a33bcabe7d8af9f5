import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { StatsQuery } from './dto/stats.dto';
import { StatsResponse } from './dto/stats.response';
import { LogStatsService } from './log-stats.service';

@ApiTags('stats')
@AdminRoute()
@Controller('admin/v1/stats')
export class StatsController {
  constructor(private readonly stats: LogStatsService) {}

  /** Calls, errors by code, cache hits, p50/p95 latency, tokens and cost: totals and a UTC hourly or daily series. */
  @Get()
  @ApiOperation({ operationId: 'getStats', summary: 'Usage statistics over time' })
  @ApiEnvelope(StatsResponse, {
    failures: {
      400: 'The request failed validation (unknown properties included), from is not before to, or the period has more than 1,000 buckets of the interval',
    },
  })
  get(@CurrentPrincipal() principal: Principal, @Query() query: StatsQuery): Promise<StatsResponse> {
    return this.stats.stats(principal.tenantId, query);
  }
}
