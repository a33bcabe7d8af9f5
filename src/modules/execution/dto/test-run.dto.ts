import { ApiProperty, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsInt, IsObject, IsUUID, Max, Min, ValidateNested } from 'class-validator';
import { ApiAnyJson, ApiInteger } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { Omittable } from '../../../common/http/optional.decorator';
import type { Tags } from '../../../common/tags/tags';
import { TagsProperty } from '../../../common/tags/tags.decorator';
import { CreatePromptDto } from '../../prompts/dto/prompt.dto';

/** A prompt as the editor holds it, unsaved: the settings a prompt create takes, under the same rules. */
export class UnsavedPromptDto extends PickType(CreatePromptDto, [
  'template',
  'llmModel',
  'temperature',
  'maxTokens',
  'customParameters',
  'retries',
  'fallbackModels',
] as const) {}

export class TestRunDto {
  /** Any prompt of the endpoint, Draft included. Give either promptId or prompt. */
  @Omittable()
  @IsUUID('all', { message: 'promptId must be a UUID' })
  promptId?: string;

  /** With promptId: the version of that prompt to run (default: its current version). */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  @Omittable()
  @IsInt({ message: 'version must be an integer' })
  @Min(1, { message: 'version must be at least 1' })
  @Max(MAX_INTEGER, { message: `version must not be greater than ${MAX_INTEGER}` })
  version?: number;

  /**
   * An unsaved prompt to run as it stands, validated as a prompt create is (messages name `prompt.<field>`); logged
   * with promptId null. Give either promptId or prompt.
   */
  @ApiProperty({ type: UnsavedPromptDto, required: false })
  @Omittable()
  @IsObject({ message: 'prompt must be an object' })
  @ValidateNested()
  @Type(() => UnsavedPromptDto)
  prompt?: UnsavedPromptDto;

  /**
   * The request body to run with (any JSON value; an object of the endpoint's input fields to pass), checked against
   * the endpoint's input fields like an execution body. Default {}.
   */
  @ApiAnyJson()
  @Allow()
  inputs?: unknown;

  @Omittable()
  @TagsProperty("Tags of the run's log row, as an execution's X-Tags header gives them (values not percent-encoded)")
  tags?: Tags;
}
