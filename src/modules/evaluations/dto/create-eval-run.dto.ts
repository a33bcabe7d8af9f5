import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsBoolean, IsInt, IsUUID, Max, Min } from 'class-validator';
import { ApiInteger } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { Omittable } from '../../../common/http/optional.decorator';

/** Body of POST /admin/v1/datasets/{id}/runs. */
export class CreateEvalRunDto {
  /** The candidate: a prompt of the dataset's endpoint, in any status but Archived. */
  @IsUUID('all')
  promptId: string;

  /** The candidate's version; default its current version. */
  @ApiInteger()
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER)
  versionNumber?: number;

  /**
   * What the candidate is compared with: `default` (the endpoint's default prompt at its current version; none when
   * the endpoint has no default), `none`, or `{promptId, versionNumber}`. Default `default`.
   */
  @ApiProperty({
    required: false,
    oneOf: [
      { type: 'string', enum: ['default', 'none'] },
      {
        type: 'object',
        properties: {
          promptId: { type: 'string', format: 'uuid' },
          versionNumber: { type: 'integer', minimum: 1, maximum: MAX_INTEGER },
        },
        required: ['promptId', 'versionNumber'],
        additionalProperties: false,
      },
    ],
  })
  @Omittable()
  @Allow()
  baseline?: unknown;

  /** Calls of the run in flight at once, 1–10. Default 4. */
  @ApiInteger()
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(10)
  concurrency?: number;

  /** Times each item runs on each side, 1–5; with more than one, an item passes when most of them pass. Default 1. */
  @ApiInteger()
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(5)
  repeats?: number;

  /** Calls the models again even for answers the store already keeps. Default false. */
  @Omittable()
  @IsBoolean()
  fresh?: boolean;
}
