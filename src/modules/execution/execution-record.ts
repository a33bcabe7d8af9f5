import type { PromptAssignment } from '../logs/new-execution-log';
import type { ExecutablePrompt } from '../prompts/executable-prompt';
import { type ExecutionCall, type ExecutionObserver, NO_OBSERVER } from './execution-call';
import type { CacheStatus, ExecutionAttempt, ExecutionOutcome } from './execution-outcome';
import type { ValidatedInputs } from './input-validation';
import type { LoggedMessage } from './prompt-messages';
import type { ChatMessage } from '../llm/llm-client';

/**
 * What one execution knows so far: each stage fills in its fields, in order, and the record turns into the outcome
 * (`outcome()`) however far it got. A field is null until its stage ran.
 */
export class ExecutionRecord {
  /** When the execution started: its log row's createdAt; its latency and the endpoint's timeout are measured from it. */
  readonly startedAt = new Date();
  /** The performance.now() reading of the start, the origin of every duration of the execution. */
  readonly startedMs = performance.now();
  readonly observer: ExecutionObserver;
  /** Aborted when the caller goes away (Api calls). */
  readonly gone: AbortSignal | undefined;

  // validate
  inputs: ValidatedInputs | null = null;
  // select the prompt
  prompt: ExecutablePrompt | null = null;
  assignment: PromptAssignment | null = null;
  // cache lookup: the key when the cache takes part (null otherwise), and how it took part
  cacheKey: string | null = null;
  cache: CacheStatus | null = null;
  // render: the whole text, its messages as logged, and as sent (with the image parts)
  renderedPrompt: string | null = null;
  renderedMessages: LoggedMessage[] | null = null;
  messages: ChatMessage[] | null = null;
  // attempts: every model call made, and the position in the plan of the one that answered
  readonly attempts: ExecutionAttempt[] = [];
  answeredPosition = -1;
  /** The provider-call slot held from the first attempt's reserve to the end of the attempts. */
  releaseSlot: (() => void) | null = null;
  // the answer
  body: unknown = null;
  rawResponse: string | null = null;
  parsedOutput: unknown = null;
  finishReason: string | null = null;
  /** Set when the execution failed (and `failed` true: the error may be any value). */
  error: unknown = null;
  failed = false;

  constructor(call: ExecutionCall) {
    this.observer = call.observer ?? NO_OBSERVER;
    this.gone = call.kind === 'api' ? call.departure?.signal : undefined;
  }

  elapsedMs(): number {
    return performance.now() - this.startedMs;
  }

  /** The execution failed with `error`: what was known when it failed is kept, the answer is not. */
  fail(error: unknown, rawResponse: string | null = null): void {
    this.failed = true;
    this.error = error;
    this.rawResponse = rawResponse;
    this.parsedOutput = null;
  }

  /** The record as the outcome the answer and the log row are built from. */
  outcome(): ExecutionOutcome {
    const {
      startedAt,
      prompt,
      assignment,
      cache,
      renderedPrompt,
      renderedMessages,
      attempts,
      rawResponse,
      parsedOutput,
    } = this;
    const latencyMs = Math.round(this.elapsedMs());
    const detail = {
      startedAt,
      latencyMs,
      prompt,
      assignment,
      cache,
      renderedPrompt,
      renderedMessages,
      attempts,
      rawResponse,
      parsedOutput,
    };
    if (this.failed) return { status: 'error', error: this.error, ...detail };
    return { status: 'success', body: this.body, ...detail, finishReason: this.finishReason };
  }
}
