import { QueryFailedError } from 'typeorm';
import { ConflictError, ValidationError } from './app-error';
import { fromDatabaseError } from './database-errors';

const failed = (driverError: Record<string, string>) =>
  new QueryFailedError('INSERT …', [], Object.assign(new Error(driverError.message ?? 'failed'), driverError));

describe('fromDatabaseError', () => {
  it('maps a unique violation to a conflict naming the columns but not the scope', () => {
    const error = fromDatabaseError(
      failed({ code: '23505', constraint: 'uq_endpoints_tenant_path', detail: 'Key (tenant_id, path)=(abc, /api/v1/x) already exists.' }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error?.message).toBe('path already exists');
  });

  it('maps a not-null violation to a validation error naming the field in camelCase', () => {
    const error = fromDatabaseError(failed({ code: '23502', column: 'rate_limit_per_minute' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).messages).toEqual(['rateLimitPerMinute must not be null']);
    expect((error as ValidationError).field).toBe('rateLimitPerMinute');
  });

  it('leaves other errors alone', () => {
    expect(fromDatabaseError(failed({ code: '57014' }))).toBeUndefined();
    expect(fromDatabaseError(new Error('x'))).toBeUndefined();
  });
});
