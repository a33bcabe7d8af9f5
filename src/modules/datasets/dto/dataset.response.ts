import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger, ApiUuid } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import type { DatasetCheck } from '../dataset-check';
import type { DatasetEntity } from '../dataset.entity';
import { MAX_DATASET_ITEMS } from '../dataset-rules';
import { DatasetCheckSchema } from './dataset-check.schema';

export class DatasetResponse {
  @ApiUuid()
  id: string;
  @ApiUuid()
  endpointId: string;
  name: string;
  description: string;
  @ApiProperty({ type: [DatasetCheckSchema] })
  checks: DatasetCheck[];
  /** Adds 1 with each change of the items (0 before the first). */
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  version: number;
  /** The items at `version`. */
  @ApiInteger({ minimum: 0, maximum: MAX_DATASET_ITEMS })
  itemCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export function toDatasetResponse(dataset: DatasetEntity): DatasetResponse {
  return {
    id: dataset.id,
    endpointId: dataset.endpointId,
    name: dataset.name,
    description: dataset.description,
    checks: dataset.checks,
    version: dataset.version,
    itemCount: dataset.itemCount,
    createdAt: dataset.createdAt,
    updatedAt: dataset.updatedAt,
  };
}
