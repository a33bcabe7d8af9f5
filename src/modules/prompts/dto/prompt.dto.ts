import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ApiEnum, ApiInteger } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { Omittable } from '../../../common/http/optional.decorator';
import type { PromptStatus } from '../executable-prompt';
import { TEMPERATURE_MAX } from '../../models/model-table';
import { PROMPT_NAME_MAX_LENGTH } from '../prompt-naming';

export const PROMPT_STATUSES: PromptStatus[] = ['Draft', 'Live', 'Archived'];

/** The most retries of each model, and the most fallback models, a prompt may have. */
export const MAX_RETRIES = 3;
export const MAX_FALLBACK_MODELS = 3;

/** A model tried when the prompt's own model fails; an omitted setting is the prompt's own. */
export class FallbackModelDto {
  /** A model id from GET /admin/v1/prompts/models. */
  @IsString()
  @MaxLength(200)
  llmModel: string;

  /** 0..2; the prompt's own when omitted. */
  @Omittable()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(TEMPERATURE_MAX)
  temperature?: number;

  /** At least 1; the prompt's own when omitted. */
  @ApiInteger()
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(2_000_000)
  maxTokens?: number;

  /** Provider-specific settings, under the prompt's rules; the prompt's own when omitted. */
  @Omittable()
  @IsObject()
  customParameters?: Record<string, unknown>;
}

export class CreatePromptDto {
  /** The owning endpoint. */
  @IsUUID('all', { message: 'endpointId must be a UUID' })
  endpointId: string;

  /** Unique among the endpoint's prompts that are not archived; its slug selects it in `?prompt=`. */
  @IsString()
  @MinLength(1)
  @MaxLength(PROMPT_NAME_MAX_LENGTH)
  name: string;

  /** Liquid template reading request values as `{{ inputs.<field> }}`; at most 100 KB. */
  @IsString()
  template: string;

  /** A model id from GET /admin/v1/prompts/models. */
  @IsString()
  @MaxLength(200)
  llmModel: string;

  /** 0..2, default 0.7. */
  @Omittable()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(TEMPERATURE_MAX)
  temperature?: number;

  /** At least 1, default 1024. */
  @ApiInteger()
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(2_000_000)
  maxTokens?: number;

  /** Provider-specific settings; on image endpoints they override the output field's exampleValue (size, quality). */
  @Omittable()
  @IsObject()
  customParameters?: Record<string, unknown>;

  /**
   * How many more times each model (the prompt's, then each fallback) is tried after a failure that fails over (a
   * provider 429 or 5xx, a network error, a timeout, an answer off the output fields); 0..3, default 0.
   */
  @ApiInteger()
  @Omittable()
  @IsInt()
  @Min(0)
  @Max(MAX_RETRIES)
  retries?: number;

  /** Models tried in order once the prompt's own model (and its retries) failed over; at most 3, default none. */
  @ApiProperty({ type: [FallbackModelDto], maxItems: MAX_FALLBACK_MODELS })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_FALLBACK_MODELS)
  @IsObject({ each: true, message: 'each value in fallbackModels must be an object' })
  @ValidateNested({ each: true })
  @Type(() => FallbackModelDto)
  fallbackModels?: FallbackModelDto[];

  /** Describes this save; recorded on the version it creates. */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  changeNotes?: string | null;
}

/** Any subset of the create fields except endpointId, plus changeNotes. */
export class UpdatePromptDto extends PartialType(OmitType(CreatePromptDto, ['endpointId'] as const), {
  skipNullProperties: false,
}) {}

export class ListPromptsQuery {
  /** Required: the endpoint whose prompts to list. */
  @IsUUID('all', { message: 'endpointId must be a UUID' })
  endpointId: string;

  /** Archived prompts are listed only with status=Archived. */
  @ApiEnum('PromptStatus', PROMPT_STATUSES)
  @Omittable()
  @IsIn(PROMPT_STATUSES)
  status?: PromptStatus;

  /** Filter by name (case-insensitive substring). */
  @Omittable()
  @IsString()
  @MaxLength(200)
  search?: string;
}

export class ValidateTemplateDto {
  /** The endpoint whose input fields the template may read. */
  @IsUUID('all', { message: 'endpointId must be a UUID' })
  endpointId: string;

  @IsString()
  template: string;
}

export class CompareVersionsQuery {
  /** The version the diff starts from (its removed lines). */
  @ApiInteger()
  @Type(() => Number)
  @IsInt({ message: 'from must be a version number' })
  @Min(1)
  @Max(MAX_INTEGER)
  from: number;

  /** The version the diff leads to (its added lines). */
  @ApiInteger()
  @Type(() => Number)
  @IsInt({ message: 'to must be a version number' })
  @Min(1)
  @Max(MAX_INTEGER)
  to: number;
}
