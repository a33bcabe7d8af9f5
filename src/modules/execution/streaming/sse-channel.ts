import type { ServerResponse } from 'node:http';
import type { StreamBackpressure } from '../../llm/llm-client';

/** The comment an event stream sends after this long without an event, so proxies and clients keep it open. */
export const SSE_PING_AFTER_MS = 15_000;

/**
 * After a write, the events that follow within this long wait and go out together at its end: each write to the
 * connection is a system call, the largest cost of a stream of many small pieces, and a reader cannot tell pieces
 * 10 ms apart from pieces that came together. An event after a quiet spell (the first piece) and the end go out at
 * once.
 */
export const SSE_COALESCE_MS = 10;

/** One server-sent event: its name and one `data:` line of JSON (JSON text never holds a raw line break). */
export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The text of an event stream. Once `writeTo` hands it the connection's response, it writes straight to it: the events
 * due together (the pieces of one provider chunk, `start` with the first piece) are joined and written once, when the
 * code that sent them has run (a microtask later). Before that, or for a reader of the async iterable it also is, what
 * waits is sent together at the next read. Writes never block: while the connection's buffer is full, `backpressure`
 * says so and the provider's stream waits for it to drain (what the client takes nothing of, for
 * STREAM_WRITE_TIMEOUT_MS, gets the connection closed by the controller). The client going away (the connection
 * closing, or `return()`) ends the channel and runs `onClose` at once, even while the writer is between two events, so
 * the provider call behind it stops right away.
 */
export class SseChannel implements AsyncIterableIterator<string> {
  private readonly waiting: string[] = [];
  private reader: ((result: IteratorResult<string>) => void) | null = null;
  private ended = false;
  private closedByClient = false;
  private ping: NodeJS.Timeout;
  /** When the last text was written: the ping timer, when it fires, waits out a silence that began later. */
  private lastWriteMs = performance.now();
  private response: ServerResponse | null = null;
  private flushQueued = false;
  private flushTimer: NodeJS.Timeout | null = null;
  /** Until when what is written waits for the next write (see SSE_COALESCE_MS). */
  private holdUntilMs = 0;
  private written: (() => void) | null = null;
  /** The connection's buffer, for the provider's stream: full while the client has not taken what was written. */
  readonly backpressure: StreamBackpressure = {
    isFull: () => this.response?.writableNeedDrain === true,
    onceDrained: (resume) => {
      const response = this.response;
      if (!response) return resume();
      const done = () => {
        response.off('drain', done);
        response.off('close', done);
        resume();
      };
      response.on('drain', done);
      response.on('close', done);
    },
  };

  constructor(
    private readonly onClose: () => void,
    private readonly pingAfterMs = SSE_PING_AFTER_MS,
  ) {
    this.ping = this.pingIn(pingAfterMs);
  }

  /**
   * The ping timer: when it fires, a ping goes out if nothing was written for `pingAfterMs`, otherwise it is set again
   * for the rest of the silence (rather than reset at every event, a cost paid per piece).
   */
  private pingIn(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      if (this.ended) return;
      const silentMs = performance.now() - this.lastWriteMs;
      if (silentMs < this.pingAfterMs) {
        this.ping = this.pingIn(this.pingAfterMs - silentMs);
        return;
      }
      this.comment('ping');
      this.ping = this.pingIn(this.pingAfterMs);
    }, ms);
    // A stream that is never read to its end must not keep the process alive.
    timer.unref();
    return timer;
  }

  /** Whether the client went away before the stream ended. */
  get isClosedByClient(): boolean {
    return this.closedByClient;
  }

  send(name: string, data: unknown): void {
    this.write(sseEvent(name, data));
  }

  /** Ends the stream once what was written is sent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.ping);
    if (this.response) this.flush();
    else this.deliver();
  }

  /**
   * Writes the stream to `response` from now on: its head (status 200 and the headers set on it), what waited, then
   * each event as it comes. Resolves once the stream has ended and was handed to the connection, or the connection
   * closed first (the client left: `onClose` has run).
   */
  writeTo(response: ServerResponse): Promise<void> {
    this.response = response;
    const written = new Promise<void>((resolve) => (this.written = resolve));
    response.once('close', () => {
      if (!response.writableFinished) this.leave();
      this.written?.();
    });
    if (response.destroyed) {
      this.leave();
      this.written?.();
      return written;
    }
    response.writeHead(200);
    // The headers go out at once, with the events that waited, rather than with the first event to come.
    if (this.waiting.length === 0 && !this.ended) response.flushHeaders();
    else this.flush();
    return written;
  }

  next(): Promise<IteratorResult<string>> {
    if (this.waiting.length > 0) return Promise.resolve({ done: false, value: this.take() });
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => (this.reader = resolve));
  }

  return(): Promise<IteratorResult<string>> {
    this.leave();
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The client went away before the end: nothing more is written, and `onClose` runs. */
  private leave(): void {
    if (this.ended) return;
    this.closedByClient = true;
    this.end();
    this.waiting.length = 0;
    this.onClose();
  }

  private comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  private write(text: string): void {
    if (this.ended) return;
    this.waiting.push(text);
    this.lastWriteMs = performance.now();
    if (!this.response) {
      this.deliver();
      return;
    }
    if (this.flushQueued) return;
    this.flushQueued = true;
    const waitMs = this.holdUntilMs - this.lastWriteMs;
    // Due now: it goes with whatever else this turn sends (the pieces of one provider chunk, `start` with the first).
    if (waitMs <= 0) queueMicrotask(() => this.flush());
    else this.flushTimer = setTimeout(() => this.flush(), Math.ceil(waitMs));
  }

  /** What waits, written to the response in one piece; the response ended after it once the stream has. */
  private flush(): void {
    this.flushQueued = false;
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    const response = this.response!;
    if (response.destroyed) return;
    if (this.waiting.length > 0) {
      response.write(this.take());
      this.holdUntilMs = performance.now() + SSE_COALESCE_MS;
    }
    if (this.ended && !response.writableEnded) response.end(() => this.written?.());
  }

  private deliver(): void {
    const reader = this.reader;
    if (!reader) return;
    if (this.waiting.length > 0) {
      this.reader = null;
      reader({ done: false, value: this.take() });
    } else if (this.ended) {
      this.reader = null;
      reader({ done: true, value: undefined });
    }
  }

  private take(): string {
    const text = this.waiting.length === 1 ? this.waiting[0] : this.waiting.join('');
    this.waiting.length = 0;
    return text;
  }
}
