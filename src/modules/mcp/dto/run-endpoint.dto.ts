import { IsObject, IsString, IsUUID } from 'class-validator';
import { ApiAnyJson } from '../../../common/http/api-schema.decorators';
import { Omittable } from '../../../common/http/optional.decorator';
import type { Tags } from '../../../common/tags/tags';
import { TagsProperty } from '../../../common/tags/tags.decorator';

/** Arguments of run_endpoint: what a REST execution takes as its path, body and `?prompt=`. */
export class RunEndpointDto {
  /** Endpoint id (uuid). */
  @IsUUID('all', { message: 'endpointId must be a UUID' })
  endpointId: string;

  /** The JSON body callers would send, keyed by input field name. */
  @ApiAnyJson()
  @IsObject()
  inputs: Record<string, unknown>;

  /** Name or slug of a Live prompt to use instead of the default. */
  @Omittable()
  @IsString()
  prompt?: string;

  @Omittable()
  @TagsProperty(
    "Tags of the execution's log row, as a REST caller's X-Tags header gives them (values not percent-encoded)",
  )
  tags?: Tags;
}
