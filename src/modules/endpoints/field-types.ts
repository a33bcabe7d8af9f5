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
