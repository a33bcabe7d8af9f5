import { MAX_INTEGER } from '../../common/http/integer-bounds';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../common/http/json-depth';
import type { InputDataType, OutputDataType } from './endpoint-field.entity';
import { dataTypeName, matchesDataType } from './field-data-type';
import type { NestedOutputDataType, NestedOutputField, OutputItemDefinition, OutputValueRules } from './field-types';

/** The bounds of an integer field are integers of the request, so they stay within the int4 range as all others do. */
const MIN_INTEGER = -MAX_INTEGER - 1;

export interface InputFieldShape {
  name: string;
  dataType: InputDataType;
  maxLength?: number | null;
  minimum?: number | null;
  maximum?: number | null;
  defaultValue?: unknown;
}

export interface OutputFieldShape extends Partial<OutputValueRules> {
  dataType: OutputDataType;
  exampleValue?: string | null;
}

/** A value definition inside an output field as a request gives it: what it omits is none. */
export interface OutputItemInput {
  dataType: NestedOutputDataType;
  description?: string;
  enum?: string[] | null;
  minimum?: number | null;
  maximum?: number | null;
  maxLength?: number | null;
  properties?: NestedFieldInput[] | null;
  items?: OutputItemInput | null;
}

export interface NestedFieldInput extends OutputItemInput {
  name: string;
}

/** The levels an output field may nest: the field, its properties or items, and theirs. */
export const MAX_OUTPUT_FIELD_DEPTH = 3;
/** The values an enum may list. */
export const MAX_ENUM_VALUES = 100;

/**
 * Fields an endpoint may have of each kind: every execution validates its inputs against them and builds the output
 * schema and its answer from them, so their number bounds the work and the size of every call.
 */
export const MAX_FIELDS_PER_ENDPOINT = 100;

/**
 * The refusal of a field counting `adding` fields (itself and its nested ones) when the endpoint's `list`
 * (`inputFields`, `outputFields`) holds `count` others already, nested ones included.
 */
export function fieldCountProblem(list: 'inputFields' | 'outputFields', count: number, adding = 1): string | null {
  if (count + adding <= MAX_FIELDS_PER_ENDPOINT) return null;
  return adding === 1
    ? `${list} must have at most ${MAX_FIELDS_PER_ENDPOINT} fields; the endpoint has ${count}`
    : `${list} must have at most ${MAX_FIELDS_PER_ENDPOINT} fields, nested ones included; ` +
        `the endpoint has ${count} and this field counts ${adding}`;
}

/** How many fields an output field counts toward the endpoint's limit: itself and every nested definition. */
export function outputFieldWeight(field: Partial<Pick<OutputValueRules, 'properties' | 'items'>>): number {
  let weight = 1;
  for (const property of field.properties ?? []) weight += outputFieldWeight(property);
  if (field.items) weight += outputFieldWeight(field.items);
  return weight;
}

/** Cross-property rules of an input field definition; one message per problem, naming the property. */
export function inputFieldProblems(field: InputFieldShape): string[] {
  const problems: string[] = [];
  if (field.maxLength != null && field.dataType !== 'string') {
    problems.push(`maxLength applies to string fields only, not ${field.dataType}`);
  }
  problems.push(...boundProblems('', field.dataType, field.minimum, field.maximum));
  if (field.defaultValue !== undefined && field.defaultValue !== null) {
    const problem = defaultValueProblem(field);
    if (problem) problems.push(problem);
  }
  return problems;
}

/** The rules of `minimum` and `maximum` on a field (its attributes prefixed by `path`) of type `dataType`. */
function boundProblems(
  path: string,
  dataType: InputDataType | OutputDataType,
  minimum: number | null | undefined,
  maximum: number | null | undefined,
): string[] {
  const problems: string[] = [];
  const numeric = dataType === 'integer' || dataType === 'number';
  for (const [bound, value] of [
    ['minimum', minimum],
    ['maximum', maximum],
  ] as const) {
    if (value == null) continue;
    if (!numeric) problems.push(`${path}${bound} applies to integer and number fields only, not ${dataType}`);
    else if (dataType === 'integer' && !Number.isInteger(value)) problems.push(`${path}${bound} must be an integer`);
    else if (dataType === 'integer' && value > MAX_INTEGER)
      problems.push(`${path}${bound} must not be greater than ${MAX_INTEGER}`);
    else if (dataType === 'integer' && value < MIN_INTEGER)
      problems.push(`${path}${bound} must not be less than ${MIN_INTEGER}`);
  }
  if (numeric && minimum != null && maximum != null && minimum > maximum) {
    problems.push(`${path}minimum must not be greater than maximum`);
  }
  return problems;
}

function defaultValueProblem(field: InputFieldShape): string | undefined {
  const value = field.defaultValue;
  if (field.dataType === 'image') return 'defaultValue is not supported for image fields';
  if (!matchesDataType(value, field.dataType)) return `defaultValue must be ${dataTypeName(field.dataType)}`;
  if (typeof value === 'string' && field.maxLength != null && value.length > field.maxLength) {
    return `defaultValue must be at most ${field.maxLength} characters`;
  }
  if (
    typeof value === 'number' &&
    ((field.minimum != null && value < field.minimum) || (field.maximum != null && value > field.maximum))
  ) {
    return `defaultValue must be between ${field.minimum ?? '-∞'} and ${field.maximum ?? '∞'}`;
  }
  return undefined;
}

/**
 * The rules of an output field definition, one message per problem naming the attribute by its path
 * (`properties.0.maxLength`): each constraint on the types it applies to, nesting at most MAX_OUTPUT_FIELD_DEPTH
 * levels, distinct names among an object's properties, and an image's exampleValue a JSON object of settings.
 */
export function outputFieldProblems(field: OutputFieldShape): string[] {
  return [...valueRuleProblems('', field.dataType, field, 1), ...exampleValueProblems(field)];
}

function valueRuleProblems(
  path: string,
  dataType: OutputDataType,
  rules: Partial<OutputValueRules>,
  depth: number,
): string[] {
  const problems: string[] = [];
  const notFor = (attribute: string, types: string) =>
    `${path}${attribute} applies to ${types} fields only, not ${dataType}`;
  if (rules.enum != null) {
    if (dataType !== 'string') problems.push(notFor('enum', 'string'));
    else problems.push(...enumProblems(path, rules.enum, rules.maxLength ?? null));
  }
  if (rules.maxLength != null && dataType !== 'string') problems.push(notFor('maxLength', 'string'));
  problems.push(...boundProblems(path, dataType, rules.minimum, rules.maximum));
  const nested = (attribute: 'properties' | 'items', type: OutputDataType): boolean => {
    if (rules[attribute] == null) return false;
    if (dataType !== type) problems.push(notFor(attribute, type));
    else if (depth >= MAX_OUTPUT_FIELD_DEPTH)
      problems.push(
        `${path}${attribute} must not be given: output fields nest at most ${MAX_OUTPUT_FIELD_DEPTH} levels`,
      );
    else return true;
    return false;
  };
  if (nested('properties', 'object')) problems.push(...propertiesProblems(path, rules.properties!, depth));
  if (nested('items', 'array')) {
    const items = rules.items!;
    problems.push(...valueRuleProblems(`${path}items.`, items.dataType, items, depth + 1));
  }
  return problems;
}

function enumProblems(path: string, values: string[], maxLength: number | null): string[] {
  if (values.length === 0) return [`${path}enum must list at least 1 value`];
  if (values.length > MAX_ENUM_VALUES) return [`${path}enum must list at most ${MAX_ENUM_VALUES} values`];
  const problems: string[] = [];
  const repeated = values.find((value, index) => values.indexOf(value) !== index);
  if (repeated !== undefined) problems.push(`${path}enum must not list '${repeated}' twice`);
  if (maxLength != null && values.some((value) => value.length > maxLength)) {
    problems.push(`${path}enum values must be at most ${maxLength} characters (the maxLength)`);
  }
  return problems;
}

function propertiesProblems(path: string, properties: NestedOutputField[], depth: number): string[] {
  if (properties.length === 0) return [`${path}properties must list at least 1 field`];
  const problems: string[] = [];
  properties.forEach((property, index) => {
    const at = `${path}properties.${index}.`;
    if (properties.findIndex((other) => other.name === property.name) !== index) {
      problems.push(`${at}name '${property.name}' is taken by another property of the object`);
    }
    problems.push(...valueRuleProblems(at, property.dataType, property, depth + 1));
  });
  return problems;
}

/** A nested definition as stored and answered: every attribute listed, null when not given. */
export function toOutputItem(input: OutputItemInput): OutputItemDefinition {
  return {
    dataType: input.dataType,
    description: input.description ?? '',
    enum: input.enum ? [...input.enum] : null,
    minimum: input.minimum ?? null,
    maximum: input.maximum ?? null,
    maxLength: input.maxLength ?? null,
    properties: input.properties ? input.properties.map(toNestedField) : null,
    items: input.items ? toOutputItem(input.items) : null,
  };
}

export function toNestedField(input: NestedFieldInput): NestedOutputField {
  return { name: input.name, ...toOutputItem(input) };
}

/** An image output's exampleValue holds its default generation settings as a JSON object. */
function exampleValueProblems(field: OutputFieldShape): string[] {
  if (field.dataType !== 'image' || field.exampleValue == null || field.exampleValue === '') return [];
  try {
    const parsed: unknown = JSON.parse(field.exampleValue);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      // The settings are sent to the provider: no deeper than a request body may be.
      return exceedsJsonDepth(parsed)
        ? [`exampleValue of an image field must not be nested deeper than ${MAX_JSON_DEPTH} levels`]
        : [];
    }
  } catch {
    // reported below
  }
  return ['exampleValue of an image field must be a JSON object such as {"size":"1024x1024","quality":"high"}'];
}
