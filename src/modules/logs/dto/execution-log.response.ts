import { ApiProperty } from '@nestjs/swagger';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../../../common/auth/principal';
import type { AppErrorCode } from '../../../common/errors/app-error';
import { ApiAnyJson, ApiEnum, ApiInteger, ApiNullableEnum, ApiUuid } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import type { ExecutionLogEntity } from '../execution-log.entity';
import type { ExecutionLogSummary } from '../execution-logs.repository';
import {
  EXECUTION_SOURCES,
  EXECUTION_STATUSES,
  type ExecutionSource,
  type ExecutionStatus,
  PROMPT_ASSIGNMENTS,
  type PromptAssignment,
} from '../new-execution-log';
import type { RecordedScore } from '../../scores/execution-scores.service';
import { LogScoreResponse, toLogScoreResponse } from './log-score.response';
import { RenderedMessageResponse, toRenderedMessagesResponse } from './rendered-message.response';

/**
 * The errorCode of a failed execution: an error code of the service, a reason the prompt could not be selected, or
 * internal_error for a failure nobody expected.
 */
export const EXECUTION_ERROR_CODES = [
  'validation_error',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'rate_limit_exceeded',
  'prompt_error',
  'upstream_error',
  'timeout',
  'service_unavailable',
  'overloaded',
  'budget_exceeded',
  'prompt_not_found',
  'client_closed',
  'prompt_not_live',
  'prompt_archived',
  'no_default_prompt',
  'internal_error',
] as const;

// Every error code of the service is one an execution can be logged with: this fails to compile when one is missing.
const everyAppErrorCode: Exclude<AppErrorCode, (typeof EXECUTION_ERROR_CODES)[number]> extends never ? true : never =
  true;
void everyAppErrorCode;

/** One execution. */
export class ExecutionLogResponse {
  @ApiUuid()
  id: string;
  @ApiUuid()
  endpointId: string;
  /** The prompt that ran; null when none was selected. */
  @ApiUuid()
  promptId: string | null;
  /** Its version that ran. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  promptVersion: number | null;
  /**
   * How the prompt was assigned: `default` (the endpoint's default), `pinned` (`?prompt=`, or the test runner's choice)
   * or `split` (the endpoint's traffic split); null when none was selected.
   */
  @ApiNullableEnum(PROMPT_ASSIGNMENTS)
  assignment: PromptAssignment | null;
  /** `Api` (the execution API), `TestPage` (the test runner), `Internal` (MCP's run_endpoint) or `Eval` (an evaluation run). */
  @ApiEnum('ExecutionSource', EXECUTION_SOURCES)
  source: ExecutionSource;
  @ApiUuid()
  keyId: string | null;
  /** `live` or `test` for endpoint keys; null for admin keys. */
  @ApiNullableEnum(KEY_ENVIRONMENTS)
  keyEnvironment: KeyEnvironment | null;
  /** The X-Request-Id of the execution. */
  requestId: string;
  @ApiEnum('ExecutionStatus', EXECUTION_STATUSES)
  status: ExecutionStatus;
  /** The HTTP status the execution was answered with. */
  @ApiInteger({ minimum: 100, maximum: 599 })
  httpStatus: number;
  /** Why it failed; null on success. */
  @ApiNullableEnum(EXECUTION_ERROR_CODES)
  errorCode: string | null;
  /** Answered from the response cache. */
  cached: boolean;
  llmModel: string | null;
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  inputTokens: number | null;
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  outputTokens: number | null;
  /** USD, from the model list's pricing; null when a price is unknown. */
  @ApiProperty({ minimum: 0 })
  costUsd: number | null;
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  latencyMs: number;
  /** Answered as an event stream (`Accept: text/event-stream` or `?stream=true`). */
  streamed: boolean;
  /** Streamed calls: milliseconds until the first piece of the answer was sent; null for plain calls or when none was. */
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  ttftMs: number | null;
  /** Why the model stopped (`stop`, `length`, `content-filter`, …); null when no model answered or it did not say. */
  finishReason: string | null;
  createdAt: Date;
  /**
   * The fields stored cut to the size limit (`inputs`, `renderedPrompt`, `renderedMessages`, `rawResponse`,
   * `parsedOutput`), each kept as a string of its first bytes followed by `…[truncated N bytes]` (the messages' texts
   * cut together, each message keeping its role); empty when nothing was cut.
   */
  truncatedFields: string[];
  /** The execution's tags: its request's, over its key's default tags; `{}` when none. */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  tags: Record<string, string>;
}

const ATTEMPT_OUTCOMES = ['success', 'error', 'timeout'] as const;

/** One model call of an execution: the prompt's model, a retry of it, or a fallback model. */
export class ExecutionAttemptResponse {
  llmModel: string;
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  latencyMs: number;
  /** `success`, `error` or `timeout` (the attempt ran out of time). */
  @ApiEnum('AttemptOutcome', ATTEMPT_OUTCOMES)
  outcome: 'success' | 'error' | 'timeout';
  /**
   * Null on success; the provider's HTTP status when it answered with an error (429, 503, …), otherwise the status
   * the failure answers (502: unreachable or an answer off the output fields; 504: out of time).
   */
  @ApiInteger({ minimum: 100, maximum: 599 })
  httpStatus: number | null;
  /** Why it failed; null on success. */
  errorMessage: string | null;
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  inputTokens: number | null;
  @ApiInteger({ minimum: 0, maximum: MAX_INTEGER })
  outputTokens: number | null;
  /** USD; null when the provider reported no usage or a price is unknown. */
  @ApiProperty({ minimum: 0 })
  costUsd: number | null;
}

/** GET /logs/{id}: the record plus what was sent to and received from the model. */
export class ExecutionLogDetailResponse extends ExecutionLogResponse {
  /** The request body as validated (defaults applied): any JSON value, or a string when it was cut to the size limit. */
  @ApiAnyJson()
  inputs: unknown;
  /** The whole rendered text of the prompt; null when it did not render. */
  renderedPrompt: string | null;
  /**
   * The messages the rendered prompt made, in order (the whole text as one user message for a template without message
   * blocks); null when it did not render.
   */
  @ApiProperty({ type: [RenderedMessageResponse], nullable: true })
  renderedMessages: RenderedMessageResponse[] | null;
  rawResponse: string | null;
  /** The answer parsed from the model's output: any JSON value (null when there was none). */
  @ApiAnyJson()
  parsedOutput: unknown;
  errorMessage: string | null;
  /**
   * Every model call, in order: the prompt's model, its retries, then fallback models. Empty on a cache hit or a
   * failure before the call. The row's tokens and costUsd are the sums over them; its llmModel is the last one's.
   */
  attempts: ExecutionAttemptResponse[];
  /** The execution's feedback scores, by name (empty when none). */
  scores: LogScoreResponse[];
}

/** GET /logs: one page, newest first. */
export class ExecutionLogPageResponse {
  items: ExecutionLogResponse[];
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  page: number;
  @ApiInteger({ minimum: 1, maximum: 50 })
  pageSize: number;
  /** Rows matching the filters, counted up to 10,000 (see totalIsExact). */
  @ApiInteger({ minimum: 0, maximum: 10000 })
  total: number;
  /** false when more than 10,000 rows match: `total` is then 10,000, a lower bound. */
  totalIsExact: boolean;
}

export function toExecutionLogResponse(log: ExecutionLogSummary): ExecutionLogResponse {
  return {
    id: log.id,
    endpointId: log.endpointId,
    promptId: log.promptId,
    promptVersion: log.promptVersion,
    assignment: log.assignment,
    source: log.source,
    keyId: log.keyId,
    keyEnvironment: log.keyEnvironment,
    requestId: log.requestId,
    status: log.status,
    httpStatus: Number(log.httpStatus),
    errorCode: log.errorCode,
    cached: log.cached,
    llmModel: log.llmModel,
    inputTokens: log.inputTokens,
    outputTokens: log.outputTokens,
    costUsd: log.costUsd === null ? null : Number(log.costUsd),
    latencyMs: log.latencyMs,
    streamed: log.streamed ?? false,
    ttftMs: log.ttftMs ?? null,
    finishReason: log.finishReason ?? null,
    createdAt: new Date(log.createdAt),
    truncatedFields: log.truncatedFields ?? [],
    tags: log.tags ?? {},
  };
}

export function toExecutionLogDetailResponse(
  log: ExecutionLogEntity,
  scores: RecordedScore[] = [],
): ExecutionLogDetailResponse {
  return {
    ...toExecutionLogResponse(log),
    inputs: log.inputs,
    renderedPrompt: log.renderedPrompt,
    renderedMessages: toRenderedMessagesResponse(log.renderedMessages, log.renderedPrompt),
    rawResponse: log.rawResponse,
    parsedOutput: log.parsedOutput,
    errorMessage: log.errorMessage,
    attempts: log.attempts ?? [],
    scores: scores.map(toLogScoreResponse),
  };
}
