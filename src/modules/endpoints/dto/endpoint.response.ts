import type { EndpointEntity, Visibility } from '../endpoint.entity';
import type { InputDataType, InputFieldEntity, OutputDataType, OutputFieldEntity } from '../endpoint-field.entity';

export class InputFieldResponse {
  id: string;
  name: string;
  dataType: InputDataType;
  isRequired: boolean;
  description: string;
  maxLength: number | null;
  minimum: number | null;
  maximum: number | null;
  /** Any JSON value of the field's type, or null. */
  defaultValue: unknown;
}

export class OutputFieldResponse {
  id: string;
  name: string;
  dataType: OutputDataType;
  description: string;
  exampleValue: string | null;
}

export class EndpointResponse {
  id: string;
  name: string;
  path: string;
  description: string;
  visibility: Visibility;
  category: string | null;
  cacheEnabled: boolean;
  cacheDurationSeconds: number;
  rateLimitPerMinute: number | null;
  rateLimitPerHour: number | null;
  rateLimitPerDay: number | null;
  timeoutSeconds: number;
  /** The endpoint's default Live prompt; null when none. */
  defaultPromptId: string | null;
  inputFields: InputFieldResponse[];
  outputFields: OutputFieldResponse[];
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export function toInputFieldResponse(field: InputFieldEntity): InputFieldResponse {
  return {
    id: field.id,
    name: field.name,
    dataType: field.dataType,
    isRequired: field.isRequired,
    description: field.description,
    maxLength: field.maxLength,
    minimum: field.minimum,
    maximum: field.maximum,
    defaultValue: field.defaultValue ?? null,
  };
}

export function toOutputFieldResponse(field: OutputFieldEntity): OutputFieldResponse {
  return {
    id: field.id,
    name: field.name,
    dataType: field.dataType,
    description: field.description,
    exampleValue: field.exampleValue,
  };
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
    rateLimitPerMinute: endpoint.rateLimitPerMinute,
    rateLimitPerHour: endpoint.rateLimitPerHour,
    rateLimitPerDay: endpoint.rateLimitPerDay,
    timeoutSeconds: endpoint.timeoutSeconds,
    defaultPromptId: endpoint.defaultPromptId,
    inputFields: inputFields.map(toInputFieldResponse),
    outputFields: outputFields.map(toOutputFieldResponse),
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
    deletedAt: endpoint.deletedAt,
  };
}
