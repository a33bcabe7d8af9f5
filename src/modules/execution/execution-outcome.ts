import type { Tags } from '../../common/tags/tags';
import type { Principal } from '../../common/auth/principal';
import { AppError, UpstreamTimeoutError } from '../../common/errors/app-error';
import { describeFailure } from '../../common/http/error-mapping';
import type { InputField } from '../endpoints/endpoint-definition';
import { ProviderError, type TokenUsage } from '../llm/llm-client';
import type { ExecutionSource, LoggedAttempt, NewExecutionLog, PromptAssignment } from '../logs/new-execution-log';
import type { ExecutablePrompt } from '../prompts/executable-prompt';
import type { LoggedMessage } from './prompt-messages';

/**
 * HIT = answered from the cache; MISS = looked up, not found, the fresh answer stored; BYPASS = the cache was not read
 * (x-cache-bypass: true, which still stores the fresh answer, or caching is off on the endpoint).
 */
export type CacheStatus = 'HIT' | 'MISS' | 'BYPASS';

/** One call to the model: its model, how long it took, how it ended, and what the provider reported. */
export interface ExecutionAttempt {
  llmModel: string;
  latencyMs: number;
  outcome: 'success' | 'error' | 'timeout';
  /**
   * Null when it succeeded; the provider's HTTP status when it answered with an error (429, 503, …), otherwise the
   * status the failure answers (502 unreachable or an unusable answer, 504 out of time).
   */
  httpStatus: number | null;
  errorMessage: string | null;
  usage: TokenUsage;
  costUsd: number | null;
}

interface OutcomeDetail {
  startedAt: Date;
  latencyMs: number;
  /** The prompt that ran (null when the execution failed before one was selected). */
  prompt: ExecutablePrompt | null;
  /** How the prompt was assigned: the default, pinned (`?prompt=`, a test run) or the traffic split; null with none. */
  assignment: PromptAssignment | null;
  /** Api executions only (null for test runs and MCP, which never use the cache, or a failure before the lookup). */
  cache: CacheStatus | null;
  renderedPrompt: string | null;
  /** The messages the rendered prompt made (null when it did not render). */
  renderedMessages: LoggedMessage[] | null;
  rawResponse: string | null;
  parsedOutput: unknown;
  /** The model calls made: none on a cache hit or a failure before the call. */
  attempts: ExecutionAttempt[];
  /** Why the model stopped, when it answered and said (a cache hit: what the cached answer's model said). */
  finishReason?: string | null;
}

/**
 * What one execution did, whatever its result: the HTTP answer (`toExecutionAnswer`) and the execution log row
 * (`toExecutionLog`) are both built from it, so they cannot disagree.
 */
export type ExecutionOutcome =
  (OutcomeDetail & { status: 'success'; body: unknown }) | (OutcomeDetail & { status: 'error'; error: unknown });

/** Who ran the execution and with what, as the log row records it. */
export interface ExecutionOrigin {
  principal: Principal;
  /** The request's tags over its key's default tags. */
  tags: Tags;
  /** Streamed calls: the time to the first piece of the answer (null when none was sent); absent for plain calls. */
  stream?: { ttftMs: number | null };
  endpointId: string;
  source: ExecutionSource;
  requestId: string;
  /** The body as logged (see loggableInputs). */
  inputs: unknown;
}

/**
 * The execution API's answer: the JSON text of the body with its headers, or the error (with the same headers) that
 * the execution surface's filter renders, with the status it maps the error to.
 */
export type ExecutionAnswer =
  { headers: Record<string, string>; body: string } | { headers: Record<string, string>; error: unknown };

export function toExecutionAnswer(outcome: ExecutionOutcome): ExecutionAnswer {
  const headers: Record<string, string> = outcome.cache ? { 'X-Cache': outcome.cache } : {};
  const model = modelOf(outcome);
  // Once a model was called, or answered from the cache: which model answered (or failed last) and how many calls.
  if (model !== null && (outcome.attempts.length > 0 || outcome.cache === 'HIT')) {
    headers['X-Model'] = model;
    headers['X-Attempts'] = String(outcome.attempts.length);
  }
  // Which prompt version answered (or failed), whenever one was selected: `<slug>@<version>`.
  if (outcome.prompt) headers['X-Prompt'] = `${outcome.prompt.slug}@${outcome.prompt.version}`;
  if (outcome.status === 'success') return { headers, body: JSON.stringify(outcome.body) };
  return { headers, error: outcome.error };
}

/** The log row of an execution: a failure is logged with what was known when it failed. */
export function toExecutionLog(outcome: ExecutionOutcome, origin: ExecutionOrigin): NewExecutionLog {
  const { principal } = origin;
  const { prompt } = outcome;
  const { usage, costUsd } = totalsOf(outcome.attempts);
  return {
    tenantId: principal.tenantId,
    endpointId: origin.endpointId,
    // An unsaved prompt of a test run is no row: its run is logged without a prompt.
    promptId: prompt && !prompt.unsaved ? prompt.id : null,
    promptVersion: prompt && !prompt.unsaved ? prompt.version : null,
    assignment: outcome.assignment,
    source: origin.source,
    keyId: principal.keyId,
    // Executions with an admin key have keyEnvironment null.
    keyEnvironment: principal.type === 'admin' ? null : principal.environment,
    requestId: origin.requestId,
    ...resultOf(outcome),
    cached: outcome.cache === 'HIT',
    llmModel: modelOf(outcome),
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd,
    latencyMs: outcome.latencyMs,
    streamed: origin.stream !== undefined,
    ttftMs: origin.stream?.ttftMs ?? null,
    finishReason: outcome.finishReason ?? null,
    inputs: origin.inputs,
    renderedPrompt: outcome.renderedPrompt,
    renderedMessages: outcome.renderedMessages,
    rawResponse: outcome.rawResponse,
    parsedOutput: outcome.parsedOutput,
    attempts: outcome.attempts.map(toLoggedAttempt),
    tags: origin.tags,
    createdAt: outcome.startedAt,
  };
}

/**
 * The model that answered (a fallback's when one did), or whose failure is the answer; before any call, the prompt's
 * (a cache hit holds an answer of the prompt's own model: fallback answers are never cached).
 */
function modelOf(outcome: ExecutionOutcome): string | null {
  return outcome.attempts.at(-1)?.llmModel ?? outcome.prompt?.llmModel ?? null;
}

function toLoggedAttempt(attempt: ExecutionAttempt): LoggedAttempt {
  return {
    llmModel: attempt.llmModel,
    latencyMs: attempt.latencyMs,
    outcome: attempt.outcome,
    httpStatus: attempt.httpStatus,
    errorMessage: attempt.errorMessage,
    inputTokens: attempt.usage.inputTokens,
    outputTokens: attempt.usage.outputTokens,
    costUsd: attempt.costUsd,
  };
}

function resultOf(
  outcome: ExecutionOutcome,
): Pick<NewExecutionLog, 'status' | 'httpStatus' | 'errorCode' | 'errorMessage'> {
  if (outcome.status === 'success') return { status: 'success', httpStatus: 200, errorCode: null, errorMessage: null };
  const described = describeFailure(outcome.error);
  return {
    status: 'error',
    httpStatus: described.status,
    errorCode: outcome.error instanceof AppError ? described.error : 'internal_error',
    // The log is read by the tenant: an unexpected error keeps the generic message its caller got (its detail is in
    // the service log).
    errorMessage: described.message,
  };
}

/** Tokens and cost over every attempt; null when no attempt reported them. */
export function totalsOf(attempts: ExecutionAttempt[]): { usage: TokenUsage; costUsd: number | null } {
  if (attempts.length === 1) return attempts[0];
  const usage: TokenUsage = { inputTokens: null, outputTokens: null };
  let costUsd: number | null = null;
  for (const attempt of attempts) {
    if (attempt.usage.inputTokens !== null) usage.inputTokens = (usage.inputTokens ?? 0) + attempt.usage.inputTokens;
    if (attempt.usage.outputTokens !== null)
      usage.outputTokens = (usage.outputTokens ?? 0) + attempt.usage.outputTokens;
    if (attempt.costUsd !== null) costUsd = (costUsd ?? 0) + attempt.costUsd;
  }
  return { usage, costUsd };
}

/** A model call that answered, as its attempt records it. */
export function succeededAttempt(
  llmModel: string,
  latencyMs: number,
  usage: TokenUsage,
  costUsd: number | null,
): ExecutionAttempt {
  return { llmModel, latencyMs, outcome: 'success', httpStatus: null, errorMessage: null, usage, costUsd };
}

/** A model call that failed, as its attempt records it. */
export function failedAttempt(
  llmModel: string,
  latencyMs: number,
  error: unknown,
  usage: TokenUsage,
  costUsd: number | null,
): ExecutionAttempt {
  const described = describeFailure(error);
  const outcome = error instanceof UpstreamTimeoutError ? 'timeout' : 'error';
  const providerStatus = error instanceof ProviderError ? error.providerStatus : null;
  return {
    llmModel,
    latencyMs,
    outcome,
    httpStatus: providerStatus ?? described.status,
    errorMessage: described.message,
    usage,
    costUsd,
  };
}

/**
 * The request body as logged: image fields (data URIs of up to MAX_IMAGE_BYTES each) are replaced by a short
 * description, so a log row stays small; everything else is kept as sent.
 */
export function loggableInputs(body: unknown, fields: InputField[]): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body ?? null;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of fields) {
    const value = copy[field.name];
    if (field.dataType === 'image' && typeof value === 'string' && value.length > 64) {
      const mediaType = /^data:([^;,]+)/.exec(value)?.[1] ?? 'unknown';
      copy[field.name] = `[image ${mediaType}, ${value.length} characters]`;
    }
  }
  return copy;
}
