import { Inject, Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { pageWindow } from '../../common/http/paging';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { TransactionHost } from '../../database/transactions';
import type { InputField } from '../endpoints/endpoint-definition';
import { EndpointsService } from '../endpoints/endpoints.service';
import { validateInputs } from '../execution/input-validation';
import { ExecutionLogReadsService } from '../logs/execution-log-reads.service';
import {
  capacityProblem,
  ITEM_PAGE_SIZE,
  type ItemContent,
  itemBytes,
  logCopyProblem,
  MAX_ITEM_BYTES,
  unstorablePart,
} from './dataset-rules';
import type { DatasetEntity } from './dataset.entity';
import { DatasetItemsRepository } from './dataset-items.repository';
import { DatasetsRepository } from './datasets.repository';
import { DatasetErrors } from './datasets.errors';
import type { AddDatasetItemsDto, AddItemsFromLogsDto, ListDatasetItemsQuery } from './dto/dataset-item.dto';
import {
  type AddedDatasetItemsResponse,
  type DatasetItemPageResponse,
  toDatasetItemResponse,
} from './dto/dataset-item.response';

/**
 * A dataset's items: added (given, or copied from execution logs) and deleted, each change one new version of the
 * dataset, made under the dataset's row lock so that changes take turns, each gets its own version and the item
 * bound holds.
 */
@Injectable()
export class DatasetItemsService {
  constructor(
    private readonly txHost: TransactionHost,
    private readonly datasets: DatasetsRepository,
    private readonly items: DatasetItemsRepository,
    private readonly endpoints: EndpointsService,
    private readonly logs: ExecutionLogReadsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A page of the items at the dataset's current version, in the order they were added. */
  async list(tenantId: string, datasetId: string, query: ListDatasetItemsQuery): Promise<DatasetItemPageResponse> {
    const dataset = await this.found(tenantId, datasetId);
    const { page, pageSize, offset } = pageWindow(query, ITEM_PAGE_SIZE.default);
    const rows = await this.items.pageAt(tenantId, datasetId, dataset.version, offset, pageSize);
    return {
      items: rows.map(toDatasetItemResponse),
      page,
      pageSize,
      total: dataset.itemCount,
      totalIsExact: true,
    };
  }

  /**
   * Adds the items, all or none, as the next version. Each item's inputs are checked as an execution body of the
   * endpoint (a 400 naming `items.<n>.inputs.<field>` with the execution's message); an item is at most 64 KiB as JSON
   * (400 naming `items.<n>`); the dataset holds at most MAX_DATASET_ITEMS (409).
   */
  async add(tenantId: string, datasetId: string, dto: AddDatasetItemsDto): Promise<AddedDatasetItemsResponse> {
    const inputFields = await this.inputFieldsOf(tenantId, datasetId);
    const contents = dto.items.map((item, index): ItemContent => {
      const at = `items.${index}`;
      this.checkInputs(item.inputs, inputFields, `${at}.inputs`);
      return checkedSize(
        { inputs: item.inputs, expectedOutput: item.expectedOutput ?? null, tags: item.tags ?? {} },
        at,
      );
    });
    return this.commit(tenantId, datasetId, contents);
  }

  /**
   * Copies executions of the dataset's endpoint, in the order given, as the next version: each one's inputs, and its
   * output as `expectedOutput` when `withOutput` (else none). A log id the tenant has no row of is a 404 naming
   * `logIds.<n>`; one of another endpoint, whose inputs (or wanted output) the log cut, or that failed when its output
   * is wanted, a 400 naming it; its inputs are checked as an execution body of the endpoint as it is now.
   */
  async addFromLogs(tenantId: string, datasetId: string, dto: AddItemsFromLogsDto): Promise<AddedDatasetItemsResponse> {
    const dataset = await this.found(tenantId, datasetId);
    const inputFields = (await this.endpoints.getDefinition(tenantId, dataset.endpointId)).inputFields;
    const withOutput = dto.withOutput ?? false;
    const logs = new Map((await this.logs.executionsForCopy(tenantId, dto.logIds)).map((log) => [log.id, log]));
    const contents = dto.logIds.map((logId, index): ItemContent => {
      const at = `logIds.${index}`;
      const log = logs.get(logId);
      if (!log) throw DatasetErrors.logNotFound(at, logId);
      const problem = logCopyProblem(log, dataset.endpointId, withOutput);
      if (problem) throw DatasetErrors.logNotCopyable(at, problem);
      const inputs = log.inputs as Record<string, unknown>;
      this.checkInputs(inputs, inputFields, `${at}.inputs`);
      return checkedSize({ inputs, expectedOutput: withOutput ? (log.output ?? null) : null, tags: {} }, at);
    });
    return this.commit(tenantId, datasetId, contents);
  }

  /** Removes the item from the next version on (earlier versions keep it); 404 when it is not in the current one. */
  async delete(tenantId: string, datasetId: string, itemId: string): Promise<void> {
    await this.txHost.withTransaction(async () => {
      const dataset = await this.lockedForChange(tenantId, datasetId);
      const item = await this.items.findAt(tenantId, datasetId, itemId, dataset.version);
      if (!item) throw DatasetErrors.itemNotFound(itemId);
      const version = dataset.version + 1;
      await this.items.removeFrom(tenantId, itemId, version);
      await this.datasets.setVersion(tenantId, datasetId, version, dataset.itemCount - 1);
    });
  }

  /** Adds checked items as the next version, under the dataset's row lock (the bound is checked under it too). */
  private commit(tenantId: string, datasetId: string, contents: ItemContent[]): Promise<AddedDatasetItemsResponse> {
    return this.txHost.withTransaction(async () => {
      const dataset = await this.lockedForChange(tenantId, datasetId);
      const problem = capacityProblem(dataset.itemCount, contents.length);
      if (problem) throw DatasetErrors.tooManyItems(problem);
      const version = dataset.version + 1;
      const itemIds = await this.items.insert(tenantId, datasetId, version, contents);
      const itemCount = dataset.itemCount + contents.length;
      await this.datasets.setVersion(tenantId, datasetId, version, itemCount);
      return { itemIds, version, itemCount };
    });
  }

  /** The input fields of the dataset's endpoint (404 when the dataset is not the tenant's or its endpoint is deleted). */
  private async inputFieldsOf(tenantId: string, datasetId: string): Promise<InputField[]> {
    const dataset = await this.found(tenantId, datasetId);
    return (await this.endpoints.getDefinition(tenantId, dataset.endpointId)).inputFields;
  }

  /** Checks inputs as an execution body; a failure names `<at>.<field>` with the execution's message. */
  private checkInputs(inputs: Record<string, unknown>, fields: InputField[], at: string): void {
    try {
      validateInputs(inputs, fields, this.config.maxImageBytes);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const field = error.field ? `${at}.${error.field}` : at;
      throw DatasetErrors.badItem(field, error.message);
    }
  }

  private async lockedForChange(tenantId: string, datasetId: string): Promise<DatasetEntity> {
    const dataset = await this.datasets.findByIdForChange(tenantId, datasetId);
    if (!dataset) throw DatasetErrors.datasetNotFound(datasetId);
    return dataset;
  }

  private async found(tenantId: string, id: string): Promise<DatasetEntity> {
    const dataset = await this.datasets.findById(tenantId, id);
    if (!dataset) throw DatasetErrors.datasetNotFound(id);
    return dataset;
  }
}

/**
 * The item, or a 400 naming `at` when its JSON text is over MAX_ITEM_BYTES, or naming its part that holds a character
 * that cannot be stored.
 */
function checkedSize(item: ItemContent, at: string): ItemContent {
  const bytes = itemBytes(item);
  if (bytes > MAX_ITEM_BYTES) throw DatasetErrors.itemTooLarge(at, bytes, MAX_ITEM_BYTES);
  const part = unstorablePart(item);
  if (part) throw DatasetErrors.unstorableCharacter(`${at}.${part}`);
  return item;
}
