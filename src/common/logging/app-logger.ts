import { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { AppConfig, LogLevel } from '../../config/app-config';
import { activeTraceIds } from '../telemetry/trace-context';
import { serviceVersion } from './service-version';

type Level = Exclude<LogLevel, 'silent'>;

/**
 * Field names whose values are secrets (keys, tokens, passwords, authorization headers), wherever a caller puts them
 * at the top of a line or one level down: their value is replaced, so a mistake never writes a key to the log.
 */
const SECRET_FIELDS = ['authorization', 'apiKey', 'key', 'token', 'password', 'secret', 'cookie', '"x-api-key"'];
const REDACTED_PATHS = SECRET_FIELDS.flatMap((field) => {
  const access = field.startsWith('"') ? `[${field}]` : `.${field}`;
  return [field.startsWith('"') ? `[${field}]` : field, `*${access}`, `headers${access}`];
});

/**
 * Nest's own start-up chatter (every module initialised, every route mapped: a hundred lines per start) is debug; its
 * other lines keep their level.
 */
const DEBUG_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/**
 * Standard output, written asynchronously (a pipe is written synchronously by Node's own stream, which would hold the
 * event loop on a slow reader). Flushed synchronously when the process exits, so the last lines are not lost.
 */
export function asynchronousStdout(): DestinationStream & { flushSync(): void } {
  return pino.destination({ dest: 1, sync: false });
}

/**
 * One JSON object per line (pino): `level`, `time`, `pid`, `version`, `msg` and the line's fields (`requestId` within
 * a request); with tracing on, a line written within a traced request carries its `trace_id` and `span_id`. The
 * service's only logger. Secrets under the names above are redacted; never pass it headers or keys all the same.
 * `destination` defaults to process.stdout's own stream (what tests read); the service hands in asynchronousStdout().
 */
export class AppLogger implements LoggerService {
  private readonly pino: Logger;
  /**
   * The access lines' own logger, without redaction: their fields are fixed (id, method, path, status, duration) and
   * carry no secret, and redaction would cost several times the line itself on every request.
   */
  private readonly accessPino: Logger;
  private readonly traced: boolean;

  constructor(
    config: Pick<AppConfig, 'logLevel' | 'tracing'>,
    private readonly destination: DestinationStream = process.stdout,
  ) {
    this.traced = config.tracing !== undefined;
    const options = {
      level: config.logLevel,
      base: { pid: process.pid, version: serviceVersion() },
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      formatters: { level: (label: string) => ({ level: label }) },
    };
    this.pino = pino({ ...options, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
    this.accessPino = pino(options, destination);
  }

  isEnabled(level: Level): boolean {
    return this.pino.isLevelEnabled(level);
  }

  /** The access line of a request: its id, method, path, status and duration (never its headers). */
  access(fields: { requestId: string; method?: string; path: string; status: number; durationMs: number }): void {
    if (!this.accessPino.isLevelEnabled('info')) return;
    this.accessPino.info(this.traced ? { ...fields, ...activeTraceIds() } : fields, 'request');
  }

  log(message: unknown, context?: string): void {
    this.write(context && DEBUG_CONTEXTS.has(context) ? 'debug' : 'info', message, { context });
  }

  debug(message: unknown, context?: string): void {
    this.write('debug', message, { context });
  }

  verbose(message: unknown, context?: string): void {
    this.write('debug', message, { context });
  }

  warn(message: unknown, context?: string): void {
    this.write('warn', message, { context });
  }

  /** Nest calls it with (message, stack, context) or (message, context); an Error as the message keeps its stack. */
  error(message: unknown, stackOrContext?: string, context?: string): void {
    this.write('error', message, context ? { context, stack: stackOrContext } : { context: stackOrContext });
  }

  /** One line; an Error as `message` gives its message, and its stack unless `fields` has one. */
  write(level: Level, message: unknown, fields: Record<string, unknown> = {}): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const line: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) line[key] = value;
    let text: string;
    if (message instanceof Error) {
      text = message.message;
      if (line.stack === undefined && message.stack) line.stack = message.stack;
    } else {
      text = typeof message === 'string' ? message : JSON.stringify(message);
    }
    if (this.traced) Object.assign(line, activeTraceIds());
    this.pino[level](line, text);
  }

  /** Writes out what the destination still holds (before the process exits). */
  flush(): void {
    (this.destination as { flushSync?: () => void }).flushSync?.();
  }
}
