import { QueryFailedError } from 'typeorm';
import { ConflictError, ValidationError } from './app-error';
import { fromDatabaseError } from './database-errors';

const failed = (driverError: Record<string, string>) =>
  new QueryFailedError('INSERT …', [], Object.assign(new Error(driverError.message ?? 'failed'), driverError));

describe('fromDatabaseError', () => {
  it('maps a unique violation to a conflict naming the columns but not the scope', () => {
    const error = fromDatabaseError(
      failed({
        code: '23505',
        constraint: 'uq_endpoints_tenant_path',
        detail: 'Key (tenant_id, path)=(abc, /api/v1/x) already exists.',
      }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error?.message).toBe('path already exists');
  });

  it('names neither the constraint nor the values of a unique violation it cannot read', () => {
    const error = fromDatabaseError(failed({ code: '23505', constraint: 'uq_prompts_endpoint_slug' }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error?.message).toBe('Conflicts with an existing record');
  });

  it('maps a not-null violation to a validation error naming the field in camelCase', () => {
    const error = fromDatabaseError(failed({ code: '23502', column: 'rate_limit_per_minute' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).messages).toEqual(['rateLimitPerMinute must not be null']);
    expect((error as ValidationError).field).toBe('rateLimitPerMinute');
  });

  it('maps a check violation to the field of the constraint, without its name', () => {
    const error = fromDatabaseError(
      failed({ code: '23514', table: 'api_keys', constraint: 'api_keys_rate_limit_per_hour_check' }),
    );
    expect((error as ValidationError).messages).toEqual(['rateLimitPerHour is out of range']);
    expect((error as ValidationError).field).toBe('rateLimitPerHour');
    const unnamed = fromDatabaseError(failed({ code: '23514', table: 'api_keys', constraint: 'ck_api_keys_kind' }));
    expect((unnamed as ValidationError).messages).toEqual(['A value is out of range']);
  });

  it('maps values the database cannot take to a 400 without the driver text', () => {
    const outOfRange = fromDatabaseError(
      failed({ code: '22003', message: 'value "100000000000" is out of range for type integer' }),
    );
    expect(outOfRange).toBeInstanceOf(ValidationError);
    expect(outOfRange?.message).toBe('A number is out of range');
    const badUuid = fromDatabaseError(failed({ code: '22P02', message: 'invalid input syntax for type uuid: "x"' }));
    expect(badUuid?.message).toBe('A value has an invalid format');
    expect(fromDatabaseError(failed({ code: '22001' }))?.message).toBe('A value is too long');
    expect(fromDatabaseError(failed({ code: '22007' }))?.message).toBe('A value has an invalid format');
  });

  it('leaves other errors alone', () => {
    expect(fromDatabaseError(failed({ code: '57014' }))).toBeUndefined();
    expect(fromDatabaseError(new Error('x'))).toBeUndefined();
  });
});
