import { Inject, Injectable } from '@nestjs/common';
import { ConcurrencyLimitError } from '../../../common/errors/app-error';
import { describeFailure } from '../../../common/http/error-mapping';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { type ExecutionAnswer, type ExecutionOutcome, toExecutionAnswer, totalsOf } from '../execution-outcome';
import type { ApiCall } from '../execution-call';
import { ExecutionService } from '../execution.service';
import { ExecutionStreamSink, type StreamOpening, type StreamStart } from './execution-stream-sink';
import { OpenStreams } from './open-streams';
import { SseChannel } from './sse-channel';

/** A streamed answer: its headers and the text of its event stream. */
export interface StreamedAnswer {
  headers: Record<string, string>;
  events: AsyncIterableIterator<string>;
  /** The connection of the stream closed (answered or not): the key may open another stream in its place. */
  closed: () => void;
}

/** When a key that has all the streams it may open can try again: streams usually end within seconds. */
const STREAM_LIMIT_RETRY_AFTER_SECONDS = 1;

/**
 * Streamed executions. A call that fails before its model is called (validation, prompt selection, rendering, the
 * prompt's settings) gets the usual JSON answer. Otherwise the answer is an event stream: `start`, the pieces of the
 * answer (`delta` for raw text, `partial` for the object so far), then `done` with exactly the body the same call gets
 * without streaming, or `error`. A cache hit is replayed as `start`, one piece and `done`.
 */
@Injectable()
export class ExecutionStreamService {
  private readonly openStreams: OpenStreams;

  constructor(
    private readonly execution: ExecutionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.openStreams = new OpenStreams(config.maxStreamsPerKey);
  }

  /** How long a stream may wait on a client that reads nothing of it before it is closed. */
  get writeTimeoutMs(): number {
    return this.config.streamWriteTimeoutMs;
  }

  /**
   * `onOutcome` is told the call's outcome once it is known, before the answer (or the stream) ends. A key with
   * MAX_STREAMS_PER_KEY streams open on this instance is refused (429) before anything else is done.
   */
  async open(
    call: Omit<ApiCall, 'observer'>,
    onOutcome: (outcome: ExecutionOutcome) => void = () => undefined,
  ): Promise<ExecutionAnswer | StreamedAnswer> {
    const closed = this.openStreams.open(call.principal.keyId);
    if (!closed) {
      throw new ConcurrencyLimitError(
        `This key already has ${this.openStreams.maxPerKey} event streams open: wait for one to end`,
        STREAM_LIMIT_RETRY_AFTER_SECONDS,
      );
    }
    try {
      const answer = await this.answer(call, onOutcome);
      if ('events' in answer) return { ...answer, closed };
      closed();
      return answer;
    } catch (error) {
      closed();
      throw error;
    }
  }

  private async answer(
    call: Omit<ApiCall, 'observer'>,
    onOutcome: (outcome: ExecutionOutcome) => void,
  ): Promise<ExecutionAnswer | Omit<StreamedAnswer, 'closed'>> {
    let opened: (opening: StreamOpening) => void = () => undefined;
    const reachedModel = new Promise<StreamOpening>((resolve) => (opened = resolve));
    const sink = new ExecutionStreamSink(
      {
        open: (opening) => opened(opening),
        start: (start: StreamStart) => channel.send('start', { requestId: call.requestId, ...start }),
        send: (name, data) => channel.send(name, data),
      },
      call.definition.outputFields.length > 0,
      call.departure,
    );
    const channel = new SseChannel(() => sink.clientLeft());
    const running = this.execution.run({ ...call, observer: sink }).then((outcome) => {
      onOutcome(outcome);
      return outcome;
    });
    const first = await Promise.race([reachedModel, running]);
    if ('status' in first) {
      // A failure before the model was called is the plain JSON answer.
      channel.end();
      return toExecutionAnswer(first);
    }
    void running.then((outcome) => finish(channel, sink, outcome));
    return { headers: headersOf(first), events: channel };
  }
}

/** `done` with the body the plain call answers, or `error`; then the stream ends. */
function finish(channel: SseChannel, sink: ExecutionStreamSink, outcome: ExecutionOutcome): void {
  sink.flushStart();
  if (outcome.status === 'success') {
    const { usage, costUsd } = totalsOf(outcome.attempts);
    channel.send('done', {
      output: outcome.body,
      // A cache hit spent nothing.
      usage: { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 },
      costUsd: costUsd ?? (outcome.cache === 'HIT' ? 0 : null),
      finishReason: outcome.finishReason ?? null,
    });
  } else {
    const failure = describeFailure(outcome.error);
    channel.send('error', { error: failure.error, message: failure.message });
  }
  channel.end();
}

function headersOf({ cache, prompt }: StreamOpening): Record<string, string> {
  return {
    'X-Prompt': prompt,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    // Proxies that buffer answers (nginx) pass this one through as it comes.
    'X-Accel-Buffering': 'no',
    ...(cache ? { 'X-Cache': cache } : {}),
  };
}
