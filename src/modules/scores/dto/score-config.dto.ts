import { ApiProperty, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ApiEnum } from '../../../common/http/api-schema.decorators';
import { Omittable } from '../../../common/http/optional.decorator';
import {
  MAX_CATEGORIES,
  MAX_CATEGORY_LENGTH,
  MAX_SCORE_BOUND,
  MAX_SCORE_DESCRIPTION_LENGTH,
  SCORE_NAME_PATTERN,
} from '../score-config-rules';
import { SCORE_DATA_TYPES, type ScoreDataType } from '../score-types';

const FINITE = { allowNaN: false, allowInfinity: false };

/** A score config: what may be scored under `name`, and its values. */
export class CreateScoreConfigDto {
  /** Unique in the tenant: a lowercase letter, then up to 63 lowercase letters, digits, `_`, `.` or `-`. */
  @ApiProperty({ pattern: SCORE_NAME_PATTERN.source, maxLength: 64 })
  @IsString()
  @Matches(SCORE_NAME_PATTERN, {
    message: 'name must be a lowercase letter followed by up to 63 lowercase letters, digits, _, . or -',
  })
  name: string;

  /** `boolean` (true or false), `numeric` (a number from `minimum` to `maximum`) or `categorical` (one of `categories`). */
  @ApiEnum('ScoreDataType', SCORE_DATA_TYPES)
  @IsIn(SCORE_DATA_TYPES)
  dataType: ScoreDataType;

  // An explicit schema: with @Min and @Max on them, the metadata the build generates leaves these out of the document.
  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    minimum: -MAX_SCORE_BOUND,
    maximum: MAX_SCORE_BOUND,
    description: 'Numeric scores: the smallest value (required for them, absent or null otherwise).',
  })
  @IsOptional()
  @IsNumber(FINITE, { message: 'minimum must be a finite number' })
  @Min(-MAX_SCORE_BOUND, { message: `minimum must be from -${MAX_SCORE_BOUND} to ${MAX_SCORE_BOUND}` })
  @Max(MAX_SCORE_BOUND, { message: `minimum must be from -${MAX_SCORE_BOUND} to ${MAX_SCORE_BOUND}` })
  minimum?: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    required: false,
    minimum: -MAX_SCORE_BOUND,
    maximum: MAX_SCORE_BOUND,
    description:
      'Numeric scores: the largest value, greater than `minimum` (required for them, absent or null otherwise).',
  })
  @IsOptional()
  @IsNumber(FINITE, { message: 'maximum must be a finite number' })
  @Min(-MAX_SCORE_BOUND, { message: `maximum must be from -${MAX_SCORE_BOUND} to ${MAX_SCORE_BOUND}` })
  @Max(MAX_SCORE_BOUND, { message: `maximum must be from -${MAX_SCORE_BOUND} to ${MAX_SCORE_BOUND}` })
  maximum?: number | null;

  /** Categorical scores: 2 to 20 distinct values of 1 to 64 characters (required for them, absent or null otherwise). */
  @ApiProperty({ type: [String], maxItems: MAX_CATEGORIES, nullable: true, required: false })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CATEGORIES, { message: `categories must hold 2 to ${MAX_CATEGORIES} values` })
  @IsString({ each: true })
  @MaxLength(MAX_CATEGORY_LENGTH, {
    each: true,
    message: `each category must be at most ${MAX_CATEGORY_LENGTH} characters`,
  })
  categories?: string[] | null;

  /** Free text, at most 1000 characters. */
  @Omittable()
  @IsString()
  @MaxLength(MAX_SCORE_DESCRIPTION_LENGTH)
  description?: string;
}

/**
 * Any subset of the create fields. Once a score uses the config, `name` and `dataType` cannot change (409). Bounds and
 * categories not given are kept when the type stays the same.
 */
export class UpdateScoreConfigDto extends PartialType(CreateScoreConfigDto, { skipNullProperties: false }) {}
