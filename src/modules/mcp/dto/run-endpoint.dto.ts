import { IsObject, IsString, IsUUID } from 'class-validator';
import { ApiAnyJson } from '../../../common/http/api-schema.decorators';
import { Omittable } from '../../../common/http/optional.decorator';

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
}
