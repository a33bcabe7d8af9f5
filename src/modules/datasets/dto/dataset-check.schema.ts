import { ApiProperty } from '@nestjs/swagger';
import { ApiEnum } from '../../../common/http/api-schema.decorators';
import { DATASET_CHECK_TYPES, type DatasetCheckType, MAX_REGEX_LENGTH } from '../dataset-check';
import {
  MAX_CHECK_COST_USD,
  MAX_CHECK_LATENCY_MS,
  MAX_CHECK_MODEL_LENGTH,
  MAX_CHECK_PATH_LENGTH,
  MAX_CHECK_TEXT_LENGTH,
  MAX_RUBRIC_LENGTH,
} from '../dataset-check-rules';

/**
 * One check run on every item's output: its `type` and that type's parameters, no others. `schema`: the output
 * matches the endpoint's output fields. `equals`: the output equals `expectedOutput`. `field_equals`: the field at
 * `path` (dot-separated) equals the same field of `expectedOutput`. `contains` / `not_contains`: the output's JSON text
 * holds (or does not hold) `value`. `regex`: the output's JSON text matches `pattern`. `max_latency_ms` /
 * `max_cost_usd`: the call took at most `value` milliseconds or dollars. `judge`: `llmModel` reads `rubric` (a Liquid
 * template over `inputs`, `output` and `expected`) and passes the output when its score is at least `threshold`.
 */
export class DatasetCheckSchema {
  @ApiEnum('DatasetCheckType', DATASET_CHECK_TYPES)
  type: DatasetCheckType;

  @ApiProperty({ required: false, minLength: 1, maxLength: MAX_CHECK_PATH_LENGTH, description: 'field_equals' })
  path?: string;

  @ApiProperty({
    required: false,
    oneOf: [
      { type: 'string', minLength: 1, maxLength: MAX_CHECK_TEXT_LENGTH },
      {
        type: 'number',
        exclusiveMinimum: true,
        minimum: 0,
        maximum: Math.max(MAX_CHECK_COST_USD, MAX_CHECK_LATENCY_MS),
      },
    ],
    description:
      `contains and not_contains: the text (1 to ${MAX_CHECK_TEXT_LENGTH} characters); max_latency_ms: an integer from ` +
      `1 to ${MAX_CHECK_LATENCY_MS}; max_cost_usd: dollars, above 0 and at most ${MAX_CHECK_COST_USD}.`,
  })
  value?: string | number;

  @ApiProperty({ required: false, description: 'contains and not_contains: whether case matters (default true)' })
  caseSensitive?: boolean;

  @ApiProperty({
    required: false,
    minLength: 1,
    maxLength: MAX_REGEX_LENGTH,
    description: 'regex: a regular expression (JavaScript syntax, Unicode mode)',
  })
  pattern?: string;

  @ApiProperty({ required: false, maxLength: MAX_CHECK_MODEL_LENGTH, description: 'judge: a model of the model list' })
  llmModel?: string;

  @ApiProperty({ required: false, minLength: 1, maxLength: MAX_RUBRIC_LENGTH, description: 'judge: a Liquid template' })
  rubric?: string;

  @ApiProperty({
    required: false,
    minimum: 0,
    maximum: 1,
    description: 'judge: the lowest score that passes (default 0.5)',
  })
  threshold?: number;
}
