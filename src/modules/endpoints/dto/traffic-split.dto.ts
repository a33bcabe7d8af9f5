import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { ApiInteger } from '../../../common/http/api-schema.decorators';
import { SPLIT_TOTAL_WEIGHT, SPLIT_VARIANTS, STICKY_BY_PATTERN, STICKY_HEADER_MAX_LENGTH } from '../traffic-split';

export class TrafficSplitVariantDto {
  /** A Live prompt of this endpoint. */
  @IsUUID('all')
  promptId: string;

  /** Its share of the traffic in percent, 1..100; the weights sum to 100. */
  @ApiInteger({ minimum: 1, maximum: SPLIT_TOTAL_WEIGHT })
  @IsInt()
  @Min(1)
  @Max(SPLIT_TOTAL_WEIGHT)
  weight: number;
}

/** How an endpoint's traffic is split between 2 to 5 of its Live prompts. */
export class TrafficSplitDto {
  /** 2 to 5 Live prompts of the endpoint, each once, with weights summing to 100. */
  @ApiProperty({ type: () => [TrafficSplitVariantDto] })
  @IsArray()
  @ArrayMinSize(SPLIT_VARIANTS.min)
  @ArrayMaxSize(SPLIT_VARIANTS.max)
  @ValidateNested({ each: true })
  @Type(() => TrafficSplitVariantDto)
  variants: TrafficSplitVariantDto[];

  /**
   * What keeps a caller on one prompt: `key` (the calling key), `header:<name>` (that request header's value; a request
   * without it is assigned at random by the weights) or `none` (every request at random by the weights).
   */
  @ApiProperty({ pattern: STICKY_BY_PATTERN.source, maxLength: 'header:'.length + STICKY_HEADER_MAX_LENGTH })
  @IsString()
  @Matches(STICKY_BY_PATTERN, {
    message: `stickyBy must be key, none or header:<header-name> (a header name of at most ${STICKY_HEADER_MAX_LENGTH} characters)`,
  })
  stickyBy: string;
}
