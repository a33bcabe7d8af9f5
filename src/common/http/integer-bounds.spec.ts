import type { ArgumentMetadata } from '@nestjs/common';
import { validateSync } from 'class-validator';
import { ValidationError } from '../errors/app-error';
import { IntegerBetween, MAX_INTEGER, PositiveIntegerParamPipe } from './integer-bounds';

class Limits {
  @IntegerBetween(1)
  perMinute: unknown;

  @IntegerBetween(1, 600)
  timeout: unknown = 1;
}

function problems(perMinute: unknown, timeout: unknown = 1): string[] {
  const limits = Object.assign(new Limits(), { perMinute, timeout });
  return validateSync(limits).flatMap((error) => Object.values(error.constraints ?? {}));
}

describe('IntegerBetween', () => {
  it('accepts integers from the minimum up to 2147483647', () => {
    expect(problems(1)).toEqual([]);
    expect(problems(MAX_INTEGER)).toEqual([]);
  });

  it('refuses integers past the int4 columns, naming the property', () => {
    expect(problems(MAX_INTEGER + 1)).toEqual([`perMinute must not be greater than ${MAX_INTEGER}`]);
    expect(problems(1e11)).toEqual([`perMinute must not be greater than ${MAX_INTEGER}`]);
  });

  it('keeps a smaller maximum of its own', () => {
    expect(problems(1, 601)).toEqual(['timeout must not be greater than 600']);
  });

  it('refuses what is not an integer', () => {
    expect(problems(1.5)).toContain('perMinute must be an integer number');
    expect(problems(Infinity)).toContain('perMinute must be an integer number');
  });
});

describe('PositiveIntegerParamPipe', () => {
  const pipe = new PositiveIntegerParamPipe();
  const metadata: ArgumentMetadata = { type: 'param', data: 'versionNumber' };
  const refusal = (value: string | number) => {
    try {
      pipe.transform(value, metadata);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('versionNumber');
      return (error as ValidationError).message;
    }
    throw new Error(`${value} was accepted`);
  };

  it('passes whole numbers from 1 to 2147483647, as text or already converted', () => {
    expect(pipe.transform('1', metadata)).toBe(1);
    expect(pipe.transform(String(MAX_INTEGER), metadata)).toBe(MAX_INTEGER);
    expect(pipe.transform(42, metadata)).toBe(42);
  });

  it('refuses the rest with a message naming the parameter', () => {
    expect(refusal('100000000000')).toBe(`versionNumber must not be greater than ${MAX_INTEGER}`);
    expect(refusal(1e23)).toBe(`versionNumber must not be greater than ${MAX_INTEGER}`);
    expect(refusal('0')).toBe('versionNumber must not be less than 1');
    expect(refusal('abc')).toBe('versionNumber must be an integer');
    expect(refusal(Number.NaN)).toBe('versionNumber must be an integer');
    expect(refusal(1.5)).toBe('versionNumber must be an integer');
  });
});
