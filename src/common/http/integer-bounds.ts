import { applyDecorators, ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { IsInt, Max, Min, type ValidationOptions } from 'class-validator';
import { ValidationError } from '../errors/app-error';

/**
 * The largest value of the database's integer (int4) columns. Every integer a request carries (limits, lengths,
 * version numbers, pages) is at most this; beyond it the request is a 400 naming the field, never a database error.
 */
export const MAX_INTEGER = 2_147_483_647;

/**
 * An integer property from `min` to `max` (MAX_INTEGER when not given; never more): a value of another type is one
 * problem (`<field> must be an integer number`, or `typeMessage`), one out of range another.
 */
export const IntegerBetween = (min: number, max: number = MAX_INTEGER, typeMessage?: string) =>
  applyDecorators(
    IsInt(typeMessage ? ({ message: typeMessage } satisfies ValidationOptions) : undefined),
    Min(min),
    Max(Math.min(max, MAX_INTEGER)),
  );

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
