// The fields editor's rules, free of React: the data types it offers, the checks a field passes before it is sent, and
// the conversions between a field as the API answers it, the form's draft (every value as typed), and the request body.
import { bounds } from '../../../api/bounds';
import type { Schemas } from '../../../api/client';

export type InputField = Schemas['InputFieldResponse'];
export type OutputField = Schemas['OutputFieldResponse'];
export type InputDataType = InputField['dataType'];
export type OutputDataType = OutputField['dataType'];

/** The bounds the API puts on fields. */
export const MAX_INTEGER = 2_147_483_647;
export const MIN_INTEGER = -MAX_INTEGER - 1;
const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const NAME_RULE = 'Letters, digits and _ only, not starting with a digit';
export const FIELD_LIMITS = {
  name: bounds.CreateInputFieldDto.name.maxLength,
  description: bounds.CreateInputFieldDto.description.maxLength,
  exampleValue: bounds.CreateOutputFieldDto.exampleValue.maxLength,
} as const;

interface DataTypeOption<T> {
  value: T;
  /** Its name in the type picker. */
  label: string;
  /** Its name in the tables. */
  short: string;
  /** What it takes. */
  hint: string;
}

export const INPUT_TYPES: DataTypeOption<InputDataType>[] = [
  { value: 'string', label: 'Text (string)', short: 'Text', hint: 'Any text; a maximum length may bound it.' },
  {
    value: 'integer',
    label: 'Integer (whole number)',
    short: 'Integer',
    hint: 'A whole number such as 3; it may have a minimum and a maximum.',
  },
  {
    value: 'number',
    label: 'Number',
    short: 'Number',
    hint: 'Any number such as 0.5; it may have a minimum and a maximum.',
  },
  { value: 'boolean', label: 'Yes / no (boolean)', short: 'Yes / no', hint: 'true or false.' },
  {
    value: 'image',
    label: 'Image',
    short: 'Image',
    hint: 'A data URI (data:image/png;base64,…) of a PNG, JPEG, WebP or GIF image, sent to the model as an image.',
  },
  { value: 'object', label: 'JSON object', short: 'JSON object', hint: 'Any JSON object, such as {"tone": "formal"}.' },
  { value: 'array', label: 'JSON array', short: 'JSON array', hint: 'Any JSON array, such as ["a", "b"].' },
];
export const OUTPUT_TYPES: DataTypeOption<OutputDataType>[] = [
  { value: 'string', label: 'Text (string)', short: 'Text', hint: 'The model answers a text for it.' },
  { value: 'integer', label: 'Integer (whole number)', short: 'Integer', hint: 'The model answers a whole number.' },
  { value: 'number', label: 'Number', short: 'Number', hint: 'The model answers a number.' },
  { value: 'boolean', label: 'Yes / no (boolean)', short: 'Yes / no', hint: 'The model answers true or false.' },
  { value: 'object', label: 'JSON object', short: 'JSON object', hint: 'The model answers a JSON object.' },
  { value: 'array', label: 'JSON array', short: 'JSON array', hint: 'The model answers a JSON array.' },
  {
    value: 'image',
    label: 'Image',
    short: 'Image',
    hint: 'Makes the endpoint generate images; the example holds the default generation settings.',
  },
];

/** A data type's name in the tables: `integer` → "Integer". */
export const typeLabel = (value: string): string =>
  [...INPUT_TYPES, ...OUTPUT_TYPES].find((type) => type.value === value)?.short ?? value;

/** The option a picker's value names, or text when it names none. */
export function dataTypeOf<T extends string>(options: DataTypeOption<T>[], value: string): DataTypeOption<T> {
  return options.find((option) => option.value === value) ?? options[0];
}

export const isNumeric = (type: InputDataType): boolean => type === 'integer' || type === 'number';

/** A field's rules in words: "at most 500 characters", "from 1 to 10". */
export function rulesOf(field: Pick<InputField, 'maxLength' | 'minimum' | 'maximum'>): string {
  const rules: string[] = [];
  if (field.maxLength !== null) rules.push(`at most ${field.maxLength.toLocaleString()} characters`);
  if (field.minimum !== null && field.maximum !== null) rules.push(`from ${field.minimum} to ${field.maximum}`);
  else if (field.minimum !== null) rules.push(`at least ${field.minimum}`);
  else if (field.maximum !== null) rules.push(`at most ${field.maximum}`);
  return rules.join('; ');
}

/** An output field's rules in words: its allowed values, bounds, length, and what it nests. */
export function outputRulesOf(field: OutputField): string {
  const rules: string[] = [];
  if (field.enum) rules.push(`one of ${field.enum.join(', ')}`);
  const bounds = rulesOf(field);
  if (bounds) rules.push(bounds);
  if (field.properties) rules.push(`properties ${field.properties.map((property) => property.name).join(', ')}`);
  if (field.items) rules.push(`items: ${typeLabel(field.items.dataType)}`);
  return rules.join('; ');
}

/** A default value as JSON, so a text shows its quotes and a number does not. */
export const showValue = (value: unknown): string => JSON.stringify(value);

/** What is wrong with a field name (trimmed), or undefined; `missing` says what the name is for. */
export function nameProblem(name: string, missing: string): string | undefined {
  if (name === '') return missing;
  if (name.length > FIELD_LIMITS.name) return `At most ${FIELD_LIMITS.name} characters`;
  if (!FIELD_NAME_PATTERN.test(name)) return NAME_RULE;
  return undefined;
}

/** The problems that keep a draft from being sent, by form field. */
export type Problems<K extends string> = Partial<Record<K, string>>;

export const INPUT_FORM_FIELDS = [
  'name',
  'dataType',
  'isRequired',
  'description',
  'maxLength',
  'minimum',
  'maximum',
  'defaultValue',
] as const;
export type InputFormField = (typeof INPUT_FORM_FIELDS)[number];

/** An input field as the form holds it: numbers and the default as typed. */
export interface InputDraft {
  name: string;
  dataType: InputDataType;
  isRequired: boolean;
  description: string;
  maxLength: string;
  minimum: string;
  maximum: string;
  /** As typed: text, a number, `true`/`false`, or JSON for objects and arrays; empty for none. */
  defaultValue: string;
}

/** The draft of a new input field (without `field`) or of an existing one. */
export function inputDraftOf(field?: InputField): InputDraft {
  const value = field?.defaultValue;
  return {
    name: field?.name ?? '',
    dataType: field?.dataType ?? 'string',
    isRequired: field?.isRequired ?? false,
    description: field?.description ?? '',
    maxLength: field?.maxLength == null ? '' : String(field.maxLength),
    minimum: field?.minimum == null ? '' : String(field.minimum),
    maximum: field?.maximum == null ? '' : String(field.maximum),
    defaultValue:
      value === null || value === undefined
        ? ''
        : typeof value === 'string'
          ? value
          : typeof value === 'object'
            ? JSON.stringify(value, null, 2)
            : JSON.stringify(value),
  };
}

/** The draft with one value changed; a default typed for another data type does not survive a change of type. */
export function changeInputDraft<K extends keyof InputDraft>(
  draft: InputDraft,
  key: K,
  value: InputDraft[K],
): InputDraft {
  return {
    ...draft,
    [key]: value,
    ...(key === 'dataType' && draft.dataType !== value ? { defaultValue: '' } : {}),
  };
}

/** The request body of an input field draft, or the problems that keep it from being sent. */
export function checkInputDraft(draft: InputDraft): {
  problems: Problems<InputFormField>;
  body?: Schemas['CreateInputFieldDto'];
} {
  const problems: Problems<InputFormField> = {};
  const type = draft.dataType;
  const name = draft.name.trim();
  const badName = nameProblem(name, 'Required: the key callers send');
  if (badName) problems.name = badName;
  if (draft.description.length > FIELD_LIMITS.description)
    problems.description = `At most ${FIELD_LIMITS.description} characters`;

  const { maxLength, minimum, maximum } = parseLimits(draft, type, problems);

  const { value: defaultValue, problem: badDefault } = parseDefault(draft.defaultValue, type, {
    maxLength,
    minimum,
    maximum,
  });
  if (badDefault) problems.defaultValue = badDefault;
  if (Object.keys(problems).length > 0) return { problems };
  return {
    problems,
    body: {
      name,
      dataType: type,
      isRequired: draft.isRequired,
      description: draft.description,
      maxLength,
      minimum,
      maximum,
      defaultValue,
    },
  };
}

/** The typed maximum length (string) and bounds (integer, number) of a field, a problem per bad one in `problems`. */
function parseLimits(
  draft: { maxLength: string; minimum: string; maximum: string },
  type: InputDataType,
  problems: Problems<'maxLength' | 'minimum' | 'maximum'>,
): { maxLength: number | null; minimum: number | null; maximum: number | null } {
  let maxLength: number | null = null;
  if (type === 'string' && draft.maxLength.trim() !== '') {
    maxLength = Number(draft.maxLength);
    if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_INTEGER) {
      problems.maxLength = `Must be a whole number from 1 to ${MAX_INTEGER.toLocaleString()}`;
    }
  }
  const bound = (key: 'minimum' | 'maximum'): number | null => {
    const typed = draft[key].trim();
    if (!isNumeric(type) || typed === '') return null;
    const value = Number(typed);
    if (!Number.isFinite(value)) problems[key] = 'Must be a number';
    else if (type === 'integer' && !Number.isInteger(value)) problems[key] = 'Must be a whole number';
    else if (type === 'integer' && (value < MIN_INTEGER || value > MAX_INTEGER)) {
      problems[key] = `Must be from ${MIN_INTEGER.toLocaleString()} to ${MAX_INTEGER.toLocaleString()}`;
    }
    return value;
  };
  const minimum = bound('minimum');
  const maximum = bound('maximum');
  if (minimum !== null && maximum !== null && !problems.minimum && !problems.maximum && minimum > maximum) {
    problems.maximum = 'Must not be less than the minimum';
  }
  return { maxLength, minimum, maximum };
}

/** A default as typed, read as a value of the field's type and checked against its bounds; empty is none (null). */
function parseDefault(
  typed: string,
  type: InputDataType,
  { maxLength, minimum, maximum }: { maxLength: number | null; minimum: number | null; maximum: number | null },
): { value: unknown; problem?: string } {
  if (type === 'image' || typed.trim() === '') return { value: null };
  switch (type) {
    case 'string':
      if (maxLength !== null && typed.length > maxLength)
        return { value: typed, problem: `At most ${maxLength} characters (the maximum length)` };
      return { value: typed };
    case 'integer':
    case 'number': {
      const value = Number(typed);
      if (!Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value)))
        return { value, problem: `Must be ${type === 'integer' ? 'a whole number' : 'a number'}` };
      if ((minimum !== null && value < minimum) || (maximum !== null && value > maximum))
        return {
          value,
          problem: `Must be between ${minimum ?? '-∞'} and ${maximum ?? '∞'} (the minimum and maximum)`,
        };
      return { value };
    }
    case 'boolean':
      return { value: typed === 'true' };
    case 'object':
    case 'array':
      try {
        const value: unknown = JSON.parse(typed);
        const isArray = Array.isArray(value);
        if (typeof value !== 'object' || value === null || isArray !== (type === 'array'))
          return { value, problem: `Must be a JSON ${type}` };
        return { value };
      } catch {
        return { value: null, problem: `Must be valid JSON: ${type === 'array' ? '[…]' : '{…}'}` };
      }
  }
}

export const OUTPUT_FORM_FIELDS = [
  'name',
  'dataType',
  'description',
  'exampleValue',
  'enum',
  'maxLength',
  'minimum',
  'maximum',
  'properties',
  'items',
] as const;
export type OutputFormField = (typeof OUTPUT_FORM_FIELDS)[number];

/** The values an output enum may list, and the longest one. */
export const ENUM_LIMITS = { values: 100, length: 500 } as const;

/** A nested definition as the API answers it. */
type NestedDefinition = Schemas['OutputItemResponse'] & { name?: string };

/** An output field as the form holds it: numbers and nested definitions as typed. */
export interface OutputDraft {
  name: string;
  dataType: OutputDataType;
  description: string;
  /** As typed; empty for none. For an image field, the default generation settings as a JSON object. */
  exampleValue: string;
  /** string: the allowed values, one a line; empty for any text. */
  enum: string;
  maxLength: string;
  minimum: string;
  maximum: string;
  /** object: its properties as a JSON array of field definitions; empty for any JSON object. */
  properties: string;
  /** array: what each element is, as a JSON field definition; empty for any JSON array. */
  items: string;
}

/** A nested definition as short JSON: only what it sets. */
function compactDefinition(definition: NestedDefinition): Record<string, unknown> {
  const compact: Record<string, unknown> = {};
  if (definition.name !== undefined) compact.name = definition.name;
  compact.dataType = definition.dataType;
  if (definition.description) compact.description = definition.description;
  for (const key of ['enum', 'minimum', 'maximum', 'maxLength'] as const) {
    if (definition[key] !== null && definition[key] !== undefined) compact[key] = definition[key];
  }
  if (definition.properties) compact.properties = definition.properties.map(compactDefinition);
  if (definition.items) compact.items = compactDefinition(definition.items);
  return compact;
}

const asText = (value: number | null | undefined): string => (value == null ? '' : String(value));

/** The draft of a new output field (without `field`) or of an existing one. */
export function outputDraftOf(field?: OutputField): OutputDraft {
  return {
    name: field?.name ?? '',
    dataType: field?.dataType ?? 'string',
    description: field?.description ?? '',
    exampleValue: field?.exampleValue ?? '',
    enum: field?.enum?.join('\n') ?? '',
    maxLength: asText(field?.maxLength),
    minimum: asText(field?.minimum),
    maximum: asText(field?.maximum),
    properties: field?.properties ? JSON.stringify(field.properties.map(compactDefinition), null, 2) : '',
    items: field?.items ? JSON.stringify(compactDefinition(field.items), null, 2) : '',
  };
}

/** The request body of an output field draft, or the problems that keep it from being sent. */
export function checkOutputDraft(draft: OutputDraft): {
  problems: Problems<OutputFormField>;
  body?: Schemas['CreateOutputFieldDto'];
} {
  const problems: Problems<OutputFormField> = {};
  const type = draft.dataType;
  const name = draft.name.trim();
  const badName = nameProblem(name, 'Required: the key in the answer');
  if (badName) problems.name = badName;
  if (draft.description.length > FIELD_LIMITS.description)
    problems.description = `At most ${FIELD_LIMITS.description} characters`;
  const example = draft.exampleValue;
  if (example.length > FIELD_LIMITS.exampleValue)
    problems.exampleValue = `At most ${FIELD_LIMITS.exampleValue.toLocaleString()} characters`;
  else if (type === 'image' && example.trim() !== '' && !isJsonObject(example)) {
    problems.exampleValue = 'Must be a JSON object such as {"size": "1024x1024", "quality": "high"}';
  }
  const { maxLength, minimum, maximum } = parseLimits(draft, type, problems);
  const values = type === 'string' ? enumValuesOf(draft.enum) : null;
  if (values) {
    if (values.length > ENUM_LIMITS.values) problems.enum = `At most ${ENUM_LIMITS.values} values`;
    else if (values.some((value) => value.length > ENUM_LIMITS.length))
      problems.enum = `Each value at most ${ENUM_LIMITS.length} characters`;
    else if (new Set(values).size !== values.length) problems.enum = 'Each value once';
    else if (maxLength !== null && values.some((value) => value.length > maxLength))
      problems.enum = `Each value at most ${maxLength} characters (the maximum length)`;
  }
  const properties = type === 'object' ? parseNested(draft.properties, 'array', problems, 'properties') : null;
  const items = type === 'array' ? parseNested(draft.items, 'object', problems, 'items') : null;
  if (Object.keys(problems).length > 0) return { problems };
  return {
    problems,
    body: {
      name,
      dataType: type,
      description: draft.description,
      exampleValue: example.trim() === '' ? null : example,
      enum: values,
      maxLength,
      minimum,
      maximum,
      properties: properties as Schemas['CreateOutputFieldDto']['properties'],
      items: items as Schemas['CreateOutputFieldDto']['items'],
    },
  };
}

/** The allowed values typed one a line, blank lines skipped; null (any text) when there are none. */
function enumValuesOf(typed: string): string[] | null {
  const values = typed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return values.length > 0 ? values : null;
}

/** Nested definitions typed as JSON (an array of fields, or one definition); null when empty. */
function parseNested(
  typed: string,
  shape: 'array' | 'object',
  problems: Problems<OutputFormField>,
  key: 'properties' | 'items',
): unknown {
  if (typed.trim() === '') return null;
  const wanted =
    shape === 'array'
      ? 'Must be a JSON array of fields such as [{"name": "city", "dataType": "string"}]'
      : 'Must be a JSON field definition such as {"dataType": "string", "maxLength": 40}';
  try {
    const value: unknown = JSON.parse(typed);
    const isArray = Array.isArray(value);
    if (typeof value !== 'object' || value === null || isArray !== (shape === 'array')) problems[key] = wanted;
    return value;
  } catch {
    problems[key] = wanted;
    return null;
  }
}

function isJsonObject(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
