import { ClientClosedError, UpstreamTimeoutError } from '../../../common/errors/app-error';
import { exceedsJsonDepth } from '../../../common/http/json-depth';
import { ClientDeparture } from '../client-departure';
import type { ExecutionObserver } from '../execution-call';
import type { CacheStatus } from '../execution-outcome';
import type {
  LlmClient,
  StreamBackpressure,
  StreamedTextResult,
  TextRequest,
  TextStreamEvent,
} from '../../llm/llm-client';
import { PartialJson, sameJson } from './partial-json';

/** Partial objects are sent at most this often; the complete one comes with `done`. */
export const PARTIAL_INTERVAL_MS = 50;

/** What the `start` event names: the prompt version and the model that answers, and whether the cache answers. */
export interface StreamStart {
  promptId: string;
  promptVersion: number;
  llmModel: string;
  cached: boolean;
}

/** What the headers of an event stream say: how the cache took part and which prompt version answers. */
export interface StreamOpening {
  cache: CacheStatus | null;
  /** `<slug>@<version>`, as the X-Prompt header names it. */
  prompt: string;
}

/** The prompt version a streamed call runs, as the execution selected it. */
export interface StreamPrompt {
  id: string;
  version: number;
  slug: string;
}

/** Where a streamed execution's events go (the event stream of the HTTP answer). */
export interface StreamTarget {
  /** The model is about to be called (or the cache answers): from here the answer is an event stream. */
  open(opening: StreamOpening): void;
  start(start: StreamStart): void;
  send(name: 'delta' | 'partial', data: unknown): void;
  /** Full while the caller's connection has not taken what was sent: the provider's stream waits meanwhile. */
  readonly backpressure?: StreamBackpressure;
}

/**
 * One streamed execution, as its observer: told of each model call it makes (`attempt`), then fed the pieces of the
 * answer. The event stream opens at the first model call; `start` goes out with the first piece (or
 * before `done` or `error` when there is none), naming the model that produced it, so a model that failed over before
 * answering anything is never named. It sends deltas as they come and partial objects at most one per
 * PARTIAL_INTERVAL_MS, measures the time to the first piece, and aborts the provider call when the client leaves.
 *
 * The JSON text of a structured answer is read as it comes (PartialJson keeps its place between pieces), and the
 * object so far is built only when a partial is due: a stream costs work in proportion to its answer, however many
 * pieces it comes in, rather than a parse of the whole text at every piece.
 */
export class ExecutionStreamSink implements ExecutionObserver {
  /** The answer is passed on as it comes. */
  readonly streams = true;
  private startedMs = performance.now();
  private firstPieceMs: number | null = null;
  private isOpen = false;
  private cache: CacheStatus | null = null;
  private prompt: StreamPrompt | null = null;
  /** The `start` of the model called last, until it is sent. */
  private pendingStart: StreamStart | null = null;
  private lastPartialMs = -Infinity;
  /** A partial object received as such (a provider that builds them itself, a cache hit), until it is sent. */
  private pendingPartial: { output: unknown } | null = null;
  /** The JSON text of a structured answer, read so far; `changed` once more came since the object was last built. */
  private json = new PartialJson();
  private changed = false;
  private lastSent: unknown = undefined;
  private partialTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly target: StreamTarget,
    /** Whether the endpoint has output fields: its answer streams as partial objects rather than text. */
    private readonly structured: boolean,
    /** The caller going away (the connection closed, or a client that stopped reading). */
    private readonly departure = new ClientDeparture(),
  ) {
    departure.signal.addEventListener('abort', () => this.stop(), { once: true });
  }

  /** The caller's connection, full or not (see StreamTarget). */
  get backpressure(): StreamBackpressure | undefined {
    return this.target.backpressure;
  }

  /** Aborted when the client goes away. */
  get clientSignal(): AbortSignal {
    return this.departure.signal;
  }

  /** What the call failed with when the client left first. */
  get clientClosed(): ClientClosedError {
    const reason: unknown = this.departure.signal.reason;
    return reason instanceof ClientClosedError
      ? reason
      : new ClientClosedError('The client closed the connection before the answer was complete');
  }

  /** Whether the answer is an event stream (the model was called, or the cache answered). */
  get started(): boolean {
    return this.isOpen;
  }

  /** Whether a piece of an answer was sent: from then on the call cannot fail over to another attempt. */
  get hasContent(): boolean {
    return this.firstPieceMs !== null;
  }

  /**
   * Measures the time to the first piece from `startedMs` (a performance.now() reading): the execution's own start,
   * so that it is never longer than the execution's latency. The sink's creation until then.
   */
  executionStarted(startedMs: number): void {
    this.startedMs = startedMs;
  }

  /** Milliseconds from the start of the call to the first delta or partial sent (null when none was). */
  get ttftMs(): number | null {
    return this.firstPieceMs === null ? null : Math.round(this.firstPieceMs - this.startedMs);
  }

  /** The prompt version that answers, and how the response cache took part (see CacheStatus). */
  selected(prompt: StreamPrompt, cache: CacheStatus | null): void {
    this.prompt = prompt;
    this.cache = cache;
  }

  /** `llmModel` is about to be called (each attempt): the stream opens at the first. */
  attempt(llmModel: string): void {
    if (!this.prompt) throw new Error('The prompt of a streamed call is selected before its model is called');
    this.pendingStart = { promptId: this.prompt.id, promptVersion: this.prompt.version, llmModel, cached: false };
    // Each attempt's answer is read from its own beginning.
    this.json = new PartialJson();
    this.open();
  }

  /**
   * A cached answer of `llmModel`, replayed as `start` and the whole answer in one piece (`done` follows with the
   * outcome). `text` is the model's raw text, `output` the body answered.
   */
  replay(llmModel: string, text: string, output: unknown): void {
    if (!this.prompt) throw new Error('The prompt of a streamed call is selected before the cache answers');
    this.pendingStart = { promptId: this.prompt.id, promptVersion: this.prompt.version, llmModel, cached: true };
    this.cache = 'HIT';
    this.open();
    this.piece(this.structured ? { type: 'partial', output } : { type: 'delta', text });
  }

  /** The cache answered: its answer is replayed (see replay). */
  cacheHit(llmModel: string, text: string, output: unknown): void {
    this.replay(llmModel, text, output);
  }

  /** An attempt's text call, streamed: its pieces are passed on as they come (see streamGeneration). */
  text(
    client: LlmClient,
    request: TextRequest,
    llmModel: string,
    firstPieceWithin: { ms: number; message: string } | undefined,
  ): Promise<StreamedTextResult> {
    return streamGeneration(client, request, this, llmModel, firstPieceWithin);
  }

  /** A failed attempt fails over only before a piece of an answer was sent. */
  mayFailOver(): boolean {
    return !this.hasContent;
  }

  /** The log row of a call answered as an event stream (a failure before the model was called is not). */
  logged(): { ttftMs: number | null } | undefined {
    return this.isOpen ? { ttftMs: this.ttftMs } : undefined;
  }

  /** Sends `start` if no piece did (before `done` or `error`). */
  flushStart(): void {
    if (!this.pendingStart) return;
    this.target.start(this.pendingStart);
    this.pendingStart = null;
  }

  /** The client left: the provider call is aborted. */
  clientLeft(): void {
    this.departure.left();
  }

  /** No more pieces: a partial still waiting is dropped (`done` carries the whole object). */
  stop(): void {
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = null;
    this.pendingPartial = null;
    this.changed = false;
  }

  /**
   * The next piece of the answer. The raw text of an endpoint without output fields goes out at once as a delta; the
   * JSON text of a structured answer is read, and a partial object is sent when one is due.
   */
  piece(event: TextStreamEvent): void {
    if (this.departure.signal.aborted) return;
    if (event.type === 'delta') {
      if (event.text === '') return;
      if (this.structured) {
        this.json.push(event.text);
        this.changed = true;
        this.partialDue();
        return;
      }
      this.sent();
      this.target.send('delta', { text: event.text });
      return;
    }
    this.pendingPartial = { output: event.output };
    this.partialDue();
  }

  private open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    const prompt = this.prompt ? `${this.prompt.slug}@${this.prompt.version}` : '';
    this.target.open({ cache: this.cache, prompt });
  }

  /** A partial object is sent now if the last one is PARTIAL_INTERVAL_MS old, otherwise when it is. */
  private partialDue(): void {
    const waitMs = this.lastPartialMs + PARTIAL_INTERVAL_MS - performance.now();
    if (waitMs <= 0) this.flushPartial();
    // Timers count whole milliseconds: rounded down, the wait could end a fraction early.
    else this.partialTimer ??= setTimeout(() => this.flushPartial(), Math.ceil(waitMs));
  }

  private flushPartial(): void {
    // A piece read while the timer was due can flush first: the timer must not send a second partial right after.
    if (this.partialTimer) clearTimeout(this.partialTimer);
    this.partialTimer = null;
    const pending = this.pendingPartial;
    if (pending) {
      this.pendingPartial = null;
      this.sendPartial(pending.output);
      return;
    }
    if (!this.changed) return;
    this.changed = false;
    // The object is built at most once per interval, whether or not it goes out: a text that is not (yet) an object
    // is not parsed again at every piece.
    this.lastPartialMs = performance.now();
    const output = this.json.value();
    // Only objects go out, each one once: text before the JSON, or a piece that adds nothing to it, sends nothing.
    // Nor does one nested deeper than an answer may be (once complete, such an answer is a 502).
    if (typeof output !== 'object' || output === null || exceedsJsonDepth(output)) return;
    if (!sameJson(output, this.lastSent)) this.sendPartial(output);
  }

  private sendPartial(output: unknown): void {
    this.lastPartialMs = performance.now();
    this.lastSent = output;
    this.sent();
    this.target.send('partial', { output });
  }

  /** A piece is about to be sent: `start` goes first. */
  private sent(): void {
    this.flushStart();
    this.firstPieceMs ??= performance.now();
  }
}

/**
 * The provider call of one streamed attempt: the sink is told of it, then fed the pieces as they arrive. The call stops
 * when the deadline's signal or the client's fires; a client that left is reported as such, whatever the provider
 * answered. With `firstPieceWithin`, an attempt that sends no piece in that time is aborted and fails with `message`
 * (a timeout, which fails over), while one that is answering keeps the time of the deadline's signal.
 */
export async function streamGeneration(
  client: LlmClient,
  request: TextRequest,
  sink: ExecutionStreamSink,
  llmModel: string,
  firstPieceWithin?: { ms: number; message: string },
): Promise<StreamedTextResult> {
  // One controller that the deadline, the client and the first-piece timer each abort (with their own reason), rather
  // than a composite signal per attempt.
  const stopping = new AbortController();
  let noFirstPiece: UpstreamTimeoutError | undefined;
  const timer = firstPieceWithin
    ? setTimeout(() => {
        noFirstPiece = new UpstreamTimeoutError(firstPieceWithin.message);
        stopping.abort(noFirstPiece);
      }, firstPieceWithin.ms)
    : undefined;
  const sources = [request.abortSignal, sink.clientSignal];
  const stop = function (this: AbortSignal) {
    stopping.abort(this.reason);
  };
  for (const source of sources) {
    if (source.aborted) stopping.abort(source.reason);
    else source.addEventListener('abort', stop, { once: true });
  }
  sink.attempt(llmModel);
  try {
    const backpressure = sink.backpressure;
    const streamed = { ...request, abortSignal: stopping.signal, ...(backpressure ? { backpressure } : {}) };
    let waitingForFirst = timer !== undefined;
    return await client.streamText(streamed, (event) => {
      if (waitingForFirst) {
        waitingForFirst = false;
        clearTimeout(timer);
      }
      sink.piece(event);
    });
  } catch (error) {
    if (sink.clientSignal.aborted) throw sink.clientClosed;
    if (noFirstPiece) throw noFirstPiece;
    throw error;
  } finally {
    clearTimeout(timer);
    for (const source of sources) source.removeEventListener('abort', stop);
    sink.stop();
  }
}
