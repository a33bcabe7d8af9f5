import { type Clock, type ClockTimer, SYSTEM_CLOCK } from '../../common/time/clock';

/** Where batches go (the repository's multi-row INSERT); a rejection means "try the batch again later". */
export type BatchSink<T> = (rows: T[]) => Promise<void>;

export interface LogWriteQueueOptions {
  /** Rows per INSERT. */
  batchSize: number;
  /**
   * Most bytes of rows per INSERT (a single larger row goes alone): a statement is built and sent on the event loop,
   * so a batch of large rows is written in several statements, none of them holding the loop or the memory long. The
   * embedded database's memory grows to hold its largest statement and never shrinks, so this also bounds that.
   */
  maxBatchBytes?: number;
  /** How long a row may wait for companions before its batch is written (a row is visible within a second). */
  flushDelayMs: number;
  /** Memory bounds while the database is unreachable; rows beyond them are dropped and counted. */
  maxQueuedRows: number;
  maxQueuedBytes: number;
  /** Retry delay after a failed write, doubled per failure up to maxBackoffMs. */
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_QUEUE_OPTIONS: LogWriteQueueOptions = {
  batchSize: 500,
  maxBatchBytes: 1024 * 1024,
  flushDelayMs: 100,
  maxQueuedRows: 50_000,
  maxQueuedBytes: 64 * 1024 * 1024,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
};

export interface LogWriteQueueState {
  queued: number;
  queuedBytes: number;
  written: number;
  dropped: number;
  failedWrites: number;
}

export interface LogWriteQueueEvents {
  /** A write failed; the batch stays queued and is retried after `retryInMs`. */
  writeFailed?(error: unknown, retryInMs: number, queued: number): void;
  /** The first row dropped after a period without drops (the total keeps counting in state()). */
  dropping?(dropped: number): void;
}

interface Pending<T> {
  row: T;
  bytes: number;
}

/**
 * Keeps execution logs off the request path: rows are queued and written in batches by one writer at a time. A batch
 * leaves the queue only once it is written, so a failed write loses nothing; it is retried with exponential backoff.
 * While the database stays away the queue is bounded by rows and bytes, and new rows beyond the bound are dropped
 * (counted and reported) rather than taking the process's memory.
 */
export class LogWriteQueue<T> {
  private readonly queue: Pending<T>[] = [];
  private queuedBytes = 0;
  private written = 0;
  private dropped = 0;
  private failedWrites = 0;
  private droppingReported = false;
  private backoffMs = 0;
  private retryAt = 0;
  private timer: ClockTimer | null = null;
  private draining: Promise<void> | null = null;

  constructor(
    private readonly sink: BatchSink<T>,
    private readonly options: LogWriteQueueOptions = DEFAULT_QUEUE_OPTIONS,
    private readonly events: LogWriteQueueEvents = {},
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  enqueue(row: T, bytes: number): void {
    if (this.queue.length >= this.options.maxQueuedRows || this.queuedBytes + bytes > this.options.maxQueuedBytes) {
      this.dropped++;
      if (!this.droppingReported) {
        this.droppingReported = true;
        this.events.dropping?.(this.dropped);
      }
      return;
    }
    this.queue.push({ row, bytes });
    this.queuedBytes += bytes;
    this.schedule(this.queue.length >= this.options.batchSize ? 0 : this.options.flushDelayMs);
  }

  /** Writes everything queued so far (retrying nothing: a failed write rejects, and the rows stay queued). */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.draining) await this.drain();
  }

  /**
   * Shutdown: flush, retrying failed writes until `deadlineMs` has passed; returns how many rows were lost. It refuses
   * nothing: rows recorded while it runs are written too, and it resolves only once the queue is empty and no write
   * is under way.
   */
  async close(deadlineMs: number): Promise<number> {
    const deadline = this.clock.now() + deadlineMs;
    this.clearTimer();
    for (;;) {
      try {
        await this.flush();
        if (this.queue.length === 0 && !this.draining) return 0;
      } catch {
        const wait = Math.min(this.backoffMs, deadline - this.clock.now());
        if (wait <= 0) break;
        await this.clock.sleep(wait);
      }
    }
    const lost = this.queue.length;
    this.dropped += lost;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.clearTimer();
    return lost;
  }

  state(): LogWriteQueueState {
    return {
      queued: this.queue.length,
      queuedBytes: this.queuedBytes,
      written: this.written,
      dropped: this.dropped,
      failedWrites: this.failedWrites,
    };
  }

  private schedule(delayMs: number): void {
    if (this.draining) return; // the running drain picks new rows up
    const delay = Math.max(delayMs, this.retryAt - this.clock.now(), 0);
    if (this.timer) {
      if (delay > 0) return; // a write is already due no later than this one would be
      this.clearTimer();
    }
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.drain().catch(() => undefined); // reported through events; the retry is scheduled by drain
    }, delay);
    this.timer.unref?.();
  }

  private drain(): Promise<void> {
    if (!this.draining) {
      this.clearTimer();
      this.draining = this.writeAll().finally(() => {
        this.draining = null;
        if (this.queue.length > 0) this.schedule(0);
      });
    }
    return this.draining;
  }

  private async writeAll(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.nextBatch();
      try {
        await this.sink(batch.map((pending) => pending.row));
      } catch (error) {
        this.failedWrites++;
        this.backoffMs = Math.min(
          Math.max(this.backoffMs * 2, this.options.initialBackoffMs),
          this.options.maxBackoffMs,
        );
        this.retryAt = this.clock.now() + this.backoffMs;
        this.events.writeFailed?.(error, this.backoffMs, this.queue.length);
        throw error;
      }
      this.queue.splice(0, batch.length);
      for (const pending of batch) this.queuedBytes -= pending.bytes;
      this.written += batch.length;
      this.backoffMs = 0;
      this.retryAt = 0;
      this.droppingReported = false;
    }
  }

  /** The oldest rows, up to batchSize of them and maxBatchBytes of their bytes (at least one row). */
  private nextBatch(): Pending<T>[] {
    const maxBytes = this.options.maxBatchBytes ?? Infinity;
    const limit = Math.min(this.queue.length, this.options.batchSize);
    let count = 0;
    let bytes = 0;
    while (count < limit) {
      bytes += this.queue[count].bytes;
      if (count > 0 && bytes > maxBytes) break;
      count++;
    }
    return this.queue.slice(0, count);
  }

  private clearTimer(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
