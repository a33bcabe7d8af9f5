import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsUUID,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ApiEnum, ApiInteger } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { Omittable } from '../../../common/http/optional.decorator';
import { ListPageQuery } from '../../../common/http/paging';
import { RateLimitSettingsDto } from '../../../common/rate-limit/rate-limit-settings.dto';
import { type Visibility, VISIBILITIES } from '../endpoint.entity';
import { TrafficSplitDto } from './traffic-split.dto';

/** An endpoint's promotion gate. */
export class PromotionGateDto {
  /** A dataset of the endpoint. */
  @IsUUID('all')
  datasetId: string;

  /** The least share of items the run must pass, 0–1. Default 1. */
  @Omittable()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  minPassRate?: number;

  /** The most regressions the run may have. Default 0. */
  @ApiInteger()
  @Omittable()
  @IsInt()
  @Min(0)
  @Max(MAX_INTEGER)
  maxRegressions?: number;
}

export const PATH_PATTERN = /^\/api\/v1\/[a-z0-9][a-z0-9-_/]*$/;

/** The endpoint's settings; its own per-key rate limits are the shared rate-limit settings. */
export class CreateEndpointDto extends RateLimitSettingsDto {
  /** Display name. */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** Execution path, `/api/v1/<slug>`: lower-case letters, digits, `-`, `_` and `/`. */
  @ApiProperty({ pattern: PATH_PATTERN.source })
  @IsString()
  @MaxLength(300)
  @Matches(PATH_PATTERN, { message: 'path must match /api/v1/<slug> (lower-case letters, digits, -, _ and /)' })
  path: string;

  /** Free text. */
  @Omittable()
  @IsString()
  @MaxLength(5000)
  description?: string;

  /** `Public` (default) or `Private` (admin keys only). */
  @ApiEnum('Visibility', VISIBILITIES)
  @Omittable()
  @IsIn(VISIBILITIES)
  visibility?: Visibility;

  /** Dashboard category; null for none. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string | null;

  /** Serve identical requests from the cache. Default false. */
  @Omittable()
  @IsBoolean()
  cacheEnabled?: boolean;

  /** Lifetime of cached responses in seconds, 1..2592000. Default 300. */
  @ApiInteger()
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(2592000)
  cacheDurationSeconds?: number;

  /** Bound on the whole LLM call in seconds, 1..600. Default 60. */
  @ApiInteger()
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(600)
  timeoutSeconds?: number;
}

/** Any subset of the create fields, and the traffic split. */
export class UpdateEndpointDto extends PartialType(CreateEndpointDto, { skipNullProperties: false }) {
  /**
   * Splits the traffic of requests without `?prompt=` between 2 to 5 Live prompts of the endpoint, by weight; null
   * removes the split (the default prompt answers again).
   */
  @ApiProperty({ type: () => TrafficSplitDto, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => TrafficSplitDto)
  trafficSplit?: TrafficSplitDto | null;

  /**
   * What promoting one of its prompts needs: a completed evaluation run of the dataset meeting both thresholds (see
   * POST /admin/v1/prompts/{id}/promote); null removes the gate.
   */
  @ApiProperty({ type: () => PromotionGateDto, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => PromotionGateDto)
  promotionGate?: PromotionGateDto | null;
}

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** Query of GET /admin/v1/endpoints: a page of the tenant's endpoints, oldest first, filtered. */
export class ListEndpointsQuery extends ListPageQuery {
  /** Filter by name (case-insensitive substring). */
  @Omittable()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiEnum('Visibility', VISIBILITIES)
  @Omittable()
  @IsIn(VISIBILITIES)
  visibility?: Visibility;

  /** Filter by category (exact match). */
  @Omittable()
  @IsString()
  @MaxLength(100)
  category?: string;

  /** true lists the soft-deleted endpoints instead. */
  @Omittable()
  @Transform(toBoolean)
  @IsBoolean({ message: 'deleted must be true or false' })
  deleted?: boolean;
}

export class DeleteEndpointQuery {
  /** true removes the endpoint with its prompts, versions, logs and cached responses, for good. */
  @Omittable()
  @Transform(toBoolean)
  @IsBoolean({ message: 'permanent must be true or false' })
  permanent?: boolean;
}
