import { ServiceUnavailableError } from './app-error';

/** Seconds a client is asked to wait while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The database cannot be reached (stopped, restarting, refusing connections): 503 with Retry-After, never a 500. */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  constructor() {
    super('The database is unavailable; retry shortly', DATABASE_RETRY_AFTER_SECONDS);
  }
}

/**
 * Socket-level failures of the driver's connection to the server. Other clients (providers, Redis) fail with the same
 * codes, so they count only inside TypeORM's QueryFailedError or on an error the database pool marked as its own.
 */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
/**
 * SQLSTATEs of a database the service cannot use, whatever the request: 57P01 to 57P03 (shut down by the
 * administrator, after a crash, or not accepting connections yet), 53300 (no connection slot left), 3D000 (the
 * database does not exist: dropped or renamed); classes 08 (connection exception) and 28 (the credentials refused:
 * a password changed or a role dropped) are matched by their prefix.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '3D000']);
const CONNECTION_EXCEPTION_CLASS = /^(08|28)[0-9A-Z]{3}$/;
/** What `pg` and its pool say when a connection ends or cannot be made in time (these carry no code). */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
];

const FROM_DATABASE_POOL = Symbol.for('promptgate.databasePoolError');

/** The database pool marks the errors of its failed connects, so their socket codes are known to be the database's. */
export function markAsDatabasePoolError(error: unknown): void {
  if (error && typeof error === 'object' && !(FROM_DATABASE_POOL in error) && Object.isExtensible(error)) {
    Object.defineProperty(error, FROM_DATABASE_POOL, { value: true });
  }
}

/**
 * Whether `error` (as thrown by `pg`, its pool, or TypeORM around them) means the database server cannot be reached,
 * rather than that a query failed: connection refused, reset or timed out, the server shutting down or starting up.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (candidate: unknown, fromDatabase: boolean): boolean => {
    if (!candidate || typeof candidate !== 'object' || seen.has(candidate)) return false;
    seen.add(candidate);
    const { code, message, driverError, cause, errors } = candidate as {
      code?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    const isDatabases = fromDatabase || FROM_DATABASE_POOL in candidate;
    if (typeof code === 'string') {
      if (UNAVAILABLE_STATES.has(code) || CONNECTION_EXCEPTION_CLASS.test(code)) return true;
      if (isDatabases && CONNECTION_ERROR_CODES.has(code)) return true;
    }
    if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
    // TypeORM keeps the driver's error in driverError; Node reports a failed dual-stack connect as an AggregateError.
    return (
      visit(driverError, true) ||
      visit(cause, isDatabases) ||
      (Array.isArray(errors) && errors.some((each) => visit(each, isDatabases)))
    );
  };
  return visit(error, false);
}
