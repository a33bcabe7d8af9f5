import { applyDecorators } from '@nestjs/common';
import { IsISO8601, ValidateIf } from 'class-validator';
import { ApiDateTime } from './api-schema.decorators';

/**
 * An optional property that may be omitted but not set to null (class-validator's IsOptional also lets null through,
 * which suits only the nullable fields).
 */
export const Omittable = () => ValidateIf((_object: unknown, value: unknown) => value !== undefined);

/** An optional ISO 8601 timestamp in a query (a time range's `from` or `to`): its format is in the document too. */
export const OptionalTimestamp = () =>
  applyDecorators(
    ApiDateTime(),
    Omittable(),
    IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 timestamp' }),
  );
