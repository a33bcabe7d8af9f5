import { ApiProperty } from '@nestjs/swagger';
import { ApiAnyJson, ApiEnum, ApiInteger, ApiUuid } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { rateLimitSettingsOf } from '../../../common/rate-limit/rate-limit-settings';
import { RateLimitSettingsResponse } from '../../../common/rate-limit/rate-limit-settings.dto';
import { type InputField, type OutputField, toInputField, toOutputField, toTrafficSplit } from '../endpoint-definition';
import { type EndpointEntity, type Visibility, VISIBILITIES } from '../endpoint.entity';
import {
  INPUT_DATA_TYPES,
  type InputDataType,
  type InputFieldEntity,
  OUTPUT_DATA_TYPES,
  type OutputDataType,
  type OutputFieldEntity,
} from '../endpoint-field.entity';
import { NESTED_OUTPUT_DATA_TYPES, type NestedOutputDataType } from '../field-types';

export class InputFieldResponse {
  @ApiUuid()
  id: string;
  name: string;
  @ApiEnum('InputDataType', INPUT_DATA_TYPES)
  dataType: InputDataType;
  isRequired: boolean;
  description: string;
  /** string fields: the longest accepted value. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  maxLength: number | null;
  /** integer and number fields: the smallest accepted value. */
  minimum: number | null;
  /** integer and number fields: the largest accepted value. */
  maximum: number | null;
  /** Any JSON value of the field's type, or null. */
  @ApiAnyJson()
  defaultValue: unknown;
}

/** What an output value must be besides its type; null where not set. */
class OutputValueRulesResponse {
  /** string fields: the only values the answer may hold. */
  enum: string[] | null;
  /** integer and number fields: the smallest value the answer may hold. */
  minimum: number | null;
  /** integer and number fields: the largest value the answer may hold. */
  maximum: number | null;
  /** string fields: the longest text the answer may hold. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  maxLength: number | null;
  /** object fields: its properties (the answer holds exactly these); null takes any JSON object. */
  @ApiProperty({ type: () => [NestedOutputFieldResponse], nullable: true })
  properties: NestedOutputFieldResponse[] | null;
  /** array fields: what every element is; null takes any JSON array. */
  @ApiProperty({ type: () => OutputItemResponse, nullable: true })
  items: OutputItemResponse | null;
}

/** A value inside an output field (the elements of an array field). */
export class OutputItemResponse extends OutputValueRulesResponse {
  @ApiEnum('NestedOutputDataType', NESTED_OUTPUT_DATA_TYPES)
  dataType: NestedOutputDataType;
  description: string;
}

/** A property of an object output field. */
export class NestedOutputFieldResponse extends OutputItemResponse {
  name: string;
}

export class OutputFieldResponse extends OutputValueRulesResponse {
  @ApiUuid()
  id: string;
  name: string;
  @ApiEnum('OutputDataType', OUTPUT_DATA_TYPES)
  dataType: OutputDataType;
  description: string;
  exampleValue: string | null;
}

export class TrafficSplitVariantResponse {
  @ApiUuid()
  promptId: string;
  /** Share of the traffic in percent. */
  @ApiInteger({ minimum: 1, maximum: 100 })
  weight: number;
}

export class TrafficSplitResponse {
  variants: TrafficSplitVariantResponse[];
  /** `key`, `none` or `header:<header-name>` (in lower case). */
  stickyBy: string;
}

/** An endpoint's promotion gate. */
export class PromotionGateResponse {
  @ApiUuid()
  datasetId: string;
  @ApiProperty({ minimum: 0, maximum: 1 })
  minPassRate: number;
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  maxRegressions: number;
}

/** An endpoint; its own per-key rate limits are the shared rate-limit settings. */
export class EndpointResponse extends RateLimitSettingsResponse {
  @ApiUuid()
  id: string;
  name: string;
  /** Execution path, `/api/v1/<slug>`. */
  path: string;
  description: string;
  @ApiEnum('Visibility', VISIBILITIES)
  visibility: Visibility;
  category: string | null;
  cacheEnabled: boolean;
  /** Lifetime of cached responses in seconds. */
  @ApiInteger({ minimum: 1, maximum: 2592000 })
  cacheDurationSeconds: number;
  /** Bound on the whole LLM call in seconds. */
  @ApiInteger({ minimum: 1, maximum: 600 })
  timeoutSeconds: number;
  /** The endpoint's default Live prompt; null when none. */
  @ApiUuid()
  defaultPromptId: string | null;
  /** How requests without `?prompt=` are split between Live prompts; null when the default prompt answers them. */
  trafficSplit: TrafficSplitResponse | null;
  /** What promoting one of its prompts needs; null when nothing. */
  @ApiProperty({ type: () => PromotionGateResponse, nullable: true })
  promotionGate: PromotionGateResponse | null;
  inputFields: InputFieldResponse[];
  outputFields: OutputFieldResponse[];
  createdAt: Date;
  updatedAt: Date;
  /** When it was soft-deleted; null while it is not. */
  deletedAt: Date | null;
}

export function toInputFieldResponse(field: InputField): InputFieldResponse {
  return { ...toInputField(field), defaultValue: field.defaultValue ?? null };
}

export function toOutputFieldResponse(field: OutputField): OutputFieldResponse {
  return toOutputField(field);
}

export function toEndpointResponse(
  endpoint: EndpointEntity,
  inputFields: InputFieldEntity[],
  outputFields: OutputFieldEntity[],
): EndpointResponse {
  return {
    id: endpoint.id,
    name: endpoint.name,
    path: endpoint.path,
    description: endpoint.description,
    visibility: endpoint.visibility,
    category: endpoint.category,
    cacheEnabled: endpoint.cacheEnabled,
    cacheDurationSeconds: endpoint.cacheDurationSeconds,
    ...rateLimitSettingsOf(endpoint),
    timeoutSeconds: endpoint.timeoutSeconds,
    defaultPromptId: endpoint.defaultPromptId,
    trafficSplit: toTrafficSplit(endpoint.trafficSplit),
    promotionGate: endpoint.promotionGate
      ? {
          datasetId: endpoint.promotionGate.datasetId,
          minPassRate: endpoint.promotionGate.minPassRate,
          maxRegressions: endpoint.promotionGate.maxRegressions,
        }
      : null,
    inputFields: inputFields.map(toInputFieldResponse),
    outputFields: outputFields.map(toOutputFieldResponse),
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
    deletedAt: endpoint.deletedAt,
  };
}
