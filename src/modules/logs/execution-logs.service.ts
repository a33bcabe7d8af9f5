import { Inject, Injectable, Optional } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from '../../common/errors/database-unavailable';
import { AppLogger } from '../../common/logging/app-logger';
import { Metrics } from '../../common/metrics/metrics';
import { Clock, type ClockTimer } from '../../common/time/clock';
import { DatabaseShutdown } from '../../database/database-shutdown';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ExecutionLogsRepository } from './execution-logs.repository';
import { type PreparedLog, toLogRow } from './log-row';
import { DEFAULT_QUEUE_OPTIONS, LogWriteQueue, LogWriteQueueState } from './log-write-queue';
import type { NewExecutionLog } from './new-execution-log';

/** Shutdown flushes pending logs; if the database stays away this long, the rest is reported lost. */
const SHUTDOWN_FLUSH_MS = 10_000;

/**
 * The execution log writer: `record` queues a row and returns at once (the execution's response never waits for the
 * database); the queue writes batches with one multi-row INSERT within ~100 ms, retries them while the database is
 * away, and is drained at shutdown. The reads are ExecutionLogReadsService's.
 */
@Injectable()
export class ExecutionLogsService {
  private readonly queue: LogWriteQueue<PreparedLog>;
  /** Counts each execution recorded, by outcome (success or its error code) and whether the cache answered it. */
  private readonly metrics: Metrics | null = null;

  constructor(
    private readonly logs: ExecutionLogsRepository,
    private readonly logger: AppLogger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    shutdown: DatabaseShutdown,
    private readonly clock: Clock,
    @Optional() metrics?: Metrics,
  ) {
    this.queue = new LogWriteQueue(
      (rows) => this.write(rows),
      DEFAULT_QUEUE_OPTIONS,
      {
        // An unreachable database has its own throttled warning; the rows stay queued and are written once it is back.
        writeFailed: (error, retryInMs, queued) => {
          if (!isDatabaseUnavailable(error))
            logger.write('warn', 'Writing execution logs failed; will retry', {
              error: messageOf(error),
              retryInMs,
              queued,
            });
        },
        dropping: (dropped) =>
          logger.write('error', 'The execution log queue is full (database unreachable?); new logs are dropped', {
            dropped,
          }),
      },
      clock,
    );
    // The final flush: after the HTTP server has closed (every answered execution has recorded its row), before the
    // database closes.
    shutdown.beforeClose(() => this.drainForShutdown());
    if (metrics?.enabled) {
      this.metrics = metrics;
      metrics.watchLogQueue(() => this.queue.state());
    }
  }

  /** Queues the row and returns its id (fixed now, before the row is written). */
  record(entry: NewExecutionLog): string {
    // Capped here, before the row is queued: what the queue holds is bounded as well as what is stored.
    this.metrics?.executionFinished(
      entry.status === 'success' ? 'success' : (entry.errorCode ?? 'error'),
      entry.cached,
    );
    const { row, bytes } = toLogRow(entry, this.config.logFieldMaxBytes);
    this.queue.enqueue(row, bytes);
    return row.id;
  }

  /** Resolves once every log recorded so far is stored (tests; shutdown). */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /**
   * Writes the logs recorded so far now, for an answer that names its row: true once they are stored, false when the
   * database failed or took longer than `maxWaitMs` (the rows stay queued and are written when it accepts them).
   */
  async flushWithin(maxWaitMs: number): Promise<boolean> {
    let timer: ClockTimer | undefined;
    const expired = new Promise<boolean>((resolve) => {
      timer = this.clock.setTimeout(() => resolve(false), maxWaitMs);
    });
    try {
      return await Promise.race([
        this.queue.flush().then(
          () => true,
          () => false,
        ),
        expired,
      ]);
    } finally {
      if (timer) this.clock.clearTimeout(timer);
    }
  }

  writerState(): LogWriteQueueState {
    return this.queue.state();
  }

  private async drainForShutdown(): Promise<void> {
    const lost = await this.queue.close(SHUTDOWN_FLUSH_MS);
    if (lost > 0)
      this.logger.write('error', 'Execution logs lost at shutdown: the database did not accept them', { lost });
  }

  /**
   * One multi-row INSERT. A row the database refuses (its endpoint was deleted meanwhile, a value out of range) must not
   * hold the others back: on such a data error the batch is retried row by row and refused rows are dropped. Ids are
   * fixed at record time, so rows a retried batch already stored are refused as duplicates, never written twice.
   */
  private async write(rows: PreparedLog[]): Promise<void> {
    try {
      await this.store(rows);
      return;
    } catch (error) {
      if (!isDataError(error)) throw error;
    }
    for (const row of rows) {
      try {
        await this.store([row]);
      } catch (error) {
        if (!isDataError(error)) throw error;
        if (sqlStateOf(error) !== UNIQUE_VIOLATION) {
          this.logger.write('error', 'An execution log was refused by the database', {
            requestId: row.requestId,
            sqlState: sqlStateOf(error),
            error: messageOf(error),
          });
        }
      }
    }
  }

  /** The rows and their rollups, in one statement (see logBatchStatement). */
  private store(rows: PreparedLog[]): Promise<void> {
    return this.logs.insertBatch(rows);
  }
}

const UNIQUE_VIOLATION = '23505';

function sqlStateOf(error: unknown): string | undefined {
  return error instanceof QueryFailedError
    ? (error as QueryFailedError & { driverError?: { code?: string } }).driverError?.code
    : undefined;
}

/** SQLSTATE classes 22 (data exception) and 23 (integrity constraint): retrying the same row cannot help. */
function isDataError(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
