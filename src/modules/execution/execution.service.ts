import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '../../common/auth/principal';
import { PromptError, UpstreamError, ValidationError } from '../../common/errors/app-error';
import { AppLogger } from '../../common/logging/app-logger';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { EndpointDefinition } from '../endpoints/endpoint-definition';
import { cacheKey, fieldsFingerprint } from '../cache/cache-key';
import { ResponseCacheService } from '../cache/response-cache.service';
import { EndpointsService } from '../endpoints/endpoints.service';
import { customParametersProblems } from '../llm/call-settings';
import {
  type ImageResult,
  InvalidLlmOutputError,
  type LlmClient,
  ProviderError,
  type TextResult,
  type TokenUsage,
} from '../llm/llm-client';
import { LlmRegistry } from '../llm/llm-registry';
import { ProviderCallLimiter } from '../llm/provider-call-limiter';
import { ExecutionLogsService } from '../logs/execution-logs.service';
import type { ExecutionSource, NewExecutionLog, PromptAssignment } from '../logs/new-execution-log';
import type { ModelInfo } from '../models/model';
import { ModelsService } from '../models/models.service';
import type { ExecutablePrompt } from '../prompts/executable-prompt';
import { PromptSelectionService, type SelectedPrompt } from '../prompts/prompt-selection.service';
import { TemplateService } from '../prompts/template/template.service';
import { type TestRunResponse, toTestRunResponse } from './dto/test-run.response';
import {
  type CacheStatus,
  type ExecutionAttempt,
  type ExecutionOutcome,
  failedAttempt,
  loggableInputs,
  succeededAttempt,
  toExecutionLog,
} from './execution-outcome';
import { elapsedSince, ExecutionClock, withDeadline } from './execution-clock';
import { type PlannedAttempt, planAttempts } from './attempt-plan';
import { type AttemptTime, runAttempts } from './attempt-loop';
import type { ClientDeparture } from './client-departure';
import { validateInputs, ValidatedInputs } from './input-validation';
import { type ExecutionStreamSink, streamGeneration } from './streaming/execution-stream-sink';
import {
  conformOutput,
  imageOutputField,
  imageSettingsOf,
  type OutputSchema,
  outputSchemaOf,
  rawOutputOf,
} from './output-schema';

export interface ExecutionCall {
  principal: Principal;
  definition: EndpointDefinition;
  source: ExecutionSource;
  requestId: string;
  body: unknown;
  /**
   * Api and MCP: the `?prompt=` name or slug (absent: the traffic split's variant, or the default), and the request's
   * headers a split may stick by; TestPage: a prompt id, any status.
   */
  prompt: { selector?: string; header?: (name: string) => string | undefined } | { id: string };
  /** Api executions only: the response cache is used, and `bypass` (x-cache-bypass: true) skips its lookup. */
  cache?: { bypass: boolean };
  /** Api executions asked for an event stream: where the answer's pieces go as the model produces them. */
  stream?: ExecutionStreamSink;
  /**
   * Api executions: the caller going away, which aborts the provider call in progress and the attempts still planned
   * (the call is then logged as `client_closed`). Plain and streamed calls alike.
   */
  departure?: ClientDeparture;
}

/**
 * How long a test run's answer waits for its log row to be written. The write normally takes milliseconds; a database
 * slower than this (or away) does not hold the answer: the row stays queued and is written when it accepts it.
 */
const LOG_WRITE_WAIT_MS = 2000;

/** Image endpoints: the body that replaces the standard output fields. */
export interface ImageExecutionBody {
  generatedImages: { base64Data: string; revisedPrompt: string }[];
  usage: { inputTokens: number; outputTokens: number };
}

/**
 * The model call: the execution body and what the log keeps of it, or the failure with the raw text when the model
 * answered something unusable; with the attempt either way.
 */
type Generation =
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
 * Runs an endpoint: input validation, prompt selection, Liquid rendering, the LLM call bounded by the endpoint's
 * timeout, and the output rules. Every call that reaches this service (authenticated, within its rate limits, on an
 * endpoint) is logged exactly once, whatever its outcome.
 */
@Injectable()
export class ExecutionService {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly prompts: PromptSelectionService,
    private readonly templates: TemplateService,
    private readonly models: ModelsService,
    private readonly llm: LlmRegistry,
    private readonly providerCalls: ProviderCallLimiter,
    private readonly logs: ExecutionLogsService,
    private readonly responses: ResponseCacheService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: AppLogger,
  ) {}

  /** Runs and logs the call; its outcome is what the caller answers (see toExecutionAnswer). */
  async run(call: ExecutionCall): Promise<ExecutionOutcome> {
    return (await this.runLogged(call)).outcome;
  }

  /** The execution body (what the execution API answers); a failed execution is thrown, after it was logged. */
  async execute(call: ExecutionCall): Promise<unknown> {
    const { outcome } = await this.runLogged(call);
    if (outcome.status === 'error') throw outcome.error;
    return outcome.body;
  }

  /**
   * Test runs: any prompt of the endpoint, Draft included; an unknown endpoint is a 404, not logged. The answer is the
   * execution body with what the log row records of the run, and the row's id: its row is written before the answer
   * (within LOG_WRITE_WAIT_MS), so GET /admin/v1/logs/{id} finds it right away.
   */
  async testRun(
    principal: Principal,
    endpointId: string,
    promptId: string,
    inputs: unknown,
    requestId: string,
  ): Promise<TestRunResponse> {
    const definition = await this.endpoints.getDefinition(principal.tenantId, endpointId);
    const { outcome, log, logId } = await this.runLogged({
      principal,
      definition,
      source: 'TestPage',
      requestId,
      body: inputs,
      prompt: { id: promptId },
    });
    if (outcome.status === 'error') throw outcome.error;
    await this.logs.flushWithin(LOG_WRITE_WAIT_MS);
    return toTestRunResponse(outcome.body, log, logId);
  }

  /** Runs the call and records its log row (exactly one, whatever the outcome). */
  private async runLogged(
    call: ExecutionCall,
  ): Promise<{ outcome: ExecutionOutcome; log: NewExecutionLog; logId: string }> {
    const { endpoint, inputFields } = call.definition;
    const outcome = await this.outcomeOf(call);
    const { principal, source, requestId } = call;
    const log = toExecutionLog(outcome, {
      principal,
      endpointId: endpoint.id,
      source,
      requestId,
      inputs: loggableInputs(call.body, inputFields),
      // Answered as an event stream (a failure before the model was called is a plain JSON answer).
      ...(call.stream?.started ? { stream: { ttftMs: call.stream.ttftMs } } : {}),
    });
    return { outcome, log, logId: this.logs.record(log) };
  }

  /** Never throws: a failure is an outcome too, with what was known when it failed. */
  private async outcomeOf(call: ExecutionCall): Promise<ExecutionOutcome> {
    const clock = new ExecutionClock();
    call.stream?.timedFrom(clock.startedMs);
    const { endpoint } = call.definition;
    let prompt: ExecutablePrompt | null = null;
    let assignment: PromptAssignment | null = null;
    let cache: CacheStatus | null = null;
    let renderedPrompt: string | null = null;
    const attempts: ExecutionAttempt[] = [];
    const detail = () => ({
      startedAt: clock.startedAt,
      latencyMs: Math.round(clock.elapsedMs()),
      prompt,
      assignment,
      cache,
      renderedPrompt,
      attempts,
    });
    const failed = (error: unknown, rawResponse: string | null = null): ExecutionOutcome => ({
      status: 'error',
      error,
      ...detail(),
      rawResponse,
      parsedOutput: null,
    });
    try {
      if (call.stream && imageOutputField(call.definition.outputFields)) {
        throw new ValidationError(
          'An image endpoint answers only once its images are generated: it cannot stream',
          'stream',
        );
      }
      const inputs = validateInputs(call.body, call.definition.inputFields, this.config.maxImageBytes);
      ({ prompt, assignment } = await this.promptOf(call));
      // From here the prompt version is known: the response cache answers or stores around the render and the LLM call.
      const key =
        call.cache && endpoint.cacheEnabled
          ? cacheKey({
              endpointId: endpoint.id,
              ...settingsOf(prompt),
              fields: fieldsOf(call.definition),
              body: call.body,
            })
          : null;
      if (call.cache) cache = key && !call.cache.bypass ? 'MISS' : 'BYPASS';
      call.stream?.selected(prompt, cache);
      if (cache === 'MISS') {
        const hit = await this.responses.get(key!);
        // The key covers the prompt version and the whole body, so the prompt the entry was rendered from is the one
        // this call would render: a hit is answered without a render (entries stored before they kept it render).
        if (hit) {
          cache = 'HIT';
          call.stream?.replay(prompt.llmModel, hit.rawResponse ?? JSON.stringify(hit.body), hit.body);
          renderedPrompt = hit.renderedPrompt ?? (await this.render(call, prompt, inputs));
          return {
            status: 'success',
            body: hit.body,
            ...detail(),
            rawResponse: hit.rawResponse,
            parsedOutput: hit.parsedOutput,
            finishReason: hit.finishReason ?? null,
          };
        }
      }
      renderedPrompt = await this.render(call, prompt, inputs);
      // The call holds one of its key's and tenant's provider-call slots through every attempt (a stream to its end);
      // past either bound it is refused with 429 before the provider is called.
      const { tenantId, keyId } = call.principal;
      const [selected, rendered] = [prompt, renderedPrompt];
      const generation = await this.providerCalls.run({ tenantId, keyId }, () =>
        this.generate(call, selected, inputs, rendered, clock, attempts),
      );
      if (!generation.ok) return failed(generation.error, generation.rawResponse);
      const { body, rawResponse, parsedOutput } = generation;
      const finishReason = generation.finishReason ?? null;
      // Only the prompt's own model's answers are cached: a fallback's answer stands in for it on this call only.
      if (key && generation.planned.position === 0)
        await this.responses.set(
          { tenantId: call.principal.tenantId, endpointId: endpoint.id },
          key,
          { body, renderedPrompt, rawResponse, parsedOutput, finishReason },
          endpoint.cacheDurationSeconds,
        );
      return { status: 'success', body, ...detail(), rawResponse, parsedOutput, finishReason };
    } catch (error) {
      return failed(error);
    }
  }

  /** Renders with the caller's fair share of the render threads (a tenant flooding them waits its turn). */
  private render(call: ExecutionCall, prompt: ExecutablePrompt, inputs: ValidatedInputs): Promise<string> {
    return this.templates.render(`${prompt.id}:${prompt.version}`, prompt.template, inputs.values, {
      tenantId: call.principal.tenantId,
      signal: call.departure?.signal,
    });
  }

  /**
   * The LLM call, text (raw or structured) or images, as a loop of attempts over the prompt's plan (its own model,
   * its retries, then its fallback models; see attempt-plan): every attempt is recorded in `attempts`, and a failure
   * that fails over is followed by the next attempt while the endpoint's timeout leaves time for it. The answer is the
   * first success, or the last failure. A model the service cannot call (unknown model, provider not configured,
   * settings out of bounds) throws: that is the service's own error, never failed over.
   */
  private async generate(
    call: ExecutionCall,
    prompt: ExecutablePrompt,
    inputs: ValidatedInputs,
    renderedPrompt: string,
    clock: ExecutionClock,
    attempts: ExecutionAttempt[],
  ): Promise<Generation & { planned: PlannedAttempt }> {
    const { result, planned } = await runAttempts<Generation>({
      plan: planAttempts(prompt),
      deadlineMs: call.definition.endpoint.timeoutSeconds * 1000,
      elapsedMs: () => clock.elapsedMs(),
      run: (next, time) => this.attempt(call, next, inputs, renderedPrompt, time),
      onAttempt: (generation) => {
        attempts.push(generation.attempt);
        if (!generation.ok) this.logProviderText(call, generation.error);
      },
      // A stream fails over only before its first piece: after it, the caller has part of one model's answer. A
      // caller that left gets no further attempt.
      mayFailOver: () => !call.stream?.hasContent && !call.departure?.signal.aborted,
      sleep: (ms) => untilGone(ms, call.departure?.signal),
    });
    return { ...result, planned };
  }

  /**
   * A provider's own text about a failed attempt goes to the service log only (it may name the operator's account):
   * callers, streams and log rows get our message naming the provider and the status.
   */
  private logProviderText(call: ExecutionCall, error: unknown): void {
    if (!(error instanceof ProviderError) || error.providerMessage === null) return;
    this.logger.write('warn', error.message, {
      context: 'Execution',
      requestId: call.requestId,
      providerStatus: error.providerStatus,
      providerMessage: error.providerMessage,
    });
  }

  /** One model call with the planned model and settings, within `budgetMs` (all of `remainingMs` for the last). */
  private attempt(
    call: ExecutionCall,
    planned: PlannedAttempt,
    inputs: ValidatedInputs,
    renderedPrompt: string,
    time: AttemptTime,
  ): Promise<Generation> {
    const { outputFields } = call.definition;
    // The caller left while the previous attempt's Retry-After was waited for.
    if (call.departure?.signal.aborted) throw call.departure.signal.reason;
    const model = this.models.find(planned.llmModel);
    if (!model) throw new UpstreamError(`The model '${planned.llmModel}' of the prompt is not in the model list`);
    const client = this.clientOf(model);
    const imageField = imageOutputField(outputFields);
    if (imageField) {
      // The image field's exampleValue supplies defaults (`n` among them): the merged settings are what is sent.
      const settings = imageSettingsOf(imageField, planned.customParameters);
      this.assertSettingsInBounds(settings, true);
      return this.generateImages(call, client, model, renderedPrompt, time, settings);
    }
    this.assertSettingsInBounds(planned.customParameters, false);
    return this.generateText(call, client, model, planned, inputs, renderedPrompt, time);
  }

  /**
   * The rules a prompt's customParameters are saved under, checked again before every provider call: a row saved
   * before a rule existed (or an image field's defaults) cannot run out of bounds. Such a prompt cannot run: 422.
   */
  private assertSettingsInBounds(settings: Record<string, unknown>, imageEndpoint: boolean): void {
    const problems = customParametersProblems(settings, {
      imageEndpoint,
      maxImagesPerCall: this.config.maxImagesPerCall,
    });
    if (problems.length > 0) throw new PromptError(`The prompt's settings are out of bounds: ${problems.join('; ')}`);
  }

  /** A test run's prompt is the one it names (pinned); otherwise the prompts module selects it. */
  private async promptOf(call: ExecutionCall): Promise<SelectedPrompt> {
    const { principal, definition } = call;
    if ('id' in call.prompt) {
      const prompt = await this.prompts.getForTestRun(principal.tenantId, definition.endpoint.id, call.prompt.id);
      return { prompt, assignment: 'pinned' };
    }
    const { selector, header = () => undefined } = call.prompt;
    return this.prompts.selectForExecution(principal.tenantId, definition.endpoint, selector, {
      keyId: principal.keyId,
      header,
    });
  }

  private clientOf(model: ModelInfo): LlmClient {
    const provider = this.models.provider(model.provider);
    if (!provider?.configured) {
      throw new UpstreamError(
        `The provider '${model.provider}' of model '${model.id}' is not configured on this server`,
      );
    }
    return this.llm.clientFor(provider);
  }

  /**
   * Runs an attempt within its share of the time: a 504 past the endpoint's timeout, or, when the attempt had only a
   * share of it (a fallback model comes after it), a timeout of the attempt that fails over.
   */
  private async withinAttemptTime<T>(
    call: ExecutionCall,
    model: ModelInfo,
    time: AttemptTime,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const { timeoutSeconds } = call.definition.endpoint;
    const message = time.budgetMs < time.remainingMs ? attemptTimeoutMessage(model, time) : undefined;
    const gone = call.departure?.signal;
    if (!gone) return withDeadline(time.budgetMs, timeoutSeconds, work, message);
    // The provider call stops when the caller leaves too; it then fails as client_closed, whatever the provider said.
    try {
      return await withDeadline(
        time.budgetMs,
        timeoutSeconds,
        (signal) => work(AbortSignal.any([signal, gone])),
        message,
      );
    } catch (error) {
      if (gone.aborted) throw gone.reason;
      throw error;
    }
  }

  private async generateText(
    call: ExecutionCall,
    client: LlmClient,
    model: ModelInfo,
    settings: PlannedAttempt,
    inputs: ValidatedInputs,
    renderedPrompt: string,
    time: AttemptTime,
  ): Promise<Generation> {
    const { outputFields } = call.definition;
    const schema = schemaOf(outputFields);
    const startedMs = performance.now();
    let result: TextResult;
    try {
      const stream = call.stream;
      // A streamed attempt that is answering cannot fail over any more: its share of the time bounds only the wait for
      // its first piece, and then it has the rest of the endpoint's timeout.
      const limit = stream ? { ...time, budgetMs: time.remainingMs } : time;
      result = await this.withinAttemptTime(call, model, limit, (abortSignal) => {
        const request = {
          model: model.id,
          prompt: renderedPrompt,
          images: inputs.images,
          temperature: settings.temperature,
          maxOutputTokens: settings.maxTokens,
          customParameters: settings.customParameters,
          ...(schema ? { schema } : {}),
          abortSignal,
        };
        if (!stream) return client.generateText(request);
        const firstPieceWithin =
          time.budgetMs < time.remainingMs
            ? { ms: time.budgetMs, message: attemptTimeoutMessage(model, time) }
            : undefined;
        return streamGeneration(client, request, stream, model.id, firstPieceWithin);
      });
    } catch (error) {
      // A provider that answered text it could not parse still reports the text and the tokens it used.
      const unusable = error instanceof InvalidLlmOutputError ? error : null;
      const usage = unusable?.usage ?? NO_USAGE;
      const costUsd = unusable ? this.models.costOf(model.id, usage) : null;
      const attempt = failedAttempt(model.id, elapsedSince(startedMs), error, usage, costUsd);
      return { ok: false, error, rawResponse: unusable?.rawText ?? null, attempt };
    }
    const latencyMs = elapsedSince(startedMs);
    const costUsd = this.models.costOf(model.id, result.usage);
    if (!schema) {
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

  private async generateImages(
    call: ExecutionCall,
    client: LlmClient,
    model: ModelInfo,
    renderedPrompt: string,
    time: AttemptTime,
    settings: Record<string, unknown>,
  ): Promise<Generation> {
    const startedMs = performance.now();
    let result: ImageResult;
    try {
      result = await this.withinAttemptTime(call, model, time, (abortSignal) =>
        client.generateImage({ model: model.id, prompt: renderedPrompt, settings, abortSignal }),
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
}

/** Waits `ms` before a retry, or less when the caller goes away meanwhile. */
async function untilGone(ms: number, gone: AbortSignal | undefined): Promise<void> {
  await sleep(ms, undefined, gone ? { signal: gone } : undefined).catch(() => undefined);
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

/**
 * The fingerprint of a definition's fields for the cache key, computed once per definition object (rebuilt when the
 * endpoint or one of its fields changes, as the output schemas above are).
 */
const fingerprints = new WeakMap<EndpointDefinition, string>();
function fieldsOf(definition: EndpointDefinition): string {
  let fingerprint = fingerprints.get(definition);
  if (fingerprint === undefined) {
    const { inputFields, outputFields } = definition;
    fingerprint = fieldsFingerprint({ inputFields, outputFields });
    fingerprints.set(definition, fingerprint);
  }
  return fingerprint;
}

/** What a cached answer depends on besides the endpoint and the body: the prompt version and its model settings. */
function settingsOf(prompt: ExecutablePrompt) {
  const { id: promptId, version: promptVersion, llmModel, temperature, maxTokens, customParameters } = prompt;
  return { promptId, promptVersion, llmModel, temperature, maxTokens, customParameters };
}
