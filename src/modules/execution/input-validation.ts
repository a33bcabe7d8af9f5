import { ValidationError } from '../../common/errors/app-error';
import type { InputDataType } from '../endpoints/field-types';
import { dataTypeName, type JsonDataType, matchesDataType } from '../endpoints/field-data-type';
import type { ImageInput, JsonSchemaObject } from '../llm/llm-client';

/** What the validator needs of an input field row. */
export interface InputFieldRule {
  name: string;
  dataType: InputDataType;
  isRequired: boolean;
  maxLength: number | null;
  minimum: number | null;
  maximum: number | null;
  defaultValue: unknown;
}

/** An image input, with the field it came from. */
export interface FieldImage extends ImageInput {
  field: string;
}

export interface ValidatedInputs {
  /** The endpoint's fields with defaults applied; unknown extra fields are left out. */
  values: Record<string, unknown>;
  /** Image fields, in field order, to send to the model as image parts. */
  images: FieldImage[];
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
/** How an image input starts, for describing it: `data:image/png;base64,` and the other accepted media types. */
export const IMAGE_DATA_URI_PATTERN = `^data:(?:${IMAGE_TYPES.join('|')});base64,`;
const DATA_URI = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/i;

/**
 * Checks an execution body against the endpoint's input fields. The first
 * problem, in field order, is a ValidationError naming its field: `Field '<name>' is required`, `… must be <type>`,
 * `… must be between <min> and <max>` (`at least <min>` / `at most <max>` when only one bound is set),
 * `… must be at most <n> characters`. An absent or null value takes the field's default.
 */
export function validateInputs(body: unknown, fields: InputFieldRule[], maxImageBytes: number): ValidatedInputs {
  if (!isPlainObject(body)) throw new ValidationError('Request body must be a JSON object', null);
  const values: Record<string, unknown> = {};
  const images: FieldImage[] = [];
  for (const field of fields) {
    const given = body[field.name];
    const value = given === undefined || given === null ? (field.defaultValue ?? undefined) : given;
    if (value === undefined) {
      if (field.isRequired) fail(field, 'is required');
      continue;
    }
    const { dataType } = field;
    if (dataType === 'image') images.push(checkImage(field, value, maxImageBytes));
    else checkValue(field, dataType, value);
    values[field.name] = value;
  }
  return { values, images };
}

/** An input field as the body's schema describes it: the validator's rule and its description. */
export type DescribedInputField = InputFieldRule & { description: string };

/**
 * The JSON Schema of the bodies `validateInputs` accepts: an object of the fields, each of its type, strings within
 * maxLength (characters), numbers within minimum/maximum, images as data URIs. A field is required when it is marked
 * required and has no default (an absent field takes its default). Unknown extra properties are allowed (ignored).
 */
export function inputSchemaOf(fields: DescribedInputField[], maxImageBytes: number): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  for (const field of fields) properties[field.name] = inputFieldSchemaOf(field, maxImageBytes);
  const required = fields.filter((f) => f.isRequired && f.defaultValue == null).map((f) => f.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function inputFieldSchemaOf(field: DescribedInputField, maxImageBytes: number): JsonSchemaObject {
  const description = field.description.trim();
  if (field.dataType === 'image') {
    const rule = `A PNG, JPEG, WebP or GIF image as a data URI (data:image/png;base64,...), at most ${maxImageBytes} bytes decoded.`;
    return {
      type: 'string',
      pattern: IMAGE_DATA_URI_PATTERN,
      description: description ? `${description}\n\n${rule}` : rule,
    };
  }
  return {
    type: field.dataType,
    ...(field.dataType === 'string' && field.maxLength !== null ? { maxLength: field.maxLength } : {}),
    ...(field.minimum !== null ? { minimum: field.minimum } : {}),
    ...(field.maximum !== null ? { maximum: field.maximum } : {}),
    ...(field.defaultValue != null ? { default: field.defaultValue } : {}),
    ...(description ? { description } : {}),
  };
}

function checkValue(field: InputFieldRule, dataType: JsonDataType, value: unknown): void {
  if (!matchesDataType(value, dataType)) fail(field, `must be ${dataTypeName(dataType)}`);
  if (
    typeof value === 'string' &&
    field.maxLength !== null &&
    value.length > field.maxLength &&
    characterCount(value) > field.maxLength
  ) {
    fail(field, `must be at most ${field.maxLength} characters`);
  }
  if (typeof value === 'number') checkBounds(field, value);
}

function checkBounds(field: InputFieldRule, value: number): void {
  const { minimum, maximum } = field;
  const tooLow = minimum !== null && value < minimum;
  const tooHigh = maximum !== null && value > maximum;
  if (!tooLow && !tooHigh) return;
  if (minimum !== null && maximum !== null) fail(field, `must be between ${minimum} and ${maximum}`);
  fail(field, minimum !== null ? `must be at least ${minimum}` : `must be at most ${maximum}`);
}

/** A data URI of PNG, JPEG, WebP or GIF, at most MAX_IMAGE_BYTES once decoded. */
function checkImage(field: InputFieldRule, value: unknown, maxImageBytes: number): FieldImage {
  const match = typeof value === 'string' ? DATA_URI.exec(value) : null;
  if (!match) fail(field, 'must be an image data URI (data:image/png;base64,...)');
  const mediaType = match[1].toLowerCase();
  if (!IMAGE_TYPES.includes(mediaType)) fail(field, 'must be a PNG, JPEG, WebP or GIF image');
  const base64 = match[2];
  const decodedBytes = Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
  // No image data: empty, or padding alone (which counts below zero).
  if (decodedBytes <= 0) fail(field, 'must be an image data URI (data:image/png;base64,...)');
  if (decodedBytes > maxImageBytes) fail(field, `must be an image of at most ${maxImageBytes} bytes`);
  return { field: field.name, mediaType, dataUri: value as string };
}

/** Characters as people count them (code points), so an emoji is one character, not two UTF-16 units. */
function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(field: InputFieldRule, problem: string): never {
  throw new ValidationError(`Field '${field.name}' ${problem}`, field.name);
}
