/** The data types of an endpoint's input and output fields (other modules read them here, not from the entity). */
export type InputDataType = 'string' | 'integer' | 'number' | 'boolean' | 'image' | 'object' | 'array';
export type OutputDataType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'image';
export const INPUT_DATA_TYPES: InputDataType[] = ['string', 'integer', 'number', 'boolean', 'image', 'object', 'array'];
export const OUTPUT_DATA_TYPES: OutputDataType[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'object',
  'array',
  'image',
];
/** The types of a value inside an output field (an object's property, an array's items): never an image. */
export type NestedOutputDataType = Exclude<OutputDataType, 'image'>;
export const NESTED_OUTPUT_DATA_TYPES: NestedOutputDataType[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'object',
  'array',
];

/**
 * What an output value must be besides its type: `enum` (string), `minimum` and `maximum` (integer, number),
 * `maxLength` (string), `properties` (object: its fields, all required, no others) and `items` (array: what each
 * element is). Null when not given; an object or array without `properties` or `items` takes any object or array.
 */
export interface OutputValueRules {
  enum: string[] | null;
  minimum: number | null;
  maximum: number | null;
  maxLength: number | null;
  properties: NestedOutputField[] | null;
  items: OutputItemDefinition | null;
}

/** The definition of a value inside an output field: the elements of an array. */
export interface OutputItemDefinition extends OutputValueRules {
  dataType: NestedOutputDataType;
  description: string;
}

/** A property of an object output field. */
export interface NestedOutputField extends OutputItemDefinition {
  name: string;
}
