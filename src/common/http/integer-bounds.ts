import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ValidationError } from '../errors/app-error';

/**
 * The largest value of the database's integer (int4) columns. Every integer a request carries (limits, lengths,
 * version numbers, pages) is at most this, `@IsInt() @Max(MAX_INTEGER)` (or a smaller maximum) on each integer
 * property, so a larger one is a 400 naming the field rather than a database error. The literal decorators also give
 * the OpenAPI document its `maximum`.
 */
export const MAX_INTEGER = 2_147_483_647;

/**
 * A route parameter that must be an integer from 1 to MAX_INTEGER (`/versions/3`); anything else is a 400 naming
 * the parameter.
 */
@Injectable()
export class PositiveIntegerParamPipe implements PipeTransform<string | number, number> {
  transform(value: string | number, metadata: ArgumentMetadata): number {
    const name = metadata.data ?? 'value';
    // The global validation pipe, which runs first, has already turned the text into a number (NaN if it is none).
    const number = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(number)) throw new ValidationError(`${name} must be an integer`, name);
    if (number < 1) throw new ValidationError(`${name} must not be less than 1`, name);
    if (number > MAX_INTEGER) throw new ValidationError(`${name} must not be greater than ${MAX_INTEGER}`, name);
    return number;
  }
}
