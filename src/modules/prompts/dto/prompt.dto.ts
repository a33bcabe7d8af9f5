import { OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
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
} from 'class-validator';
import { ApiEnum, ApiInteger } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { Omittable } from '../../../common/http/optional.decorator';
import type { PromptStatus } from '../executable-prompt';
import { PROMPT_NAME_MAX_LENGTH } from '../prompt-naming';

export const PROMPT_STATUSES: PromptStatus[] = ['Draft', 'Live', 'Archived'];

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
  @Max(2)
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
