import { QueryFailedError } from 'typeorm';
import { AppError, ConflictError, ValidationError } from './app-error';

const UNIQUE_VIOLATION = '23505';
const NOT_NULL_VIOLATION = '23502';
const CHECK_VIOLATION = '23514';
const INVALID_TEXT = '22P02';

/** Database errors that describe a client mistake: a unique violation is a 409, never a 500. */
export function fromDatabaseError(error: unknown): AppError | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const driverError = (error as QueryFailedError & { driverError?: { code?: string; constraint?: string; detail?: string; column?: string } })
    .driverError;
  switch (driverError?.code) {
    case UNIQUE_VIOLATION:
      return new ConflictError(describeUnique(driverError.constraint, driverError.detail));
    case NOT_NULL_VIOLATION: {
      const field = camelCase(driverError.column ?? 'value');
      return new ValidationError(`${field} must not be null`, field);
    }
    case CHECK_VIOLATION:
      return new ValidationError(`A value is out of range (${driverError.constraint ?? 'check'})`);
    case INVALID_TEXT:
      return new ValidationError('A value has an invalid format');
    default:
      return undefined;
  }
}

function describeUnique(constraint?: string, detail?: string): string {
  const match = detail && /Key \((.+)\)=\((.*)\) already exists/.exec(detail);
  if (match) {
    const columns = match[1].split(',').map((c) => c.trim()).filter((c) => c !== 'tenant_id' && c !== 'endpoint_id');
    return `${columns.join(', ') || 'value'} already exists`;
  }
  return `Conflicts with an existing record (${constraint ?? 'unique'})`;
}

/** Columns are snake_case; the API names fields in camelCase. */
function camelCase(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
