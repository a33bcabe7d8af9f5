import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { CreateEvalRunDto } from './dto/create-eval-run.dto';
import { EvalRunItemResponse, EvalRunResponse } from './dto/eval-run.response';
import { EvalRunsService } from './eval-runs.service';

const RUN_NOT_FOUND = 'No evaluation run with this id in the tenant';

@ApiTags('evaluations')
@AdminRoute()
@Controller('admin/v1')
export class EvalRunsController {
  constructor(private readonly runs: EvalRunsService) {}

  /**
   * Starts a run of the dataset at its current version (202): the candidate prompt version, and the baseline it is
   * compared with, run on every item in the background; GET /admin/v1/eval-runs/{id} follows it.
   */
  @Post('datasets/:id/runs')
  @HttpCode(202)
  @ApiOperation({ operationId: 'createEvalRun', summary: 'Run a dataset against a prompt version' })
  @ApiEnvelope(EvalRunResponse, {
    status: 202,
    write: true,
    failures: {
      400: true,
      404: 'No dataset, prompt or version with this id in the tenant',
      409: 'The dataset has no items, or a prompt of the run is Archived',
      413: true,
    },
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') datasetId: string,
    @Body() dto: CreateEvalRunDto,
  ): Promise<EvalRunResponse> {
    return this.runs.create(principal, datasetId, dto);
  }

  @Get('eval-runs/:id')
  @ApiOperation({ operationId: 'getEvalRun', summary: 'Get an evaluation run with its summary' })
  @ApiEnvelope(EvalRunResponse, { failures: { 400: true, 404: RUN_NOT_FOUND } })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<EvalRunResponse> {
    return this.runs.get(principal.tenantId, id);
  }

  /** Every item of the run in dataset order: each side's answers and check results, and the verdict. */
  @Get('eval-runs/:id/items')
  @ApiOperation({ operationId: 'listEvalRunItems', summary: "List an evaluation run's items and verdicts" })
  @ApiEnvelope([EvalRunItemResponse], { failures: { 400: true, 404: RUN_NOT_FOUND } })
  items(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<EvalRunItemResponse[]> {
    return this.runs.items(principal.tenantId, id);
  }

  /** No further item of the run starts; those in flight finish and are recorded. */
  @Post('eval-runs/:id/cancel')
  @HttpCode(200)
  @ApiOperation({ operationId: 'cancelEvalRun', summary: 'Cancel an evaluation run' })
  @ApiEnvelope(EvalRunResponse, {
    write: true,
    failures: { 400: true, 404: RUN_NOT_FOUND, 409: 'The run has already ended' },
  })
  cancel(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<EvalRunResponse> {
    return this.runs.cancel(principal.tenantId, id);
  }

  /** The endpoint's runs, newest first (the 100 newest). */
  @Get('endpoints/:id/eval-runs')
  @ApiOperation({ operationId: 'listEndpointEvalRuns', summary: "List an endpoint's evaluation runs" })
  @ApiEnvelope([EvalRunResponse], { failures: { 400: true, 404: 'No endpoint with this id in the tenant' } })
  list(@CurrentPrincipal() principal: Principal, @UuidParam('id') endpointId: string): Promise<EvalRunResponse[]> {
    return this.runs.listForEndpoint(principal.tenantId, endpointId);
  }
}
