import { Body, Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { CreateDatasetDto, UpdateDatasetDto } from './dto/dataset.dto';
import { DatasetResponse } from './dto/dataset.response';
import { DatasetsService } from './datasets.service';

const NO_ENDPOINT = 'No endpoint with this id in the tenant (or it is deleted)';
const NOT_FOUND = 'No dataset with this id in the tenant';

/** Datasets: reads for ReadOnly keys, changes for ReadWrite keys. */
@ApiTags('datasets')
@AdminRoute()
@Controller('admin/v1')
export class DatasetsController {
  constructor(private readonly datasets: DatasetsService) {}

  /** The endpoint's datasets (at most 100), by name. */
  @Get('endpoints/:id/datasets')
  @ApiOperation({ operationId: 'listDatasets', summary: "List an endpoint's datasets" })
  @ApiEnvelope([DatasetResponse], { failures: { 400: true, 404: NO_ENDPOINT } })
  list(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
  ): Promise<DatasetResponse[]> {
    return this.datasets.list(principal.tenantId, id);
  }

  @Post('endpoints/:id/datasets')
  @ApiOperation({ operationId: 'createDataset', summary: 'Create a dataset of an endpoint' })
  @ApiEnvelope(DatasetResponse, {
    status: 201,
    write: true,
    failures: {
      400: true,
      404: NO_ENDPOINT,
      409: 'The name is taken in the endpoint, or the endpoint has 100 datasets',
      413: true,
    },
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The endpoint's id") id: string,
    @Body() dto: CreateDatasetDto,
  ): Promise<DatasetResponse> {
    return this.datasets.create(principal.tenantId, id, dto);
  }

  @Get('datasets/:id')
  @ApiOperation({ operationId: 'getDataset', summary: 'Get a dataset' })
  @ApiEnvelope(DatasetResponse, { failures: { 400: true, 404: NOT_FOUND } })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<DatasetResponse> {
    return this.datasets.get(principal.tenantId, id);
  }

  @Put('datasets/:id')
  @ApiOperation({ operationId: 'updateDataset', summary: "Change a dataset's name, description or checks" })
  @ApiEnvelope(DatasetResponse, {
    write: true,
    failures: { 400: true, 404: NOT_FOUND, 409: 'The name is taken in the endpoint', 413: true },
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: UpdateDatasetDto,
  ): Promise<DatasetResponse> {
    return this.datasets.update(principal.tenantId, id, dto);
  }

  @Delete('datasets/:id')
  @ApiOperation({ operationId: 'deleteDataset', summary: 'Delete a dataset and its items' })
  @ApiEnvelope(null, { write: true, failures: { 400: true, 404: NOT_FOUND } })
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<null> {
    await this.datasets.delete(principal.tenantId, id);
    return null;
  }
}
