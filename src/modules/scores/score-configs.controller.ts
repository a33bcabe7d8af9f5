import { Body, Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { CreateScoreConfigDto, UpdateScoreConfigDto } from './dto/score-config.dto';
import { ScoreConfigResponse } from './dto/score-config.response';
import { ScoreConfigsService } from './score-configs.service';

const NOT_FOUND = 'No score config with this id in the tenant';

@ApiTags('score-configs')
@AdminRoute()
@Controller('admin/v1/score-configs')
export class ScoreConfigsController {
  constructor(private readonly configs: ScoreConfigsService) {}

  /** The tenant's score configs (at most 50), by name. */
  @Get()
  @ApiOperation({ operationId: 'listScoreConfigs', summary: "List the tenant's score configs" })
  @ApiEnvelope([ScoreConfigResponse])
  list(@CurrentPrincipal() principal: Principal): Promise<ScoreConfigResponse[]> {
    return this.configs.list(principal.tenantId);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getScoreConfig', summary: 'Get a score config' })
  @ApiEnvelope(ScoreConfigResponse, { failures: { 400: true, 404: NOT_FOUND } })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<ScoreConfigResponse> {
    return this.configs.get(principal.tenantId, id);
  }

  @Post()
  @ApiOperation({ operationId: 'createScoreConfig', summary: 'Declare a score config' })
  @ApiEnvelope(ScoreConfigResponse, {
    status: 201,
    write: true,
    failures: { 400: true, 409: 'The name is taken in the tenant, or the tenant has 50 score configs', 413: true },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateScoreConfigDto): Promise<ScoreConfigResponse> {
    return this.configs.create(principal.tenantId, dto);
  }

  @Put(':id')
  @ApiOperation({ operationId: 'updateScoreConfig', summary: 'Change a score config' })
  @ApiEnvelope(ScoreConfigResponse, {
    write: true,
    failures: {
      400: true,
      404: NOT_FOUND,
      409: 'The name is taken in the tenant, or scores use the config and its name or dataType would change',
      413: true,
    },
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: UpdateScoreConfigDto,
  ): Promise<ScoreConfigResponse> {
    return this.configs.update(principal.tenantId, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deleteScoreConfig', summary: 'Delete a score config no score uses' })
  @ApiEnvelope(null, { write: true, failures: { 400: true, 404: NOT_FOUND, 409: 'Scores use the config' } })
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<null> {
    await this.configs.delete(principal.tenantId, id);
    return null;
  }
}
