import { ApiProperty } from '@nestjs/swagger';
import { ApiAnyJson, ApiInteger, ApiUuid } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import type { DatasetItemEntity } from '../dataset-item.entity';
import { ITEM_PAGE_SIZE, MAX_DATASET_ITEMS } from '../dataset-rules';

export class DatasetItemResponse {
  @ApiUuid()
  id: string;
  @ApiUuid()
  datasetId: string;
  @ApiProperty({ type: 'object', additionalProperties: true })
  inputs: Record<string, unknown>;
  /** Any JSON value; null when the item has none. */
  @ApiAnyJson()
  expectedOutput: unknown;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  tags: Record<string, string>;
  /** The dataset version that added the item. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  addedInVersion: number;
  createdAt: Date;
}

/** A page of items, with the meta of execution log pages. */
export class DatasetItemPageResponse {
  items: DatasetItemResponse[];
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  page: number;
  @ApiInteger({ minimum: 1, maximum: ITEM_PAGE_SIZE.max })
  pageSize: number;
  /** The items at the dataset's current version. */
  @ApiInteger({ minimum: 0, maximum: MAX_DATASET_ITEMS })
  total: number;
  /** Always true: a dataset's items are counted exactly. */
  totalIsExact: boolean;
}

/** What an addition answers: the ids of the items added, in order, and the dataset's version and item count after it. */
export class AddedDatasetItemsResponse {
  @ApiUuid()
  itemIds: string[];
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  version: number;
  @ApiInteger({ minimum: 0, maximum: MAX_DATASET_ITEMS })
  itemCount: number;
}

export function toDatasetItemResponse(item: DatasetItemEntity): DatasetItemResponse {
  return {
    id: item.id,
    datasetId: item.datasetId,
    inputs: item.inputs,
    expectedOutput: item.expectedOutput ?? null,
    tags: item.tags,
    addedInVersion: item.addedInVersion,
    createdAt: item.createdAt,
  };
}
