import type { InputDataType, OutputDataType } from './endpoint-field.entity';

/** A field's data type other than `image`, whose values (a data URI in, generated pictures out) have rules of their own. */
export type JsonDataType = Exclude<InputDataType | OutputDataType, 'image'>;

/**
 * Which JSON values are of a field's data type, the one rule for a default value, an execution input and a structured
 * answer: an integer is a whole number, a number is any finite one, an object is a JSON object (not null, not an array).
 */
export function matchesDataType(value: unknown, type: JsonDataType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
  }
}

/** The data type as messages name it: "a string", "an integer", "an image". */
export function dataTypeName(type: InputDataType | OutputDataType): string {
  return `${type === 'integer' || type === 'object' || type === 'array' || type === 'image' ? 'an' : 'a'} ${type}`;
}
