import fc from 'fast-check';
import type { OpenApiDocument, Schema } from './openapi-document';
import { resolveSchema } from './openapi-document';

/**
 * Values a schema of the document accepts. Rules the document cannot state (a path's pattern, an id that must exist in
 * the tenant, a model from the catalog) come from `hints`, looked up as `<SchemaName>.<property>` and then
 * `<property>`; a hint is one way to be valid, the schema's own constraints are the rest.
 */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

/**
 * How deep values nest: a schema that holds itself (a field's nested fields) ends there, in an empty array or object,
 * so that generating a value ends.
 */
const MAX_DEPTH = 4;

export function validValue(
  document: OpenApiDocument,
  schema: Schema | undefined,
  hints: Hints,
  schemaName = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const resolved = resolveSchema(document, schema) ?? {};
  const value = plainValue(document, resolved, hints, schemaName, depth);
  return resolved.nullable ? fc.option(value, { nil: null, freq: 6 }) : value;
}

function plainValue(
  document: OpenApiDocument,
  schema: Schema,
  hints: Hints,
  schemaName: string,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    case 'integer':
    case 'number': {
      // Whole numbers: the document says "number" for the DTOs' integer properties.
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? Math.max(min + 1_000_000, 1000);
      return fc.integer({ min, max });
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (depth >= MAX_DEPTH) return fc.constant([]);
      return fc.array(validValue(document, schema.items, hints, schemaName, depth + 1), {
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object':
    default: {
      if (!schema.properties || Object.keys(schema.properties).length === 0) {
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      }
      if (depth >= MAX_DEPTH) return fc.constant({});
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(schema.properties)) {
        record[name] =
          hints[`${schemaName}.${name}`] ?? hints[name] ?? validValue(document, property, hints, schemaName, depth + 1);
      }
      return fc.record(record, { requiredKeys: schema.required ?? [] });
    }
  }
}
