import { exceedsJsonDepth } from '../../common/http/json-depth';
import type { OutputDataType, OutputItemDefinition } from '../endpoints/field-types';
import { dataTypeName, matchesDataType } from '../endpoints/field-data-type';
import type { JsonSchemaObject } from '../llm/llm-client';

/** What the schema builder needs of an output field row; constraints it does not have are none. */
export interface OutputFieldRule extends Partial<Omit<OutputItemDefinition, 'dataType' | 'description'>> {
  name: string;
  dataType: OutputDataType;
  description: string;
  exampleValue: string | null;
}

/** A definition of values, at the top of the answer or nested in it: its type and what else they must be. */
type ValueRule = Omit<OutputFieldRule, 'name' | 'exampleValue' | 'dataType'> & {
  dataType: Exclude<OutputDataType, 'image'>;
};

export interface OutputSchema {
  jsonSchema: JsonSchemaObject;
  /**
   * Whether the provider may enforce it strictly (OpenAI strict mode): only when every field has a fixed shape.
   * Free-form `object` and `array` fields cannot be described in strict mode.
   */
  strict: boolean;
}

/**
 * The JSON schema requested from the provider for an endpoint with output fields: an object with
 * exactly those properties, all required, in field order, each with its constraints (`enum`, `minimum`, `maximum`,
 * `maxLength`) and nested definitions (an object's `properties`, likewise all required and no others; an array's
 * `items`). Image fields are not part of it (they make the endpoint an image endpoint instead).
 */
export function outputSchemaOf(fields: OutputFieldRule[]): OutputSchema | null {
  const structured = fields.filter((field): field is OutputFieldRule & ValueRule => field.dataType !== 'image');
  if (structured.length === 0) return null;
  return {
    jsonSchema: objectSchemaOf(structured),
    strict: structured.every(isStrictShape),
  };
}

function objectSchemaOf(fields: (ValueRule & { name: string })[]): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  for (const field of fields) properties[field.name] = valueSchemaOf(field);
  return { type: 'object', properties, required: fields.map((field) => field.name), additionalProperties: false };
}

function valueSchemaOf(rule: ValueRule): JsonSchemaObject {
  const schema: JsonSchemaObject =
    rule.dataType === 'object' && rule.properties
      ? objectSchemaOf(rule.properties)
      : rule.dataType === 'array' && rule.items
        ? { type: 'array', items: valueSchemaOf(rule.items) }
        : { type: rule.dataType };
  if (rule.description) schema.description = rule.description;
  if (rule.enum) schema.enum = [...rule.enum];
  if (rule.minimum != null) schema.minimum = rule.minimum;
  if (rule.maximum != null) schema.maximum = rule.maximum;
  if (rule.maxLength != null) schema.maxLength = rule.maxLength;
  return schema;
}

/**
 * Whether a provider may enforce the schema of a value strictly (OpenAI strict mode): an object or array only with its
 * properties or items described, and no `maxLength`, which strict mode does not take (the answer is checked against
 * it all the same).
 */
function isStrictShape(rule: ValueRule): boolean {
  if (rule.maxLength != null) return false;
  if (rule.dataType === 'object') return rule.properties != null && rule.properties.every(isStrictShape);
  if (rule.dataType === 'array') return rule.items != null && isStrictShape(rule.items);
  return true;
}

/** The answer of an image endpoint (which replaces the output fields), as a JSON schema. */
export const IMAGE_BODY_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    generatedImages: {
      type: 'array',
      description: 'The generated images.',
      items: {
        type: 'object',
        properties: {
          base64Data: { type: 'string', description: 'The image file, base64-encoded.' },
          revisedPrompt: { type: 'string', description: 'The prompt as the model revised it (empty when it did not).' },
        },
        required: ['base64Data', 'revisedPrompt'],
      },
    },
    usage: {
      type: 'object',
      properties: { inputTokens: { type: 'integer' }, outputTokens: { type: 'integer' } },
      required: ['inputTokens', 'outputTokens'],
    },
  },
  required: ['generatedImages', 'usage'],
};

/** The endpoint's image output field, which makes it an image-generating endpoint; undefined otherwise. */
export function imageOutputField<T extends OutputFieldRule>(fields: T[]): T | undefined {
  return fields.find((field) => field.dataType === 'image');
}

/**
 * Image generation settings: the image field's exampleValue (a JSON object such as {"size":"1024x1024"}) overridden
 * Key by key by the prompt's customParameters.
 */
export function imageSettingsOf(
  field: OutputFieldRule,
  customParameters: Record<string, unknown>,
): Record<string, unknown> {
  let defaults: Record<string, unknown> = {};
  if (field.exampleValue) {
    try {
      const parsed: unknown = JSON.parse(field.exampleValue);
      const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
      if (isObject && !exceedsJsonDepth(parsed)) defaults = parsed as Record<string, unknown>;
    } catch {
      // The endpoints module only stores JSON objects of bounded depth here; anything else means no defaults.
    }
  }
  return { ...defaults, ...customParameters };
}

export type Conformance = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string };

/**
 * Checks a provider's structured answer against the output fields: an object holding every field with a value of
 * its type that keeps its constraints, nested fields included. The result has exactly those fields, in field order
 * (extra properties are dropped, at every level that defines its properties). A problem names the value by its path:
 * `confidence`, `address.city`, `tags[2]`.
 */
export function conformOutput(answer: unknown, fields: OutputFieldRule[]): Conformance {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return { ok: false, problem: 'the answer is not a JSON object' };
  }
  const structured = fields.filter((field): field is OutputFieldRule & ValueRule => field.dataType !== 'image');
  const result = conformObject(answer as Record<string, unknown>, structured, '');
  return 'problem' in result ? { ok: false, problem: result.problem } : { ok: true, value: result.value };
}

type Conformed<T> = { value: T } | { problem: string };

function conformObject(
  source: Record<string, unknown>,
  fields: (ValueRule & { name: string })[],
  prefix: string,
): Conformed<Record<string, unknown>> {
  const value: Record<string, unknown> = {};
  for (const field of fields) {
    const path = `${prefix}${field.name}`;
    const item = Object.hasOwn(source, field.name) ? source[field.name] : undefined;
    if (item === undefined) return { problem: `field '${path}' is missing` };
    const conformed = conformValue(item, field, path);
    if ('problem' in conformed) return conformed;
    value[field.name] = conformed.value;
  }
  return { value };
}

function conformValue(item: unknown, rule: ValueRule, path: string): Conformed<unknown> {
  const problem = (what: string) => ({ problem: `field '${path}' ${what}` });
  if (!matchesDataType(item, rule.dataType)) return problem(`is not ${dataTypeName(rule.dataType)}`);
  if (typeof item === 'string') {
    if (rule.enum && !rule.enum.includes(item)) return problem(`is not one of its ${rule.enum.length} enum values`);
    if (rule.maxLength != null && item.length > rule.maxLength)
      return problem(`is longer than its maxLength ${rule.maxLength}`);
  }
  if (typeof item === 'number') {
    if (rule.minimum != null && item < rule.minimum) return problem(`is below its minimum ${rule.minimum}`);
    if (rule.maximum != null && item > rule.maximum) return problem(`is above its maximum ${rule.maximum}`);
  }
  if (rule.dataType === 'object' && rule.properties) {
    return conformObject(item as Record<string, unknown>, rule.properties, `${path}.`);
  }
  if (rule.dataType === 'array' && rule.items) {
    const elements: unknown[] = [];
    for (const [index, element] of (item as unknown[]).entries()) {
      const conformed = conformValue(element, rule.items, `${path}[${index}]`);
      if ('problem' in conformed) return conformed;
      elements.push(conformed.value);
    }
    return { value: elements };
  }
  return { value: item };
}

/**
 * No output fields: the LLM's raw text; when it parses as JSON nested at most MAX_JSON_DEPTH levels the body is that
 * value, otherwise a JSON string holding the text (a deeper value could not be serialised, cached or logged safely).
 */
const JSON_START = /^[[{"\-0-9tfn]/;

export function rawOutputOf(text: string): unknown {
  const trimmed = text.trim();
  // Most answers are prose: skip the (throwing, so costly) parse unless the text can start a JSON value.
  if (trimmed === '' || !JSON_START.test(trimmed)) return text;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return exceedsJsonDepth(parsed) ? text : parsed;
  } catch {
    return text;
  }
}
