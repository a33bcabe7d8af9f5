import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { GateDatasets } from '../endpoints/gate-datasets';
import { LogsModule } from '../logs/logs.module';
import { ModelsModule } from '../models/models.module';
import { PromptsModule } from '../prompts/prompts.module';
import { DatasetItemEntity } from './dataset-item.entity';
import { DatasetEntity } from './dataset.entity';
import { DatasetItemsController } from './dataset-items.controller';
import { DatasetItemsRepository } from './dataset-items.repository';
import { DatasetItemsService } from './dataset-items.service';
import { DatasetsController } from './datasets.controller';
import { DatasetsRepository } from './datasets.repository';
import { DatasetsService } from './datasets.service';
import { GateDatasetsService } from './gate-datasets.service';

// Owns datasets and dataset_items: the test inputs of an endpoint and the checks run on their outputs
// (/admin/v1/endpoints/{id}/datasets, /admin/v1/datasets/{id}, /admin/v1/datasets/{id}/items).
// Exports DatasetsService, which evaluation runs read a dataset's checks and its items at a version through,
// DatasetItemsService, which the MCP tools add items through, and GateDatasetsService (the endpoints' GateDatasets
// port, given to them by the global GateDatasetsModule below). It checks inputs with execution's input validator (a pure function), judge models against the model list, rubrics with the
// prompts' Liquid parser, and copies executions read through the logs module.
@Module({
  imports: [
    TypeOrmModule.forFeature([DatasetEntity, DatasetItemEntity]),
    EndpointsModule,
    ModelsModule,
    PromptsModule,
    LogsModule,
  ],
  controllers: [DatasetsController, DatasetItemsController],
  providers: [DatasetsRepository, DatasetItemsRepository, DatasetsService, DatasetItemsService, GateDatasetsService],
  exports: [DatasetsService, DatasetItemsService, GateDatasetsService],
})
export class DatasetsModule {}

/**
 * The GateDatasets port through which the endpoints module checks a promotion gate's dataset. Global, as the
 * SplitPrompts port is: datasets build on endpoints, so the endpoints module cannot import this module.
 */
@Global()
@Module({
  imports: [DatasetsModule],
  providers: [{ provide: GateDatasets, useExisting: GateDatasetsService }],
  exports: [GateDatasets],
})
export class GateDatasetsModule {}
