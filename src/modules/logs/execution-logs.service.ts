import { Inject, Injectable, Optional } from '@nestjs/common';
import { isRefusedData, sqlStateOf } from '../../common/errors/database-errors';
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
import { DEFAULT_TAG_WINDOW_OPTIONS, TagSumWindows } from './tag-sum-windows';
import { TagSumWindowsRepository } from './tag-sum-windows.repository';

/** Shutdown flushes pending logs; if the database stays away this long, the rest is reported lost. */
const SHUTDOWN_FLUSH_MS = 10_000;

/**
 * The execution log writer: `record` queues a row and returns at once (the execution's response never waits for the
 * database); the queue writes batches with one multi-row INSERT within ~100 ms, retries them while the database is
 * away, and is drained at shutdown. The tag rollups of the rows are summed per window of a few seconds and written
 * when it closes (TagSumWindows), between batches. The reads are ExecutionLogReadsService's.
 */
@Injectable()
export class ExecutionLogsService {
  private readonly queue: LogWriteQueue<PreparedLog>;
  private readonly windows: TagSumWindows;
  /** The writer's turns: a batch, or the closed windows' sums (see serially). */
  private turn: Promise<unknown> = Promise.resolve();
  private readonly windowTimer: NodeJS.Timeout;
  /** Counts each execution recorded, by outcome (success or its error code) and whether the cache answered it. */
  private readonly metrics: Metrics | null = null;

  constructor(
    private readonly logs: ExecutionLogsRepository,
    windowsRepository: TagSumWindowsRepository,
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
    this.windows = new TagSumWindows(windowsRepository, clock, DEFAULT_TAG_WINDOW_OPTIONS);
    // A window closes on time when no batch comes to close it.
    this.windowTimer = setInterval(
      () => void this.serially(() => this.writeWindows(false)),
      DEFAULT_TAG_WINDOW_OPTIONS.windowMs,
    ).unref();
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

  /**
   * Resolves once every log recorded so far is stored and its tag sums are written to the tag rollups (tests; the
   * seeding tool).
   */
  async flush(): Promise<void> {
    await this.queue.flush();
    await this.serially(async () => {
      this.windows.close();
      await this.windows.writeClosed();
    });
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
    clearInterval(this.windowTimer);
    const lost = await this.queue.close(SHUTDOWN_FLUSH_MS);
    if (lost > 0)
      this.logger.write('error', 'Execution logs lost at shutdown: the database did not accept them', { lost });
    await this.serially(async () => {
      this.windows.close();
      await this.writeWindows(true);
    });
  }

  /**
   * Runs `work` after the writer's current turn: a batch's statement and the writing of a window's sums never overlap,
   * so no batch joins a window while it is being written.
   */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work, work);
    this.turn = result.catch(() => undefined);
    return result;
  }

  /**
   * Closes the open window when it is due (or `closeAll`) and writes the closed windows' sums. A failure is reported
   * and kept for the next turn; if the process stops first, another instance sums those windows from their rows.
   */
  private async writeWindows(closeAll: boolean): Promise<void> {
    if (closeAll || this.windows.due()) this.windows.close();
    if (this.windows.pending === 0) return;
    try {
      await this.windows.writeClosed();
    } catch (error) {
      if (closeAll)
        this.logger.write('warn', 'Tag sums not written at shutdown; they will be summed from their rows', {
          error: messageOf(error),
          windows: this.windows.pending,
        });
      else if (!isDatabaseUnavailable(error))
        this.logger.write('warn', 'Writing tag sums failed; will retry', {
          error: messageOf(error),
          windows: this.windows.pending,
        });
    }
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
      if (!isRefusedData(error)) throw error;
    }
    for (const row of rows) {
      try {
        await this.store([row]);
      } catch (error) {
        if (!isRefusedData(error)) throw error;
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

  /**
   * The rows and their plain rollups, in one statement (see logBatchStatement); their tag sums join the open window
   * once they are stored, and the closed windows' sums are written after the batch.
   */
  private store(rows: PreparedLog[]): Promise<void> {
    return this.serially(async () => {
      const window = this.windows.current();
      try {
        this.windows.stored(window, await this.logs.insertBatch(rows, window));
      } catch (error) {
        this.windows.failed(window, error);
        throw error;
      }
      await this.writeWindows(false);
    });
  }
}

const UNIQUE_VIOLATION = '23505';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
