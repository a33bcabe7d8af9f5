import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsArray, IsString, Length, MaxLength } from 'class-validator';
import { Omittable } from '../../../common/http/optional.decorator';
import { MAX_CHECKS } from '../dataset-check';
import { MAX_DATASET_DESCRIPTION_LENGTH, MAX_DATASET_NAME_LENGTH } from '../dataset-rules';
import { DatasetCheckSchema } from './dataset-check.schema';

/** A dataset of the endpoint named in the path. */
export class CreateDatasetDto {
  /** Unique in the endpoint, 1 to 100 characters. */
  @IsString()
  @Length(1, MAX_DATASET_NAME_LENGTH)
  name: string;

  /** Free text, at most 2000 characters. */
  @Omittable()
  @IsString()
  @MaxLength(MAX_DATASET_DESCRIPTION_LENGTH)
  description?: string;

  /** At most 20 checks, run on every item's output; none by default. Each is checked against its type's rules. */
  @ApiProperty({ type: [DatasetCheckSchema], maxItems: MAX_CHECKS, required: false })
  @Omittable()
  @IsArray()
  checks?: unknown[];
}

/** Any subset of the create fields; the checks given replace all of the dataset's. */
export class UpdateDatasetDto extends PartialType(CreateDatasetDto) {}
