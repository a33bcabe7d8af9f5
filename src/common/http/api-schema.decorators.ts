import { Param, type PipeTransform, type Type } from '@nestjs/common';
import { ApiParam, ApiProperty, type ApiParamOptions, type ApiPropertyOptions } from '@nestjs/swagger';
import { MAX_INTEGER, PositiveIntegerParamPipe } from './integer-bounds';
import { UuidParamPipe } from './uuid-param.pipe';

/**
 * The mark (a `format`) of a property whose value may be any JSON value: createOpenApiDocument replaces every schema
 * carrying it by the empty schema `{}` (any value), where Nest would have written `type: object`.
 */
export const ANY_JSON = 'any-json';

type Described = Pick<ApiPropertyOptions, 'description' | 'example'>;

/** A property whose value may be any JSON value (object, array, string, number, boolean or null): the schema `{}`. */
export const ApiAnyJson = (options: Described = {}) => ApiProperty({ ...options, format: ANY_JSON });

/**
 * An integer property. A request DTO's bounds come from its @Min/@Max through the CLI plugin; a response states the
 * bounds of the values it can hold.
 */
export const ApiInteger = (bounds: { minimum?: number; maximum?: number } = {}) =>
  ApiProperty({ type: 'integer', ...bounds });

/** A string (or each string of an array) that is a UUID. */
export const ApiUuid = () => ApiProperty({ format: 'uuid' });

/** A timestamp (or an ISO 8601 query value), `format: date-time`. */
export const ApiDateTime = () => ApiProperty({ format: 'date-time' });

/** One of `values`, declared once as the named schema `name` that every property holding such a value references. */
export const ApiEnum = (name: string, values: readonly string[]) => ApiProperty({ enum: [...values], enumName: name });

/**
 * One of `values` or null. Inline, with null among the values: OpenAPI 3.0 cannot add null to a referenced schema.
 */
export const ApiNullableEnum = (values: readonly string[]) =>
  ApiProperty({ type: 'string', nullable: true, enum: [...values, null] });

/** Documents a route parameter on the handler the parameter decorator is applied to. */
function documentParameter(target: object, key: string | symbol | undefined, options: ApiParamOptions): void {
  if (key === undefined) throw new Error('A route parameter decorator belongs on a handler parameter');
  const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
  ApiParam(options)(target, key, descriptor);
}

/** A `@Param(name)` checked by `pipe` (a 400 naming it otherwise) and documented with `schema`. */
const checkedParam =
  (pipe: Type<PipeTransform>, schema: Extract<ApiParamOptions, { schema: unknown }>['schema']) =>
  (name: string, description?: string): ParameterDecorator =>
  (target, key, index) => {
    Param(name, pipe)(target, key, index);
    documentParameter(target, key, { name, schema: { ...schema }, ...(description && { description }) });
  };

/** `@Param(name)` that must be a UUID (a 400 naming it otherwise), documented as `format: uuid`. */
export const UuidParam = checkedParam(UuidParamPipe, { type: 'string', format: 'uuid' });

/** `@Param(name)` that must be an integer from 1 to MAX_INTEGER (a 400 naming it otherwise). */
export const PositiveIntegerParam = checkedParam(PositiveIntegerParamPipe, {
  type: 'integer',
  minimum: 1,
  maximum: MAX_INTEGER,
});
