import type { AppLogger } from '../common/logging/app-logger';

/** While the database stays unreachable, its warning is repeated at most this often. */
export const OUTAGE_WARNING_EVERY_MS = 30_000;

/**
 * The service log's one line about an unreachable database: a warning without a stack, at most once per
 * `everyMs` however many requests, log writes and health checks fail meanwhile (each of them answers 503 or retries).
 */
export function databaseOutageWarning(
  logger: Pick<AppLogger, 'write'>,
  everyMs = OUTAGE_WARNING_EVERY_MS,
  now = () => Date.now(),
): (error: unknown) => void {
  let lastWarning: number | undefined;
  return (error) => {
    const time = now();
    if (lastWarning !== undefined && time - lastWarning < everyMs) return;
    lastWarning = time;
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    logger.write('warn', 'Database unavailable: requests that need it are answered 503 until it is back', {
      context: 'Database',
      error: typeof message === 'string' && message ? message : String(code ?? error),
    });
  };
}
