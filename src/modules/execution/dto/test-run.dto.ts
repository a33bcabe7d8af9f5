import { Allow, IsUUID } from 'class-validator';
import { ApiAnyJson } from '../../../common/http/api-schema.decorators';

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
}
