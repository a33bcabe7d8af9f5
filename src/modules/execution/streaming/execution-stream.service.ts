import { Injectable } from '@nestjs/common';
import { describeFailure } from '../../../common/http/error-mapping';
import type { EndpointDefinition } from '../../endpoints/endpoint-definition';
import { type ExecutionAnswer, type ExecutionOutcome, toExecutionAnswer, totalsOf } from '../execution-outcome';
import { type ExecutionCall, ExecutionService } from '../execution.service';
import { ExecutionStreamSink, type StreamStart } from './execution-stream-sink';
import { SseChannel } from './sse-channel';

/** A streamed answer: its headers and the text of its event stream. */
export interface StreamedAnswer {
  headers: Record<string, string>;
  events: AsyncIterableIterator<string>;
}

/**
 * Streamed executions. A call that fails before its model is called (validation, prompt selection, rendering, the
 * prompt's settings) gets the usual JSON answer. Otherwise the answer is an event stream: `start`, the pieces of the
 * answer (`delta` for raw text, `partial` for the object so far), then `done` with exactly the body the same call gets
 * without streaming, or `error`. A cache hit is replayed as `start`, one piece and `done`.
 */
@Injectable()
export class ExecutionStreamService {
  constructor(private readonly execution: ExecutionService) {}

  async open(call: Omit<ExecutionCall, 'stream'>): Promise<ExecutionAnswer | StreamedAnswer> {
    let modelCalled: () => void = () => undefined;
    const reachedModel = new Promise<void>((resolve) => (modelCalled = resolve));
    const sink = new ExecutionStreamSink({
      start: (start: StreamStart) => {
        channel.send('start', { requestId: call.requestId, ...start, cached: false });
        modelCalled();
      },
      send: (name, data) => channel.send(name, data),
    });
    const channel = new SseChannel(() => sink.clientLeft());
    const running = this.execution.run({ ...call, stream: sink });
    const outcome = await Promise.race([reachedModel.then(() => null), running]);
    if (!sink.started && outcome) {
      // Answered without calling a model: a failure before the call is a plain JSON answer; a cache hit is replayed.
      if (outcome.status === 'error') {
        channel.end();
        return toExecutionAnswer(outcome);
      }
      this.replay(channel, call, outcome);
      return { headers: headersOf(outcome.cache), events: channel };
    }
    void running.then((settled) => this.finish(channel, settled));
    return { headers: headersOf(cacheStatusOf(call)), events: channel };
  }

  /** A cached answer as a short stream: `start`, the whole answer as one piece, and `done`. */
  private replay(channel: SseChannel, call: Omit<ExecutionCall, 'stream'>, outcome: ExecutionOutcome): void {
    const { prompt } = outcome;
    channel.send('start', {
      requestId: call.requestId,
      promptId: prompt?.id ?? null,
      promptVersion: prompt?.version ?? null,
      llmModel: prompt?.llmModel ?? null,
      cached: true,
    });
    if (outcome.status === 'success') {
      if (hasOutputFields(call.definition)) channel.send('partial', { output: outcome.body });
      else channel.send('delta', { text: outcome.rawResponse ?? textOf(outcome.body) });
    }
    this.finish(channel, outcome);
  }

  private finish(channel: SseChannel, outcome: ExecutionOutcome): void {
    if (outcome.status === 'success') {
      const { usage, costUsd } = totalsOf(outcome.attempts);
      channel.send('done', {
        output: outcome.body,
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
}

function headersOf(cache: string | null): Record<string, string> {
  return {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    // Proxies that buffer answers (nginx) pass this one through as it comes.
    'X-Accel-Buffering': 'no',
    ...(cache ? { 'X-Cache': cache } : {}),
  };
}

/**
 * The cache status of a call that reached its model: it was looked up and missed, or not looked up at all (bypassed, or
 * caching off on the endpoint).
 */
function cacheStatusOf(call: Omit<ExecutionCall, 'stream'>): string | null {
  if (!call.cache) return null;
  return call.definition.endpoint.cacheEnabled && !call.cache.bypass ? 'MISS' : 'BYPASS';
}

function hasOutputFields(definition: EndpointDefinition): boolean {
  return definition.outputFields.length > 0;
}

function textOf(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body);
}
