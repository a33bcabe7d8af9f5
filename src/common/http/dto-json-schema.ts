import { getMetadataStorage } from 'class-validator';
import { DECORATORS } from '@nestjs/swagger';
import { MAX_TAG_VALUE_LENGTH, MAX_TAGS, TAG_KEY_PATTERN } from '../tags/tags';

/** A JSON Schema (draft 2020-12) as MCP tools advertise it. */
export type JsonSchema = Record<string, unknown>;

export interface ObjectJsonSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
  additionalProperties: false;
}

interface ValidationRule {
  propertyName: string;
  type: string;
  name?: string;
  constraints?: unknown[];
  each?: boolean;
}

/** What each class-validator constraint says about a property's JSON value. */
const CONSTRAINT_SCHEMAS: Record<string, (constraints: unknown[]) => JsonSchema> = {
  isString: () => ({ type: 'string' }),
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  isBoolean: () => ({ type: 'boolean' }),
  isObject: () => ({ type: 'object' }),
  isArray: () => ({ type: 'array' }),
  isUuid: () => ({ type: 'string', format: 'uuid' }),
  isIso8601: () => ({ type: 'string', format: 'date-time' }),
  isIn: ([values]) => ({ enum: [...(values as unknown[])] }),
  min: ([minimum]) => ({ minimum }),
  max: ([maximum]) => ({ maximum }),
  minLength: ([minLength]) => ({ minLength }),
  maxLength: ([maxLength]) => ({ maxLength }),
  matches: ([pattern]) => ({ pattern: pattern instanceof RegExp ? pattern.source : String(pattern) }),
  arrayMinSize: ([minItems]) => ({ minItems }),
  arrayMaxSize: ([maxItems]) => ({ maxItems }),
  isTags: () => ({
    type: 'object',
    maxProperties: MAX_TAGS,
    propertyNames: { pattern: TAG_KEY_PATTERN.source },
    additionalProperties: { type: 'string', minLength: 1, maxLength: MAX_TAG_VALUE_LENGTH },
  }),
  isTagFilter: () => ({ type: 'string', pattern: `^${TAG_KEY_PATTERN.source.slice(1, -1)}:` }),
  isTagKey: () => ({ type: 'string', pattern: TAG_KEY_PATTERN.source }),
  // One branch per type, not a type array, which some MCP clients refuse.
  isScoreValue: () => ({ anyOf: [{ type: 'boolean' }, { type: 'number' }, { type: 'string' }] }),
  isScoreFilter: () => ({ type: 'string', pattern: '^[a-z][a-z0-9_.-]{0,63}(:.{1,64})?$' }),
};

/** The swagger metadata key of @ApiProperty, and the static method the Swagger CLI plugin adds to each DTO in `nest build`. */
const API_PROPERTIES = DECORATORS.API_MODEL_PROPERTIES;
const PLUGIN_METADATA = '_OPENAPI_METADATA_FACTORY';

/**
 * The JSON Schema of a request DTO's body, read from the validation rules its class carries at run time: each
 * property's type, bounds, length, pattern and allowed values are the constraints `validateDto` enforces, so the
 * schema can never advertise less or more than what is accepted. Unknown properties are refused (additionalProperties
 * false), as the validation pipe refuses them. A property is required unless it is optional (`@IsOptional`, which also
 * admits null, or `Omittable`: a nullable property is `anyOf` its schema or null, a nullable enum lists null);
 * descriptions and defaults come from the DTO's OpenAPI metadata (its doc comments, in the built service), on the
 * property itself, outside any `anyOf`.
 */
export function dtoJsonSchema(dto: new () => object, expanding: ReadonlySet<unknown> = new Set()): ObjectJsonSchema {
  const rules = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false) as ValidationRule[];
  const names = new Set(rules.map((rule) => rule.propertyName));
  const documented = openApiProperties(dto, names);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const name of names) {
    const own = rules.filter((rule) => rule.propertyName === name);
    const conditions = own.filter((rule) => rule.type === 'conditionalValidation');
    const isNullable = conditions.some((rule) => rule.name === 'isOptional');
    if (conditions.length === 0) required.push(name);
    properties[name] = withDocumentation(
      propertySchema(own, isNullable, nestedSchemaOf(documented[name]?.type, new Set([...expanding, dto]))),
      documented[name],
    );
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * The schema of a nested request DTO (`@ValidateNested()`), from the property's OpenAPI type: a class, or a function
 * returning one (or an array of one), as `@ApiProperty({ type })` and the Swagger plugin give it. Null otherwise. A DTO
 * that nests itself (a definition holding definitions) is described once; inside itself it is any object.
 */
function nestedSchemaOf(type: unknown, expanding: ReadonlySet<unknown>): JsonSchema | null {
  let resolved: unknown = Array.isArray(type) ? type[0] : type;
  // A lazy type is an arrow function (no prototype); a class has one.
  if (typeof resolved === 'function' && !('prototype' in resolved && resolved.prototype)) {
    const produced: unknown = (resolved as () => unknown)();
    resolved = Array.isArray(produced) ? produced[0] : produced;
  }
  if (typeof resolved !== 'function') return null;
  const dto = resolved as new () => object;
  if (getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).length === 0) return null;
  return expanding.has(dto) ? { type: 'object' } : dtoJsonSchema(dto, expanding);
}

function propertySchema(rules: ValidationRule[], isNullable: boolean, nested: JsonSchema | null): JsonSchema {
  const schema: JsonSchema = {};
  const items: JsonSchema = {};
  for (const rule of rules) {
    if (rule.type === 'nestedValidation' && nested) Object.assign(rule.each ? items : schema, nested);
    const describe = rule.name ? CONSTRAINT_SCHEMAS[rule.name] : undefined;
    if (describe) Object.assign(rule.each ? items : schema, describe(rule.constraints ?? []));
  }
  if (Object.keys(items).length > 0) schema.items = items;
  if (!isNullable) return schema;
  if (Array.isArray(schema.enum)) {
    schema.enum = schema.enum.concat(null);
    return schema;
  }
  // `anyOf` with a null branch, not a type array (`["integer", "null"]`), which some MCP clients refuse.
  return schema.type === undefined ? schema : { anyOf: [schema, { type: 'null' }] };
}

function withDocumentation(schema: JsonSchema, documented: Record<string, unknown> | undefined): JsonSchema {
  // Doc comments keep their line breaks; a description is one line.
  if (typeof documented?.description === 'string') schema.description = documented.description.replace(/\s+/g, ' ');
  if (documented?.default !== undefined) schema.default = documented.default;
  return schema;
}

/** Each property's OpenAPI metadata: the plugin's (a parent class's first) overlaid by explicit @ApiProperty options. */
function openApiProperties(dto: new () => object, names: Iterable<string>): Record<string, Record<string, unknown>> {
  const chain: (new () => object)[] = [];
  for (
    let current: unknown = dto;
    typeof current === 'function' && current !== Function.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    chain.unshift(current as new () => object);
  }
  const properties: Record<string, Record<string, unknown>> = {};
  for (const type of chain) {
    const factory: unknown = Object.getOwnPropertyDescriptor(type, PLUGIN_METADATA)?.value;
    const plugin = typeof factory === 'function' ? (factory.call(type) as Record<string, Record<string, unknown>>) : {};
    for (const [name, options] of Object.entries(plugin)) properties[name] = { ...properties[name], ...options };
  }
  // The validated properties too, so explicit @ApiProperty metadata is found without the plugin.
  for (const name of new Set([...Object.keys(properties), ...names])) {
    const explicit: unknown = Reflect.getMetadata(API_PROPERTIES, dto.prototype as object, name);
    if (explicit && typeof explicit === 'object') properties[name] = { ...properties[name], ...explicit };
  }
  return properties;
}
