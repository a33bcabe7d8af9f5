import type { EndpointDefinition } from '../endpoints/endpoint-definition';
import {
  type ImageResult,
  InvalidLlmOutputError,
  type LlmClient,
  type TextResult,
  type TokenUsage,
} from '../llm/llm-client';
import type { ModelInfo } from '../models/model';
import type { ModelsService } from '../models/models.service';
import type { PlannedAttempt } from './attempt-plan';
import type { AttemptTime } from './attempt-loop';
import type { ExecutionCall } from './execution-call';
import { elapsedSince, withDeadline } from './execution-clock';
import type { ExecutionRecord } from './execution-record';
import { type ExecutionAttempt, failedAttempt, succeededAttempt } from './execution-outcome';
import { conformOutput, type OutputSchema, outputSchemaOf, rawOutputOf } from './output-schema';

/** Image endpoints: the body that replaces the standard output fields. */
export interface ImageExecutionBody {
  generatedImages: { base64Data: string; revisedPrompt: string }[];
  usage: { inputTokens: number; outputTokens: number };
}

/**
 * One model call: the execution body and what the log keeps of it, or the failure with the raw text when the model
 * answered something unusable; with the attempt either way.
 */
export type Generation =
  | {
      ok: true;
      body: unknown;
      rawResponse: string;
      parsedOutput: unknown;
      finishReason?: string;
      attempt: ExecutionAttempt;
    }
  | { ok: false; error: unknown; rawResponse: string | null; attempt: ExecutionAttempt };

const NO_USAGE: TokenUsage = Object.freeze({ inputTokens: null, outputTokens: null });

/**
 * The call of one attempt to the model (the "call" between an attempt's reserve and settle): the rendered prompt sent
 * with the planned model and settings within the attempt's time, then the answer validated against the output fields
 * (`validated`: an answer off them fails this attempt, which may then fail over). Never throws for what the provider did: the
 * failure is the Generation's.
 */
export class ModelCall {
  constructor(private readonly models: ModelsService) {}

  async text(
    call: ExecutionCall,
    record: ExecutionRecord,
    client: LlmClient,
    model: ModelInfo,
    settings: PlannedAttempt,
    time: AttemptTime,
  ): Promise<Generation> {
    const { outputFields } = call.definition;
    const schema = schemaOf(outputFields);
    const { observer } = record;
    const startedMs = performance.now();
    let result: TextResult;
    try {
      // A streamed attempt that is answering cannot fail over any more: its share of the time bounds only the wait for
      // its first piece, and then it has the rest of the endpoint's timeout.
      const limit = observer.streams ? { ...time, budgetMs: time.remainingMs } : time;
      result = await this.withinAttemptTime(call, record, model, limit, (abortSignal) => {
        const request = {
          model: model.id,
          prompt: record.renderedPrompt!,
          messages: record.messages!,
          temperature: settings.temperature,
          maxOutputTokens: settings.maxTokens,
          customParameters: settings.customParameters,
          ...(schema ? { schema } : {}),
          abortSignal,
        };
        const firstPieceWithin =
          observer.streams && time.budgetMs < time.remainingMs
            ? { ms: time.budgetMs, message: attemptTimeoutMessage(model, time) }
            : undefined;
        return observer.text(client, request, model.id, firstPieceWithin);
      });
    } catch (error) {
      // A provider that answered text it could not parse still reports the text and the tokens it used.
      const unusable = error instanceof InvalidLlmOutputError ? error : null;
      const usage = unusable?.usage ?? NO_USAGE;
      const costUsd = unusable ? this.models.costOf(model.id, usage) : null;
      const attempt = failedAttempt(model.id, elapsedSince(startedMs), error, usage, costUsd);
      return { ok: false, error, rawResponse: unusable?.rawText ?? null, attempt };
    }
    return this.validated(model, result, outputFields, schema !== null, elapsedSince(startedMs));
  }

  /**
   * Validate the answer: a raw answer is taken as it is; a structured one must match the output fields, or this
   * attempt fails (with the raw text and the tokens it cost) and may fail over like any failed attempt.
   */
  private validated(
    model: ModelInfo,
    result: TextResult,
    outputFields: EndpointDefinition['outputFields'],
    structured: boolean,
    latencyMs: number,
  ): Generation {
    const costUsd = this.models.costOf(model.id, result.usage);
    if (!structured) {
      const parsedOutput = rawOutputOf(result.text);
      return {
        ok: true,
        body: parsedOutput,
        rawResponse: result.text,
        parsedOutput,
        finishReason: result.finishReason,
        attempt: succeededAttempt(model.id, latencyMs, result.usage, costUsd),
      };
    }
    const conformance = conformOutput(result.object, outputFields);
    if (!conformance.ok) {
      const error = new InvalidLlmOutputError(
        `The model's answer does not match the output fields: ${conformance.problem}`,
        result.text,
        result.usage,
      );
      return {
        ok: false,
        error,
        rawResponse: result.text,
        attempt: failedAttempt(model.id, latencyMs, error, result.usage, costUsd),
      };
    }
    const attempt = succeededAttempt(model.id, latencyMs, result.usage, costUsd);
    return {
      ok: true,
      body: conformance.value,
      rawResponse: result.text,
      parsedOutput: conformance.value,
      finishReason: result.finishReason,
      attempt,
    };
  }

  async images(
    call: ExecutionCall,
    record: ExecutionRecord,
    client: LlmClient,
    model: ModelInfo,
    settings: Record<string, unknown>,
    time: AttemptTime,
  ): Promise<Generation> {
    const startedMs = performance.now();
    let result: ImageResult;
    try {
      result = await this.withinAttemptTime(call, record, model, time, (abortSignal) =>
        client.generateImage({ model: model.id, prompt: record.renderedPrompt!, settings, abortSignal }),
      );
    } catch (error) {
      return {
        ok: false,
        error,
        rawResponse: null,
        attempt: failedAttempt(model.id, elapsedSince(startedMs), error, NO_USAGE, null),
      };
    }
    const costUsd = this.models.costOf(model.id, { ...result.usage, images: result.images.length });
    const usage = { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
    // The log keeps what was generated without the image bytes (megabytes of base64 per row).
    const summary = result.images.map((image) => ({
      revisedPrompt: image.revisedPrompt,
      base64Length: image.base64Data.length,
    }));
    const body: ImageExecutionBody = { generatedImages: result.images, usage };
    return {
      ok: true,
      body,
      rawResponse: JSON.stringify({ images: summary, usage }),
      parsedOutput: { generatedImages: summary, usage },
      attempt: succeededAttempt(model.id, elapsedSince(startedMs), result.usage, costUsd),
    };
  }

  /**
   * Runs an attempt within its share of the time: a 504 past the endpoint's timeout, or, when the attempt had only a
   * share of it (a fallback model comes after it), a timeout of the attempt that fails over.
   */
  private async withinAttemptTime<T>(
    call: ExecutionCall,
    record: ExecutionRecord,
    model: ModelInfo,
    time: AttemptTime,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const { timeoutSeconds } = call.definition.endpoint;
    const message = time.budgetMs < time.remainingMs ? attemptTimeoutMessage(model, time) : undefined;
    const gone = record.gone;
    if (!gone) return withDeadline(time.budgetMs, timeoutSeconds, work, message);
    // The provider call stops when the caller leaves too; it then fails as client_closed, whatever the provider said.
    try {
      return await withDeadline(time.budgetMs, timeoutSeconds, work, message, gone);
    } catch (error) {
      if (gone.aborted) throw gone.reason;
      throw error;
    }
  }
}

/** The failure of an attempt that used up its share of the endpoint's timeout (see attemptBudgetMs). */
function attemptTimeoutMessage(model: ModelInfo, time: AttemptTime): string {
  return `${model.id} did not answer within the ${(time.budgetMs / 1000).toFixed(1)} seconds its attempt could use`;
}

/**
 * The output schema of a field list, built once: endpoint definitions are cached objects (dropped and rebuilt when
 * the endpoint changes), so their field arrays key the schemas without any invalidation of their own.
 */
const schemas = new WeakMap<object, OutputSchema | null>();
function schemaOf(fields: EndpointDefinition['outputFields']): OutputSchema | null {
  if (!schemas.has(fields)) schemas.set(fields, outputSchemaOf(fields));
  return schemas.get(fields)!;
}
