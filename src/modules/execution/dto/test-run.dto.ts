import { Allow, IsUUID } from 'class-validator';
import { ApiAnyJson } from '../../../common/http/api-schema.decorators';
import { Omittable } from '../../../common/http/optional.decorator';
import type { Tags } from '../../../common/tags/tags';
import { TagsProperty } from '../../../common/tags/tags.decorator';

export class TestRunDto {
  /** Any prompt of the endpoint, Draft included. */
  @IsUUID('all', { message: 'promptId must be a UUID' })
  promptId: string;

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
