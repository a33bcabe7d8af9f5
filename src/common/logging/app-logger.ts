import { Inject, Injectable, LoggerService } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, LogLevel } from '../../config/app-config';
import { activeTraceIds } from '../telemetry/trace-context';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * One JSON object per line on stdout; the service's only logger. Never pass it headers or keys. With tracing on, a
 * line written within a traced request carries its `trace_id` and `span_id`.
 */
@Injectable()
export class AppLogger implements LoggerService {
  private readonly threshold: number;
  private readonly traced: boolean;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'logLevel' | 'tracing'>) {
    this.threshold = RANK[config.logLevel];
    this.traced = config.tracing !== undefined;
  }

  isEnabled(level: Exclude<LogLevel, 'silent'>): boolean {
    return RANK[level] >= this.threshold;
  }

  access(fields: Record<string, unknown>): void {
    this.write('info', 'request', fields);
  }

  log(message: unknown, context?: string): void {
    this.write('info', message, { context });
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

  error(message: unknown, stackOrContext?: string, context?: string): void {
    this.write('error', message, context ? { context, stack: stackOrContext } : { context: stackOrContext });
  }

  write(level: Exclude<LogLevel, 'silent'>, message: unknown, fields: Record<string, unknown> = {}): void {
    if (RANK[level] < this.threshold) return;
    const text =
      message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
    const line: Record<string, unknown> = { time: new Date().toISOString(), level, msg: text };
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) line[key] = value;
    if (this.traced) Object.assign(line, activeTraceIds());
    process.stdout.write(JSON.stringify(line) + '\n');
  }
}
