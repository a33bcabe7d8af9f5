import { Inject, Injectable } from '@nestjs/common';
import { ConcurrencyLimitError } from '../../../common/errors/app-error';
import { closeWhenStalled, onConnectionClose } from '../../../common/http/connection-watch';
import { describeFailure } from '../../../common/http/error-mapping';
import { type HttpResponseLike, setHeader, takeOverResponse } from '../../../common/http/http-context';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { type ExecutionAnswer, type ExecutionOutcome, toExecutionAnswer, totalsOf } from '../execution-outcome';
import type { ApiCall, TestRunCall } from '../execution-call';
import { ExecutionService, type LoggedOutcome, testRunAnswer } from '../execution.service';
import type { ClientDeparture } from '../client-departure';
import { ExecutionStreamSink, type StreamOpening, type StreamStart } from './execution-stream-sink';
import { OpenStreams } from './open-streams';
import { SseChannel } from './sse-channel';

/** A streamed answer: its headers and the text of its event stream. */
export interface StreamedAnswer {
  headers: Record<string, string>;
  /** The events, written to the connection once it is handed over (SseChannel.writeTo). */
  events: SseChannel;
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

  /**
   * Writes an opened stream straight to its connection, and returns once it has ended (an answer written already,
   * which the adapter then leaves alone): the answer's headers, its connection's close freeing the key's stream, and a
   * client that reads nothing for STREAM_WRITE_TIMEOUT_MS closed as a departure (its provider call stopped).
   */
  async writeOn(response: HttpResponseLike, answer: StreamedAnswer, departure: ClientDeparture): Promise<void> {
    onConnectionClose(response, answer.closed);
    const timeoutMs = this.config.streamWriteTimeoutMs;
    closeWhenStalled(response, timeoutMs, () => departure.stalled(timeoutMs));
    for (const name in answer.headers) setHeader(response, name, answer.headers[name]);
    await answer.events.writeTo(takeOverResponse(response));
  }

  /**
   * `onOutcome` is told the call's outcome once it is known, before the answer (or the stream) ends. A key with
   * MAX_STREAMS_PER_KEY streams open on this instance is refused (429) before anything else is done.
   */
  async open(
    call: Omit<ApiCall, 'observer'>,
    onOutcome: (outcome: ExecutionOutcome) => void = () => undefined,
  ): Promise<ExecutionAnswer | StreamedAnswer> {
    const answer = await this.opened(call, {
      run: async (observer) => {
        const outcome = await this.execution.run({ ...call, observer });
        onOutcome(outcome);
        return outcome;
      },
      startOf: (start) => ({ requestId: call.requestId, ...start }),
      finish: (channel, outcome) => finish(channel, outcome),
    });
    return 'events' in answer ? answer : toExecutionAnswer(answer.unopened);
  }

  /**
   * A test run as an event stream: the events of a streamed execution, except that `done` carries what the plain test
   * run answers (the body, the rendered prompt, the version, cost, latency, the log row) and `error` names the run's
   * log row too. `start` names no prompt for unsaved text. A run that fails before its model is called is not a
   * stream: its log row and error are in `unopened`.
   */
  async openTestRun(
    call: StreamableCall & Omit<TestRunCall, 'observer'>,
  ): Promise<StreamedAnswer | { unopened: LoggedOutcome }> {
    const unsaved = 'unsaved' in call.prompt;
    return this.opened(call, {
      run: (observer) => this.execution.runTest({ ...call, observer }),
      startOf: (start) => ({
        requestId: call.requestId,
        ...start,
        ...(unsaved ? { promptId: null, promptVersion: null } : {}),
      }),
      finish: (channel, run) => {
        if (run.outcome.status === 'success') channel.send('done', testRunAnswer(run));
        else {
          const failure = describeFailure(run.outcome.error);
          channel.send('error', { error: failure.error, message: failure.message, logId: run.logId });
        }
      },
    });
  }

  /** Counts the stream against its key's open streams (released when its connection closes), then runs it. */
  private async opened<R>(call: StreamableCall, how: StreamRun<R>): Promise<StreamedAnswer | { unopened: R }> {
    const closed = this.openStreams.open(call.principal.keyId);
    if (!closed) {
      throw new ConcurrencyLimitError(
        `This key already has ${this.openStreams.maxPerKey} event streams open: wait for one to end`,
        STREAM_LIMIT_RETRY_AFTER_SECONDS,
      );
    }
    try {
      const answer = await this.answer(call, how);
      if ('events' in answer) return { ...answer, closed };
      closed();
      return answer;
    } catch (error) {
      closed();
      throw error;
    }
  }

  private async answer<R>(
    call: StreamableCall,
    how: StreamRun<R>,
  ): Promise<Omit<StreamedAnswer, 'closed'> | { unopened: R }> {
    let opened: (opening: StreamOpening) => void = () => undefined;
    const reachedModel = new Promise<StreamOpening>((resolve) => (opened = resolve));
    const channel = new SseChannel(() => sink.clientLeft());
    const sink = new ExecutionStreamSink(
      {
        open: (opening) => opened(opening),
        start: (start: StreamStart) => channel.send('start', how.startOf(start)),
        send: (name, data) => channel.send(name, data),
        backpressure: channel.backpressure,
      },
      call.definition.outputFields.length > 0,
      call.departure,
    );
    const running = how.run(sink).then((result) => ({ result }));
    const first = await Promise.race([reachedModel, running]);
    if ('result' in first) {
      // A failure before the model was called is not a stream.
      channel.end();
      return { unopened: first.result };
    }
    void running.then(
      ({ result }) => {
        sink.flushStart();
        how.finish(channel, result);
        channel.end();
      },
      () => channel.end(),
    );
    return { headers: headersOf(first), events: channel };
  }
}

/** What a stream runs (its execution, with the sink as observer), how its `start` reads and how it ends. */
interface StreamRun<R> {
  run: (observer: ExecutionStreamSink) => Promise<R>;
  startOf: (start: StreamStart) => object;
  finish: (channel: SseChannel, result: R) => void;
}

/** The calls that may stream: the execution API's and the test runner's. */
type StreamableCall = Omit<ApiCall | TestRunCall, 'observer'> & { departure?: ClientDeparture };

/** `done` with the body the plain call answers, or `error`. */
function finish(channel: SseChannel, outcome: ExecutionOutcome): void {
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
