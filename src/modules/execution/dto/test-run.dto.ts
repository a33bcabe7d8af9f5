import { Allow, IsUUID } from 'class-validator';

export class TestRunDto {
  /** Any prompt of the endpoint, Draft included. */
  @IsUUID('all', { message: 'promptId must be a UUID' })
  promptId: string;

  /** The request body to run with, checked against the endpoint's input fields like an execution body. Default {}. */
  @Allow()
  inputs?: unknown;
}
