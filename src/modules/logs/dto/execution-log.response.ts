import type { ExecutionLogEntity } from '../execution-log.entity';
import type { ExecutionLogSummary } from '../execution-logs.repository';

/** One execution. */
export class ExecutionLogResponse {
  id: string;
  endpointId: string;
  promptId: string | null;
  promptVersion: number | null;
  /** `Api`, `TestPage` or `Internal`. */
  source: string;
  keyId: string | null;
  /** `live` or `test` for endpoint keys; null for admin keys. */
  keyEnvironment: string | null;
  requestId: string;
  /** `success` or `error`. */
  status: string;
  httpStatus: number;
  errorCode: string | null;
  cached: boolean;
  llmModel: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /** USD, from the model list's pricing; null when a price is unknown. */
  costUsd: number | null;
  latencyMs: number;
  createdAt: Date;
  /**
   * The fields stored cut to the size limit (`inputs`, `renderedPrompt`, `rawResponse`, `parsedOutput`), each kept as a
   * string of its first bytes followed by `…[truncated N bytes]`; empty when nothing was cut.
   */
  truncatedFields: string[];
}

/** GET /logs/{id}: the record plus what was sent to and received from the model. */
export class ExecutionLogDetailResponse extends ExecutionLogResponse {
  /** The request body as validated (defaults applied). */
  inputs: unknown;
  renderedPrompt: string | null;
  rawResponse: string | null;
  parsedOutput: unknown;
  errorMessage: string | null;
}

/** GET /logs: one page, newest first. */
export class ExecutionLogPageResponse {
  items: ExecutionLogResponse[];
  page: number;
  pageSize: number;
  /** Rows matching the filters, counted up to 10,000 (see totalIsExact). */
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
    createdAt: new Date(log.createdAt),
    truncatedFields: log.truncatedFields ?? [],
  };
}

export function toExecutionLogDetailResponse(log: ExecutionLogEntity): ExecutionLogDetailResponse {
  return {
    ...toExecutionLogResponse(log),
    inputs: log.inputs,
    renderedPrompt: log.renderedPrompt,
    rawResponse: log.rawResponse,
    parsedOutput: log.parsedOutput,
    errorMessage: log.errorMessage,
  };
}
