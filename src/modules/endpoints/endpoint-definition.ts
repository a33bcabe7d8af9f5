import type { PromotionGateSettings } from './promotion-gate-settings';
import type { EndpointEntity, Visibility } from './endpoint.entity';
import type { TrafficSplit } from './traffic-split';
import type { InputDataType, InputFieldEntity, OutputDataType, OutputFieldEntity } from './endpoint-field.entity';
import type { OutputValueRules } from './field-types';
import { toNestedField, toOutputItem } from './field-rules';

/** An endpoint as other modules see it (prompts, execution, MCP): its settings, never its row. */
export interface Endpoint {
  id: string;
  name: string;
  path: string;
  description: string;
  visibility: Visibility;
  cacheEnabled: boolean;
  cacheDurationSeconds: number;
  rateLimitPerMinute: number | null;
  rateLimitPerHour: number | null;
  rateLimitPerDay: number | null;
  timeoutSeconds: number;
  defaultPromptId: string | null;
  /** The split of its traffic between Live prompts; null when the default prompt answers. */
  trafficSplit: TrafficSplit | null;
  /** What a promotion of one of its prompts needs; null when none. */
  promotionGate: PromotionGateSettings | null;
}

/** An input field: the rules execution checks inputs against and the names the template validator knows. */
export interface InputField {
  id: string;
  name: string;
  dataType: InputDataType;
  isRequired: boolean;
  description: string;
  maxLength: number | null;
  minimum: number | null;
  maximum: number | null;
  defaultValue: unknown;
}

/** An output field: what execution asks the model for and checks its answer against. */
export interface OutputField extends OutputValueRules {
  id: string;
  name: string;
  dataType: OutputDataType;
  description: string;
  exampleValue: string | null;
}

/** The settings a new input field takes when they are not given. */
export const INPUT_FIELD_DEFAULTS: Readonly<Omit<InputField, 'id' | 'name' | 'dataType'>> = Object.freeze({
  isRequired: false,
  description: '',
  maxLength: null,
  minimum: null,
  maximum: null,
  defaultValue: null,
});

/** The settings a new output field takes when they are not given. */
export const OUTPUT_FIELD_DEFAULTS: Readonly<Omit<OutputField, 'id' | 'name' | 'dataType'>> = Object.freeze({
  description: '',
  exampleValue: null,
  enum: null,
  minimum: null,
  maximum: null,
  maxLength: null,
  properties: null,
  items: null,
});

/** An endpoint with its field definitions: what execution and the prompts validator read. */
export interface EndpointDefinition {
  endpoint: Endpoint;
  inputFields: InputField[];
  outputFields: OutputField[];
}

export function toEndpoint(entity: EndpointEntity): Endpoint {
  return {
    id: entity.id,
    name: entity.name,
    path: entity.path,
    description: entity.description,
    visibility: entity.visibility,
    cacheEnabled: entity.cacheEnabled,
    cacheDurationSeconds: entity.cacheDurationSeconds,
    rateLimitPerMinute: entity.rateLimitPerMinute,
    rateLimitPerHour: entity.rateLimitPerHour,
    rateLimitPerDay: entity.rateLimitPerDay,
    timeoutSeconds: entity.timeoutSeconds,
    defaultPromptId: entity.defaultPromptId,
    trafficSplit: toTrafficSplit(entity.trafficSplit),
    promotionGate: entity.promotionGate ? { ...entity.promotionGate } : null,
  };
}

/** The read model of an input field (an entity, or a read model again): its fields listed, so no column leaks. */
export function toInputField(entity: InputField): InputField {
  return {
    id: entity.id,
    name: entity.name,
    dataType: entity.dataType,
    isRequired: entity.isRequired,
    description: entity.description,
    maxLength: entity.maxLength,
    minimum: entity.minimum,
    maximum: entity.maximum,
    defaultValue: entity.defaultValue,
  };
}

/** The read model of an output field (an entity, or a read model again): its fields listed, so no column leaks. */
export function toOutputField(entity: OutputField): OutputField {
  return {
    id: entity.id,
    name: entity.name,
    dataType: entity.dataType,
    description: entity.description,
    exampleValue: entity.exampleValue,
    enum: entity.enum ? [...entity.enum] : null,
    minimum: entity.minimum,
    maximum: entity.maximum,
    maxLength: entity.maxLength,
    // Copied attribute by attribute, so a read model shares no object with the row.
    properties: entity.properties ? entity.properties.map(toNestedField) : null,
    items: entity.items ? toOutputItem(entity.items) : null,
  };
}

export function toEndpointDefinition(
  endpoint: EndpointEntity,
  inputFields: InputFieldEntity[],
  outputFields: OutputFieldEntity[],
): EndpointDefinition {
  return {
    endpoint: toEndpoint(endpoint),
    inputFields: inputFields.map(toInputField),
    outputFields: outputFields.map(toOutputField),
  };
}

/** A copy of the split, its fields listed, so a read model never shares the row's objects. */
export function toTrafficSplit(split: TrafficSplit | null): TrafficSplit | null {
  if (!split) return null;
  return { variants: split.variants.map(({ promptId, weight }) => ({ promptId, weight })), stickyBy: split.stickyBy };
}
