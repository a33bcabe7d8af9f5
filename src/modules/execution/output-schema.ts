import { exceedsJsonDepth } from '../../common/http/json-depth';
import type { OutputDataType } from '../endpoints/field-types';
import { dataTypeName, matchesDataType } from '../endpoints/field-data-type';
import type { JsonSchemaObject } from '../llm/llm-client';

/** What the schema builder needs of an output field row. */
export interface OutputFieldRule {
  name: string;
  dataType: OutputDataType;
  description: string;
  exampleValue: string | null;
}

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
 * exactly those properties, all required, in field order. Image fields are not part of it (they make the endpoint an
 * image endpoint instead).
 */
export function outputSchemaOf(fields: OutputFieldRule[]): OutputSchema | null {
  const structured = fields.filter((field) => field.dataType !== 'image');
  if (structured.length === 0) return null;
  const properties: Record<string, JsonSchemaObject> = {};
  for (const field of structured) {
    properties[field.name] = {
      type: field.dataType,
      ...(field.description ? { description: field.description } : {}),
    };
  }
  return {
    jsonSchema: {
      type: 'object',
      properties,
      required: structured.map((field) => field.name),
      additionalProperties: false,
    },
    strict: structured.every((field) => field.dataType !== 'object' && field.dataType !== 'array'),
  };
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
 * its type. The result has exactly those fields, in field order (extra properties are dropped).
 */
export function conformOutput(answer: unknown, fields: OutputFieldRule[]): Conformance {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return { ok: false, problem: 'the answer is not a JSON object' };
  }
  const source = answer as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  for (const field of fields) {
    const { dataType } = field;
    if (dataType === 'image') continue;
    const item = source[field.name];
    if (item === undefined) return { ok: false, problem: `field '${field.name}' is missing` };
    if (!matchesDataType(item, dataType))
      return { ok: false, problem: `field '${field.name}' is not ${dataTypeName(dataType)}` };
    value[field.name] = item;
  }
  return { ok: true, value };
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
