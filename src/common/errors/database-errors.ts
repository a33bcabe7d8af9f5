import { QueryFailedError } from 'typeorm';
import { AppError, ConflictError, ValidationError } from './app-error';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './database-unavailable';

const UNIQUE_VIOLATION = '23505';
const NOT_NULL_VIOLATION = '23502';
const FOREIGN_KEY_VIOLATION = '23503';
const CHECK_VIOLATION = '23514';
const NUMERIC_OUT_OF_RANGE = '22003';
const STRING_TOO_LONG = '22001';
/** SQLSTATE class 22: a value the database cannot take (bad format, out of range, too long). */
const DATA_EXCEPTION_CLASS = '22';

interface DriverError {
  code?: string;
  constraint?: string;
  detail?: string;
  column?: string;
  table?: string;
}

/** The SQLSTATE of a failed query (undefined for any other error). */
export function sqlStateOf(error: unknown): string | undefined {
  return error instanceof QueryFailedError
    ? (error as QueryFailedError & { driverError?: DriverError }).driverError?.code
    : undefined;
}

/** The constraint a failed query violated (undefined when none, or for any other error). */
export function constraintOf(error: unknown): string | undefined {
  return error instanceof QueryFailedError
    ? (error as QueryFailedError & { driverError?: DriverError }).driverError?.constraint
    : undefined;
}

/**
 * SQLSTATE classes 22 (data exception) and 23 (integrity constraint): the database refused what it was given, and
 * giving it the same again cannot help.
 */
export function isRefusedData(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

/**
 * Database errors that describe a client mistake, as the AppError a client should get: a unique violation is a 409,
 * a value the column cannot take a 400, never a 500. Messages name fields, never SQL, constraints or the driver's text.
 */
export function fromDatabaseError(error: unknown): AppError | undefined {
  // The service's own errors are already what the client gets, whatever caused them.
  if (error instanceof AppError) return undefined;
  // An unreachable database is not the request's fault either: 503 with Retry-After, never a 500.
  if (isDatabaseUnavailable(error)) return new DatabaseUnavailableError();
  if (!(error instanceof QueryFailedError)) return undefined;
  const driverError = (error as QueryFailedError & { driverError?: DriverError }).driverError;
  const code = driverError?.code;
  switch (code) {
    case UNIQUE_VIOLATION:
      return new ConflictError(describeUnique(driverError.detail));
    case NOT_NULL_VIOLATION: {
      const field = camelCase(driverError.column ?? 'value');
      return new ValidationError(`${field} must not be null`, field);
    }
    case FOREIGN_KEY_VIOLATION:
      return new ConflictError('A record it refers to does not exist (any more)');
    case CHECK_VIOLATION: {
      const field = checkedField(driverError);
      return field
        ? new ValidationError(`${field} is out of range`, field)
        : new ValidationError('A value is out of range');
    }
    case NUMERIC_OUT_OF_RANGE:
      return new ValidationError('A number is out of range');
    case STRING_TOO_LONG:
      return new ValidationError('A value is too long');
    default:
      return code?.startsWith(DATA_EXCEPTION_CLASS) ? new ValidationError('A value has an invalid format') : undefined;
  }
}

function describeUnique(detail?: string): string {
  const match = detail && /Key \((.+)\)=\((.*)\) already exists/.exec(detail);
  if (match) {
    const columns = match[1]
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c !== 'tenant_id' && c !== 'endpoint_id');
    return `${columns.map(camelCase).join(', ') || 'value'} already exists`;
  }
  return 'Conflicts with an existing record';
}

/** The field of a single-column CHECK constraint, from PostgreSQL's default name `<table>_<column>_check`. */
function checkedField({ constraint, table }: DriverError): string | undefined {
  if (!constraint || !table || !constraint.startsWith(`${table}_`) || !constraint.endsWith('_check')) return undefined;
  const column = constraint.slice(table.length + 1, -'_check'.length);
  return /^[a-z][a-z0-9_]*$/.test(column) ? camelCase(column) : undefined;
}

/** Columns are snake_case; the API names fields in camelCase. */
function camelCase(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
