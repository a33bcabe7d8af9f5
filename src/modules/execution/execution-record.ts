import type { Principal } from '../../common/auth/principal';
import { AppError } from '../../common/errors/app-error';
import { describeFailure } from '../../common/http/error-mapping';
import type { InputField } from '../endpoints/endpoint-definition';
import type { TokenUsage } from '../llm/llm-client';
import { InvalidLlmOutputError } from '../llm/llm-client';
import type { ExecutionSource, NewExecutionLog } from '../logs/new-execution-log';
import type { ExecutablePrompt } from '../prompts/executable-prompt';

/**
 * What one execution did, filled in step by step and turned into exactly one execution log row at the end, whatever
 * The outcome.
 */
export class ExecutionRecord {
  readonly startedAt = new Date();
  private readonly startedMs = performance.now();
  prompt: ExecutablePrompt | null = null;
  renderedPrompt: string | null = null;
  rawResponse: string | null = null;
  parsedOutput: unknown = null;
  usage: TokenUsage = { inputTokens: null, outputTokens: null };
  costUsd: number | null = null;
  /** Answered from the response cache: logged with cached: true. */
  cached = false;

  constructor(
    private readonly principal: Principal,
    private readonly endpointId: string,
    private readonly source: ExecutionSource,
    private readonly requestId: string,
    private readonly inputs: unknown,
  ) {}

  /** Milliseconds since the execution started. */
  elapsedMs(): number {
    return performance.now() - this.startedMs;
  }

  success(): NewExecutionLog {
    return this.entry({ status: 'success', httpStatus: 200, errorCode: null, errorMessage: null });
  }

  failure(error: unknown): NewExecutionLog {
    if (error instanceof InvalidLlmOutputError) {
      this.rawResponse = error.rawText;
      this.usage = error.usage;
    }
    const described = describeFailure(error);
    return this.entry({
      status: 'error',
      httpStatus: described.status,
      errorCode: error instanceof AppError ? described.error : 'internal_error',
      // The log is read by the tenant: an unexpected error keeps the generic message its caller got (its detail is in
      // the service log).
      errorMessage: described.message,
    });
  }

  private entry(outcome: Pick<NewExecutionLog, 'status' | 'httpStatus' | 'errorCode' | 'errorMessage'>): NewExecutionLog {
    return {
      tenantId: this.principal.tenantId,
      endpointId: this.endpointId,
      promptId: this.prompt?.id ?? null,
      promptVersion: this.prompt?.version ?? null,
      source: this.source,
      keyId: this.principal.keyId,
      // Executions with an admin key have keyEnvironment null.
      keyEnvironment: this.principal.type === 'admin' ? null : this.principal.environment,
      requestId: this.requestId,
      ...outcome,
      cached: this.cached,
      llmModel: this.prompt?.llmModel ?? null,
      inputTokens: this.usage.inputTokens,
      outputTokens: this.usage.outputTokens,
      costUsd: this.costUsd,
      latencyMs: Math.round(this.elapsedMs()),
      inputs: this.inputs,
      renderedPrompt: this.renderedPrompt,
      rawResponse: this.rawResponse,
      parsedOutput: this.parsedOutput,
      createdAt: this.startedAt,
    };
  }
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
