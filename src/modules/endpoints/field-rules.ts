import { MAX_INTEGER } from '../../common/http/integer-bounds';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../common/http/json-depth';
import type { InputDataType, OutputDataType } from './endpoint-field.entity';
import { dataTypeName, matchesDataType } from './field-data-type';

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

export interface OutputFieldShape {
  dataType: OutputDataType;
  exampleValue?: string | null;
}

/**
 * Fields an endpoint may have of each kind: every execution validates its inputs against them and builds the output
 * schema and its answer from them, so their number bounds the work and the size of every call.
 */
export const MAX_FIELDS_PER_ENDPOINT = 100;

/** The refusal of one more field when an endpoint's `list` (`inputFields`, `outputFields`) holds `count` already. */
export function fieldCountProblem(list: 'inputFields' | 'outputFields', count: number): string | null {
  return count >= MAX_FIELDS_PER_ENDPOINT
    ? `${list} must have at most ${MAX_FIELDS_PER_ENDPOINT} fields; the endpoint has ${count}`
    : null;
}

/** Cross-property rules of an input field definition; one message per problem, naming the property. */
export function inputFieldProblems(field: InputFieldShape): string[] {
  const problems: string[] = [];
  const numeric = field.dataType === 'integer' || field.dataType === 'number';
  if (field.maxLength != null && field.dataType !== 'string') {
    problems.push(`maxLength applies to string fields only, not ${field.dataType}`);
  }
  for (const bound of ['minimum', 'maximum'] as const) {
    const value = field[bound];
    if (value == null) continue;
    if (!numeric) problems.push(`${bound} applies to integer and number fields only, not ${field.dataType}`);
    else if (field.dataType === 'integer' && !Number.isInteger(value)) problems.push(`${bound} must be an integer`);
    else if (field.dataType === 'integer' && value > MAX_INTEGER)
      problems.push(`${bound} must not be greater than ${MAX_INTEGER}`);
    else if (field.dataType === 'integer' && value < MIN_INTEGER)
      problems.push(`${bound} must not be less than ${MIN_INTEGER}`);
  }
  if (numeric && field.minimum != null && field.maximum != null && field.minimum > field.maximum) {
    problems.push('minimum must not be greater than maximum');
  }
  if (field.defaultValue !== undefined && field.defaultValue !== null) {
    const problem = defaultValueProblem(field);
    if (problem) problems.push(problem);
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

/** An image output's exampleValue holds its default generation settings as a JSON object. */
export function outputFieldProblems(field: OutputFieldShape): string[] {
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
