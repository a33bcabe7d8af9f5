import { QueryFailedError } from 'typeorm';
import { statusOf } from './app-error';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DatabaseUnavailableError,
  isDatabaseUnavailable,
  markAsDatabasePoolError,
} from './database-unavailable';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });
const wrapped = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);
/** A failed connect as the database pool passes it on. */
const fromPool = <T>(error: T): T => {
  markAsDatabasePoolError(error);
  return error;
};

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', fromPool(coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))],
    ['a reset connection', fromPool(coded('read ECONNRESET', 'ECONNRESET'))],
    ['a connect that timed out at the socket', fromPool(coded('connect ETIMEDOUT 10.0.0.1:5432', 'ETIMEDOUT'))],
    ['an unknown host', fromPool(coded('getaddrinfo ENOTFOUND db', 'ENOTFOUND'))],
    ["the pool's connection timeout", new Error('timeout exceeded when trying to connect')],
    ['a connection that ended under a query', new Error('Connection terminated unexpectedly')],
    ['a connection ended by its timeout', new Error('Connection terminated due to connection timeout')],
    ['the server shutting down (57P01)', coded('terminating connection due to administrator command', '57P01')],
    [
      'the server after a crash (57P02)',
      coded('terminating connection due to crash of another server process', '57P02'),
    ],
    ['the server starting up (57P03)', coded('the database system is starting up', '57P03')],
    ['no connection slot left (53300)', coded('sorry, too many clients already', '53300')],
    ['a connection exception (class 08)', coded('connection failure', '08006')],
    ['a dropped database (3D000)', fromPool(coded('database "promptgate" does not exist', '3D000'))],
    ['refused credentials (class 28)', fromPool(coded('password authentication failed for user "app"', '28P01'))],
    [
      'a refused connection inside a QueryFailedError',
      wrapped(coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')),
    ],
    [
      'a terminated session inside a QueryFailedError',
      wrapped(coded('terminating connection due to administrator command', '57P01')),
    ],
    [
      'a dual-stack connect that failed on every address',
      fromPool(new AggregateError([coded('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')])),
    ],
    [
      'a refusal given as the cause',
      new Error('could not load', { cause: fromPool(coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')) }),
    ],
  ])('recognises %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', wrapped(coded('duplicate key value violates unique constraint', '23505'))],
    ['a syntax error', wrapped(coded('syntax error at or near "x"', '42601'))],
    ['a cancelled statement (57014)', wrapped(coded('canceling statement due to statement timeout', '57014'))],
    ['an invalid uuid', wrapped(coded('invalid input syntax for type uuid', '22P02'))],
    ['a plain error', new Error('something else')],
    [
      "another client's refused connection (a provider, Redis)",
      coded('connect ECONNREFUSED 127.0.0.1:4710', 'ECONNREFUSED'),
    ],
    ["another client's reset connection", new Error('fetch failed', { cause: coded('read ECONNRESET', 'ECONNRESET') })],
    ['a string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('leaves %s alone', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('survives an error that refers to itself', () => {
    const error = coded('loop', 'XX000') as Error & { cause?: unknown };
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('DatabaseUnavailableError', () => {
  it('is a 503 asking to retry, saying the database is unavailable without any detail', () => {
    const error = new DatabaseUnavailableError();
    expect(statusOf(error)).toBe(503);
    expect(error.retryAfterSeconds).toBe(DATABASE_RETRY_AFTER_SECONDS);
    expect(error.message).toBe('The database is unavailable; retry shortly');
  });
});
