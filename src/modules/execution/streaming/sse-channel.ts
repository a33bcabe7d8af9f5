/** The comment an event stream sends after this long without an event, so proxies and clients keep it open. */
export const SSE_PING_AFTER_MS = 15_000;

/** One server-sent event: its name and one `data:` line of JSON (JSON text never holds a raw line break). */
export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The text of an event stream as an async iterable, which the HTTP layer reads when the connection can take more
 * (what waits is sent together at the next read). Writes never block: what waits is bounded by the model's output,
 * and by the time a client may read nothing (STREAM_WRITE_TIMEOUT_MS: the controller then closes the connection).
 * `return()`, called when the client goes away, ends the channel and runs `onClose` at once, even while the writer is
 * between two events, so the provider call behind it stops right away.
 */
export class SseChannel implements AsyncIterableIterator<string> {
  private readonly waiting: string[] = [];
  private reader: ((result: IteratorResult<string>) => void) | null = null;
  private ended = false;
  private closedByClient = false;
  private readonly ping: NodeJS.Timeout;

  constructor(
    private readonly onClose: () => void,
    pingAfterMs = SSE_PING_AFTER_MS,
  ) {
    this.ping = setTimeout(() => this.comment('ping'), pingAfterMs);
    // A stream that is never read to its end must not keep the process alive.
    this.ping.unref();
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
    this.deliver();
  }

  next(): Promise<IteratorResult<string>> {
    if (this.waiting.length > 0) return Promise.resolve({ done: false, value: this.take() });
    if (this.ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => (this.reader = resolve));
  }

  return(): Promise<IteratorResult<string>> {
    if (!this.ended) {
      this.closedByClient = true;
      this.end();
      this.waiting.length = 0;
      this.onClose();
    }
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  private write(text: string): void {
    if (this.ended) return;
    this.waiting.push(text);
    this.ping.refresh();
    this.deliver();
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
