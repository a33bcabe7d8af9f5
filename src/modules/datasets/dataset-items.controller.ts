import { Body, Controller, Delete, Get, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { AddDatasetItemsDto, AddItemsFromLogsDto, ListDatasetItemsQuery } from './dto/dataset-item.dto';
import { AddedDatasetItemsResponse, DatasetItemPageResponse } from './dto/dataset-item.response';
import { DatasetItemsService } from './dataset-items.service';

const NOT_FOUND = 'No dataset with this id in the tenant';
const FULL = 'The dataset would hold more than 5000 items';

/** A dataset's items: reads for ReadOnly keys, changes (each a new version of the dataset) for ReadWrite keys. */
@ApiTags('datasets')
@AdminRoute()
@Controller('admin/v1/datasets/:id/items')
export class DatasetItemsController {
  constructor(private readonly items: DatasetItemsService) {}

  /** A page of the items at the dataset's current version, in the order they were added. */
  @Get()
  @ApiOperation({ operationId: 'listDatasetItems', summary: "List a dataset's items" })
  @ApiEnvelope(DatasetItemPageResponse, { failures: { 400: true, 404: NOT_FOUND } })
  list(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The dataset's id") id: string,
    @Query() query: ListDatasetItemsQuery,
  ): Promise<DatasetItemPageResponse> {
    return this.items.list(principal.tenantId, id, query);
  }

  /** Adds 1 to 500 items, all or none, as the dataset's next version. */
  @Post()
  @ApiOperation({ operationId: 'addDatasetItems', summary: 'Add items to a dataset' })
  @ApiEnvelope(AddedDatasetItemsResponse, {
    status: 201,
    write: true,
    failures: {
      400: "The body failed validation: an item's inputs as an execution's (items.<n>.inputs.<field>), or an item over 64 KiB (items.<n>)",
      404: NOT_FOUND,
      409: FULL,
      413: true,
    },
  })
  add(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The dataset's id") id: string,
    @Body() dto: AddDatasetItemsDto,
  ): Promise<AddedDatasetItemsResponse> {
    return this.items.add(principal.tenantId, id, dto);
  }

  /** Copies 1 to 500 executions of the dataset's endpoint as items, all or none, as the dataset's next version. */
  @Post('from-logs')
  @ApiOperation({ operationId: 'addDatasetItemsFromLogs', summary: 'Copy logged executions into a dataset' })
  @ApiEnvelope(AddedDatasetItemsResponse, {
    status: 201,
    write: true,
    failures: {
      400: 'The body failed validation, or a log (logIds.<n>) is of another endpoint, was cut to the log size limit, or failed when its output is wanted',
      404: 'No dataset with this id in the tenant, or no execution log of an id (logIds.<n>)',
      409: FULL,
      413: true,
    },
  })
  addFromLogs(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The dataset's id") id: string,
    @Body() dto: AddItemsFromLogsDto,
  ): Promise<AddedDatasetItemsResponse> {
    return this.items.addFromLogs(principal.tenantId, id, dto);
  }

  /** Removes the item from the dataset's next version on; runs of earlier versions still read it. */
  @Delete(':itemId')
  @ApiOperation({ operationId: 'deleteDatasetItem', summary: 'Delete a dataset item' })
  @ApiEnvelope(null, {
    write: true,
    failures: { 400: true, 404: 'No dataset with this id in the tenant, or no such item in its current version' },
  })
  async delete(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id', "The dataset's id") id: string,
    @UuidParam('itemId') itemId: string,
  ): Promise<null> {
    await this.items.delete(principal.tenantId, id, itemId);
    return null;
  }
}
