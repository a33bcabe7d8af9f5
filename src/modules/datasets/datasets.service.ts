import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../database/transactions';
import { EndpointsService } from '../endpoints/endpoints.service';
import { ModelsService } from '../models/models.service';
import { TemplateService } from '../prompts/template/template.service';
import type { DatasetCheck } from './dataset-check';
import { parseChecks } from './dataset-check-rules';
import { MAX_DATASETS_PER_ENDPOINT } from './dataset-rules';
import type { DatasetEntity } from './dataset.entity';
import { DatasetItemsRepository } from './dataset-items.repository';
import { type DatasetChanges, DatasetsRepository } from './datasets.repository';
import { DatasetErrors } from './datasets.errors';
import type { CreateDatasetDto, UpdateDatasetDto } from './dto/dataset.dto';
import { type DatasetResponse, toDatasetResponse } from './dto/dataset.response';

/** What an evaluation run reads of its dataset when it starts. */
export interface DatasetForRun {
  id: string;
  endpointId: string;
  name: string;
  version: number;
  checks: DatasetCheck[];
}

/** An item as an evaluation run reads it. */
export interface DatasetItemForRun {
  id: string;
  inputs: Record<string, unknown>;
  expectedOutput: unknown;
  tags: Record<string, string>;
}

/**
 * The datasets of the tenant's endpoints: created, changed and deleted under their bounds, and read by evaluation
 * runs (`findForRun`, then `itemsAtVersion` at the version read).
 */
@Injectable()
export class DatasetsService {
  constructor(
    private readonly txHost: TransactionHost,
    private readonly datasets: DatasetsRepository,
    private readonly items: DatasetItemsRepository,
    private readonly endpoints: EndpointsService,
    private readonly models: ModelsService,
    private readonly templates: TemplateService,
  ) {}

  /** The endpoint's datasets by name (404 when the endpoint is not the tenant's or is deleted). */
  async list(tenantId: string, endpointId: string): Promise<DatasetResponse[]> {
    await this.endpoints.requireActive(tenantId, endpointId);
    return (await this.datasets.listByEndpoint(tenantId, endpointId)).map(toDatasetResponse);
  }

  async get(tenantId: string, id: string): Promise<DatasetResponse> {
    return toDatasetResponse(await this.found(tenantId, id));
  }

  /**
   * A new dataset of the endpoint, with no items at version 0: its name unique in the endpoint (409), at most
   * MAX_DATASETS_PER_ENDPOINT per endpoint (409), its checks valid (400 naming `checks.<n>.<parameter>`).
   */
  async create(tenantId: string, endpointId: string, dto: CreateDatasetDto): Promise<DatasetResponse> {
    const checks = this.checkedChecks(dto.checks ?? []);
    return this.txHost.withTransaction(async () => {
      await this.endpoints.requireActive(tenantId, endpointId);
      // Creations in one endpoint take turns, so two at once cannot both pass the count or take the same name.
      await this.datasets.lockEndpointDatasets(tenantId, endpointId);
      if ((await this.datasets.countByEndpoint(tenantId, endpointId)) >= MAX_DATASETS_PER_ENDPOINT) {
        throw DatasetErrors.tooManyDatasets(MAX_DATASETS_PER_ENDPOINT);
      }
      if (await this.datasets.findByName(tenantId, endpointId, dto.name)) throw DatasetErrors.nameTaken(dto.name);
      const dataset = await this.datasets.create({
        tenantId,
        endpointId,
        name: dto.name,
        description: dto.description ?? '',
        checks,
      });
      return toDatasetResponse(dataset);
    });
  }

  /** Changes the given fields; checks given replace all of the dataset's. The items and their version stay. */
  async update(tenantId: string, id: string, dto: UpdateDatasetDto): Promise<DatasetResponse> {
    const checks = dto.checks !== undefined ? this.checkedChecks(dto.checks) : undefined;
    return this.txHost.withTransaction(async () => {
      const current = await this.datasets.findByIdForChange(tenantId, id);
      if (!current) throw DatasetErrors.datasetNotFound(id);
      if (dto.name !== undefined && dto.name !== current.name) {
        await this.datasets.lockEndpointDatasets(tenantId, current.endpointId);
        if (await this.datasets.findByName(tenantId, current.endpointId, dto.name)) {
          throw DatasetErrors.nameTaken(dto.name);
        }
      }
      const changes: DatasetChanges = {};
      if (dto.name !== undefined) changes.name = dto.name;
      if (dto.description !== undefined) changes.description = dto.description;
      if (checks !== undefined) changes.checks = checks;
      if (Object.keys(changes).length > 0) await this.datasets.update(tenantId, id, changes);
      return toDatasetResponse((await this.datasets.findById(tenantId, id))!);
    });
  }

  /** Deletes the dataset and its items. */
  async delete(tenantId: string, id: string): Promise<void> {
    await this.found(tenantId, id);
    await this.datasets.delete(tenantId, id);
  }

  /** An evaluation run's start: the dataset's endpoint, current version and checks (404 when not the tenant's). */
  async findForRun(tenantId: string, datasetId: string): Promise<DatasetForRun> {
    const dataset = await this.found(tenantId, datasetId);
    return {
      id: dataset.id,
      endpointId: dataset.endpointId,
      name: dataset.name,
      version: dataset.version,
      checks: dataset.checks,
    };
  }

  /**
   * The items as they were at `version` (those added at or before it and not removed by then), in the order they were
   * added (404 when the dataset is not the tenant's).
   */
  async itemsAtVersion(tenantId: string, datasetId: string, version: number): Promise<DatasetItemForRun[]> {
    await this.found(tenantId, datasetId);
    const items = await this.items.allAt(tenantId, datasetId, version);
    return items.map((item) => ({
      id: item.id,
      inputs: item.inputs,
      expectedOutput: item.expectedOutput ?? null,
      tags: item.tags,
    }));
  }

  /**
   * The checks with their defaults, or a 400 naming the first problem's field: each check's own rules, then a judge's
   * model, which must be in the model list (as a prompt's), and its rubric, which must parse as Liquid.
   */
  private checkedChecks(given: unknown[]): DatasetCheck[] {
    const parsed = parseChecks(given);
    if (parsed.checks === null) {
      throw DatasetErrors.badChecks(
        parsed.problems.map((problem) => problem.message),
        parsed.problems[0].field,
      );
    }
    parsed.checks.forEach((check, index) => {
      if (check.type !== 'judge') return;
      this.models.require(check.llmModel, `checks.${index}.llmModel`);
      this.templates.assertParses(check.rubric, `checks.${index}.rubric`);
    });
    return parsed.checks;
  }

  private async found(tenantId: string, id: string): Promise<DatasetEntity> {
    const dataset = await this.datasets.findById(tenantId, id);
    if (!dataset) throw DatasetErrors.datasetNotFound(id);
    return dataset;
  }
}
