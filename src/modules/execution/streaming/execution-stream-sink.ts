import { ClientClosedError } from '../../../common/errors/app-error';
import type { LlmClient, StreamedTextResult, TextRequest, TextStreamEvent } from '../../llm/llm-client';

/** Partial objects are sent at most this often; the complete one comes with `done`. */
export const PARTIAL_INTERVAL_MS = 50;

/** What the `start` event names: the prompt version and model about to answer, and whether the cache answers. */
export interface StreamStart {
  promptId: string;
  promptVersion: number;
  llmModel: string;
  cached: boolean;
}

/** Where a streamed execution's events go (the event stream of the HTTP answer). */
export interface StreamTarget {
  start(start: StreamStart): void;
  send(name: 'delta' | 'partial', data: unknown): void;
}

/**
 * One streamed execution as the execution service sees it: told when the model is about to be called (`start`),
 * then fed the pieces of the answer. It sends deltas as they come and partial objects at most one per
 * PARTIAL_INTERVAL_MS, measures the time to the first piece, and aborts the provider call when the client leaves.
 */
export class ExecutionStreamSink {
  private readonly startedMs = performance.now();
  private readonly leaving = new AbortController();
  /** What the call failed with when the client left first. */
  readonly clientClosed = new ClientClosedError('The client closed the connection before the answer was complete');
  private firstPieceMs: number | null = null;
  private hasStarted = false;
  private lastPartialMs = -Infinity;
  private pendingPartial: { output: unknown } | null = null;
  private partialTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly target: StreamTarget,
    /** Whether the endpoint has output fields: its answer streams as partial objects rather than text. */
    private readonly structured: boolean,
  ) {}

  /** Aborted when the client goes away. */
  get clientSignal(): AbortSignal {
    return this.leaving.signal;
  }

  get started(): boolean {
    return this.hasStarted;
  }

  /** Milliseconds from the start of the call to the first delta or partial sent (null when none was). */
  get ttftMs(): number | null {
    return this.firstPieceMs === null ? null : Math.round(this.firstPieceMs - this.startedMs);
  }

  start(start: StreamStart): void {
    if (this.hasStarted) return;
    this.hasStarted = true;
    this.target.start(start);
  }

  /**
   * A cached answer, replayed as `start` and the whole answer in one piece (`done` follows with the outcome). `text` is
   * the model's raw text, `output` the body answered.
   */
  replay(start: StreamStart, text: string, output: unknown): void {
    this.start(start);
    this.piece(this.structured ? { type: 'partial', output } : { type: 'delta', text });
  }

  /** The client left: the provider call is aborted. */
  clientLeft(): void {
    this.stop();
    this.leaving.abort(this.clientClosed);
  }

  /** No more pieces: a partial still waiting is dropped (`done` carries the whole object). */
  stop(): void {
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = null;
    this.pendingPartial = null;
  }

  piece(event: TextStreamEvent): void {
    if (this.leaving.signal.aborted) return;
    if (event.type === 'delta') {
      if (event.text === '') return;
      this.sent();
      this.target.send('delta', { text: event.text });
      return;
    }
    this.pendingPartial = { output: event.output };
    const waitMs = this.lastPartialMs + PARTIAL_INTERVAL_MS - performance.now();
    if (waitMs <= 0) this.flushPartial();
    else this.partialTimer ??= setTimeout(() => this.flushPartial(), waitMs);
  }

  private flushPartial(): void {
    this.partialTimer = null;
    const pending = this.pendingPartial;
    if (!pending) return;
    this.pendingPartial = null;
    this.lastPartialMs = performance.now();
    this.sent();
    this.target.send('partial', pending);
  }

  private sent(): void {
    this.firstPieceMs ??= performance.now();
  }
}

/**
 * The provider call of a streamed execution: `start` is sent, then the pieces as they arrive. The call stops when the
 * deadline's signal or the client's fires; a client that left is reported as such, whatever the provider answered.
 */
export async function streamGeneration(
  client: LlmClient,
  request: TextRequest,
  sink: ExecutionStreamSink,
  start: Omit<StreamStart, 'cached'>,
): Promise<StreamedTextResult> {
  const abortSignal = AbortSignal.any([request.abortSignal, sink.clientSignal]);
  sink.start({ ...start, cached: false });
  try {
    return await client.streamText({ ...request, abortSignal }, (event) => sink.piece(event));
  } catch (error) {
    if (sink.clientSignal.aborted) throw sink.clientClosed;
    throw error;
  } finally {
    sink.stop();
  }
}
