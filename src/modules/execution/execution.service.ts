import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '../../common/auth/principal';
import { mergeTags, type Tags } from '../../common/tags/tags';
import { tagActiveSpanWithTags } from '../../common/telemetry/trace-context';
import { PromptError, UpstreamError, ValidationError } from '../../common/errors/app-error';
import { AppLogger } from '../../common/logging/app-logger';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { EndpointDefinition } from '../endpoints/endpoint-definition';
import { cacheKey, fieldsFingerprint } from '../cache/cache-key';
import { ResponseCacheService } from '../cache/response-cache.service';
import { EndpointsService } from '../endpoints/endpoints.service';
import { customParametersProblems } from '../llm/call-settings';
import { type LlmClient, ProviderError } from '../llm/llm-client';
import { LlmRegistry } from '../llm/llm-registry';
import { ProviderCallLimiter } from '../llm/provider-call-limiter';
import { BudgetSpendingService, type SpendReservation } from '../budgets/budget-spending.service';
import { ExecutionLogsService } from '../logs/execution-logs.service';
import type { NewExecutionLog } from '../logs/new-execution-log';
import type { ModelInfo } from '../models/model';
import { ModelsService } from '../models/models.service';
import type { ExecutablePrompt } from '../prompts/executable-prompt';
import { PromptSelectionService } from '../prompts/prompt-selection.service';
import { PromptsService } from '../prompts/prompts.service';
import { TemplateService } from '../prompts/template/template.service';
import { type TestRunResponse, toTestRunResponse } from './dto/test-run.response';
import { type EvalCall, type ExecutionCall, type TestRunCall, sourceOf } from './execution-call';
import { type ExecutionOutcome, loggableInputs, toExecutionLog } from './execution-outcome';
import { ExecutionRecord } from './execution-record';
import { type PlannedAttempt, planAttempts } from './attempt-plan';
import { type AttemptTime, runAttempts } from './attempt-loop';
import { type Generation, ModelCall } from './model-call';
import { validateInputs } from './input-validation';
import { chatMessagesOf, type LoggedMessage, loggedMessagesOf } from './prompt-messages';
import { imageOutputField, imageSettingsOf } from './output-schema';

/**
 * How long a test run's answer waits for its log row to be written. The write normally takes milliseconds; a database
 * slower than this (or away) does not hold the answer: the row stays queued and is written when it accepts it.
 */
const LOG_WRITE_WAIT_MS = 2000;

/** An execution's outcome, what its log row records and the row's id. */
export interface LoggedOutcome {
  outcome: ExecutionOutcome;
  log: NewExecutionLog;
  logId: string;
}

/** A test run's answer: the execution body with what its log row records; a failed run is thrown. */
export function testRunAnswer({ outcome, log, logId }: LoggedOutcome): TestRunResponse {
  if (outcome.status === 'error') throw outcome.error;
  return toTestRunResponse(outcome.body, log, logId);
}

/** A call without request headers: a traffic split that sticks by one picks at random. */
const NO_HEADER = (): undefined => undefined;

/**
 * Runs an endpoint, as a fixed sequence of stages over one ExecutionRecord (see docs/architecture.md, "The stages of
 * an execution"): validate → select the prompt → cache lookup → render → attempts (each: reserve → call → validate
 * the answer → settle) → store → log. Authenticate and admit come before, in the guards (MCP: its own). Every call that reaches this service
 * (authenticated, within its rate limits, on an endpoint) is logged exactly once, whatever its outcome.
 */
@Injectable()
export class ExecutionService {
  private readonly modelCall: ModelCall;

  constructor(
    private readonly endpoints: EndpointsService,
    private readonly prompts: PromptSelectionService,
    private readonly promptContent: PromptsService,
    private readonly templates: TemplateService,
    private readonly models: ModelsService,
    private readonly llm: LlmRegistry,
    private readonly providerCalls: ProviderCallLimiter,
    private readonly logs: ExecutionLogsService,
    private readonly responses: ResponseCacheService,
    private readonly spending: BudgetSpendingService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: AppLogger,
  ) {
    this.modelCall = new ModelCall(models);
  }

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
   * Test runs: any prompt of the endpoint, Draft included, or an unsaved prompt; an unknown endpoint is a 404, not
   * logged. Run with runTest; testRunAnswer is what the run answers.
   */
  async testRunCall(
    principal: Principal,
    endpointId: string,
    prompt: TestRunCall['prompt'],
    inputs: unknown,
    requestId: string,
    tags: Tags,
  ): Promise<TestRunCall> {
    const definition = await this.endpoints.getDefinition(principal.tenantId, endpointId);
    return { kind: 'testRun', principal, definition, requestId, body: inputs, tags, prompt };
  }

  /**
   * Runs and logs a test run. Its row is written before this resolves (within LOG_WRITE_WAIT_MS), so
   * GET /admin/v1/logs/{id} finds it as soon as the run is answered.
   */
  async runTest(call: TestRunCall): Promise<LoggedOutcome> {
    const run = await this.runLogged(call);
    await this.logs.flushWithin(LOG_WRITE_WAIT_MS);
    return run;
  }

  /**
   * An evaluation run's item: the outcome, what its log row records and the row's id (the row is queued; it is
   * written within the log writer's batch interval).
   */
  runForEvaluation(call: EvalCall): Promise<LoggedOutcome> {
    return this.runLogged(call);
  }

  /** The stages, then the log row (exactly one, whatever the outcome). */
  private async runLogged(call: ExecutionCall): Promise<LoggedOutcome> {
    const record = await this.stages(call);
    const outcome = record.outcome();
    const log = this.logOf(call, record, outcome);
    return { outcome, log, logId: this.logs.record(log) };
  }

  /**
   * The stages in order, each filling in the record. Never throws: a failure ends the stages, and the record keeps
   * what was known when it failed.
   */
  private async stages(call: ExecutionCall): Promise<ExecutionRecord> {
    const record = new ExecutionRecord(call);
    record.observer.executionStarted(record.startedMs);
    try {
      this.validate(call, record);
      await this.select(call, record);
      if (await this.lookUp(call, record)) return record;
      await this.render(call, record);
      await this.attempts(call, record);
      if (!record.failed) await this.store(call, record);
    } catch (error) {
      record.fail(error);
    }
    return record;
  }

  /** Validate: the body against the endpoint's input fields (and no stream of an image endpoint). */
  private validate(call: ExecutionCall, record: ExecutionRecord): void {
    if (record.observer.streams && imageOutputField(call.definition.outputFields)) {
      throw new ValidationError(
        'An image endpoint answers only once its images are generated: it cannot stream',
        'stream',
      );
    }
    record.inputs = validateInputs(call.body, call.definition.inputFields, this.config.maxImageBytes);
  }

  /** Select the prompt: a test run's is the one it names (pinned); otherwise the prompts module selects it. */
  private async select(call: ExecutionCall, record: ExecutionRecord): Promise<void> {
    const { principal, definition } = call;
    if (call.kind === 'eval') {
      record.prompt = call.prompt;
      record.assignment = 'pinned';
      return;
    }
    if (call.kind === 'testRun') {
      const { tenantId } = principal;
      const endpointId = definition.endpoint.id;
      record.prompt =
        'unsaved' in call.prompt
          ? await this.promptContent.unsavedForTestRun(tenantId, endpointId, call.prompt.unsaved)
          : await this.prompts.getForTestRun(tenantId, endpointId, call.prompt.promptId, call.prompt.version);
      record.assignment = 'pinned';
      return;
    }
    const { selector, header = NO_HEADER } = call.prompt;
    const selected = await this.prompts.selectForExecution(principal.tenantId, definition.endpoint, selector, {
      keyId: principal.keyId,
      header,
    });
    record.prompt = selected.prompt;
    record.assignment = selected.assignment;
  }

  /**
   * Cache lookup (Api calls): from here the prompt version is known, so the response cache answers or stores around
   * the render and the model call. The key covers the prompt version and the whole body, so the prompt a hit was
   * rendered from is the one this call would render: a hit is answered without a render (entries stored before they
   * kept it render). Whether the cache answered.
   */
  private async lookUp(call: ExecutionCall, record: ExecutionRecord): Promise<boolean> {
    const prompt = record.prompt!;
    if (call.kind === 'api') {
      const { endpoint } = call.definition;
      record.cacheKey = endpoint.cacheEnabled
        ? cacheKey({
            endpointId: endpoint.id,
            ...settingsOf(prompt),
            fields: fieldsOf(call.definition),
            body: call.body,
          })
        : null;
      record.cache = record.cacheKey && !call.cache.bypass ? 'MISS' : 'BYPASS';
    }
    record.observer.selected(prompt, record.cache);
    if (record.cache !== 'MISS') return false;
    const hit = await this.responses.get(record.cacheKey!);
    if (!hit) return false;
    record.cache = 'HIT';
    record.observer.cacheHit(prompt.llmModel, hit.rawResponse ?? JSON.stringify(hit.body), hit.body);
    if (hit.renderedPrompt !== undefined && hit.renderedMessages !== undefined) {
      record.renderedPrompt = hit.renderedPrompt;
      record.renderedMessages = hit.renderedMessages as LoggedMessage[];
    } else {
      await this.render(call, record);
    }
    record.body = hit.body;
    record.rawResponse = hit.rawResponse;
    record.parsedOutput = hit.parsedOutput;
    record.finishReason = hit.finishReason ?? null;
    return true;
  }

  /**
   * Render: the prompt's template with the validated inputs, into its text and messages, each image input placed where
   * the template outputs it (see chatMessagesOf); with the caller's fair share of the render threads (a tenant
   * flooding them waits its turn).
   */
  private async render(call: ExecutionCall, record: ExecutionRecord): Promise<void> {
    const prompt = record.prompt!;
    const { values, images } = record.inputs!;
    const rendered = await this.templates.render(
      `${prompt.id}:${prompt.version}`,
      prompt.template,
      values,
      { tenantId: call.principal.tenantId, signal: record.gone },
      images.map((image) => image.field),
    );
    record.renderedPrompt = rendered.text;
    record.renderedMessages = loggedMessagesOf(rendered.messages);
    record.messages = chatMessagesOf(rendered.messages, images);
  }

  /**
   * Attempts: the model call, text (raw or structured) or images, as a loop over the prompt's plan (its own model, its
   * retries, then its fallback models; see attempt-plan), each attempt reserve → call → settle; a failure that fails
   * over is followed by the next attempt while the endpoint's timeout leaves time for it. The answer is the first
   * success, or the last failure. A model the service cannot call (unknown model, provider not configured, settings
   * out of bounds) throws: that is the service's own error, never failed over. The provider-call slot the first
   * reserve took is given back when the attempts end (a stream at its end), however they end.
   */
  private async attempts(call: ExecutionCall, record: ExecutionRecord): Promise<void> {
    try {
      const { result, planned } = await runAttempts<Generation>({
        plan: planAttempts(record.prompt!),
        deadlineMs: call.definition.endpoint.timeoutSeconds * 1000,
        elapsedMs: () => record.elapsedMs(),
        run: (next, time) => this.attempt(call, record, next, time),
        // A stream fails over only before its first piece: after it, the caller has part of one model's answer. A
        // caller that left gets no further attempt.
        mayFailOver: () => record.observer.mayFailOver() && !record.gone?.aborted,
        sleep: (ms) => untilGone(ms, record.gone),
      });
      if (!result.ok) {
        record.fail(result.error, result.rawResponse);
        return;
      }
      record.answeredPosition = planned.position;
      record.body = result.body;
      record.rawResponse = result.rawResponse;
      record.parsedOutput = result.parsedOutput;
      record.finishReason = result.finishReason ?? null;
    } finally {
      record.releaseSlot?.();
    }
  }

  /** One attempt: reserve → call → settle. */
  private async attempt(
    call: ExecutionCall,
    record: ExecutionRecord,
    planned: PlannedAttempt,
    time: AttemptTime,
  ): Promise<Generation> {
    const reservation = await this.reserve(call, record, planned);
    let generation: Generation | undefined;
    try {
      generation = await this.call(call, record, planned, time);
    } finally {
      // However the attempt ended, its reservation is replaced by what it cost (nothing when it never reached the model).
      if (reservation) void this.spending.settle(reservation, generation?.attempt.costUsd ?? null);
    }
    this.settle(call, record, generation);
    return generation;
  }

  /**
   * Reserve, before each attempt: the call holds one of its key's and tenant's provider-call slots from the first
   * attempt through the last (a stream to its end), so a retry never queues behind other callers; past either bound
   * it is refused with 429 before the provider is called. Then the attempt's worst-case cost is reserved against
   * every enabled spend budget that covers the call (its key's, its endpoint's, its tenant's, one per tag it
   * carries): when one would go over its limit the attempt does not start (429 budget_exceeded, or the stream's
   * `error` event once it has opened).
   */
  private async reserve(
    call: ExecutionCall,
    record: ExecutionRecord,
    planned: PlannedAttempt,
  ): Promise<SpendReservation | null> {
    // An evaluation run bounds its own calls (per run and per tenant), so it takes none of its key's slots.
    if (call.kind !== 'eval') record.releaseSlot ??= this.providerCalls.acquire(call.principal);
    const model = this.models.find(planned.llmModel);
    if (!model) return null;
    const { endpoint, outputFields } = call.definition;
    return this.spending.reserve({
      tenantId: call.principal.tenantId,
      party: {
        keyId: call.principal.keyId,
        endpointId: endpoint.id,
        tags: mergeTags(call.principal.defaultTags, call.tags),
      },
      startedAt: record.startedAt,
      model,
      attempt: () => {
        const imageField = imageOutputField(outputFields);
        return {
          prompt: record.renderedPrompt!,
          inputImages: record.inputs!.images.length,
          maxTokens: planned.maxTokens,
          images: imageField ? imageCountOf(imageSettingsOf(imageField, planned.customParameters)) : null,
        };
      },
      timeoutSeconds: endpoint.timeoutSeconds,
    });
  }

  /** Call: one model call with the planned model and settings, within `time` (see ModelCall). */
  private call(
    call: ExecutionCall,
    record: ExecutionRecord,
    planned: PlannedAttempt,
    time: AttemptTime,
  ): Promise<Generation> {
    const { outputFields } = call.definition;
    // The caller left while the previous attempt's Retry-After was waited for.
    if (record.gone?.aborted) throw record.gone.reason;
    const model = this.models.find(planned.llmModel);
    if (!model) throw new UpstreamError(`The model '${planned.llmModel}' of the prompt is not in the model list`);
    const client = this.clientOf(model);
    const imageField = imageOutputField(outputFields);
    if (imageField) {
      // The image field's exampleValue supplies defaults (`n` among them): the merged settings are what is sent.
      const settings = imageSettingsOf(imageField, planned.customParameters);
      this.assertSettingsInBounds(settings, true);
      return this.modelCall.images(call, record, client, model, settings, time);
    }
    this.assertSettingsInBounds(planned.customParameters, false);
    return this.modelCall.text(call, record, client, model, planned, time);
  }

  /**
   * Settle, after each attempt: the attempt recorded (its usage and cost), and a provider's own text about a failure
   * sent to the service log only (it may name the operator's account): callers, streams and log rows get our message
   * naming the provider and the status (its spend reservation was settled with its cost as the call ended).
   */
  private settle(call: ExecutionCall, record: ExecutionRecord, generation: Generation): void {
    record.attempts.push(generation.attempt);
    if (generation.ok) return;
    const error = generation.error;
    if (!(error instanceof ProviderError) || error.providerMessage === null) return;
    this.logger.write('warn', error.message, {
      context: 'Execution',
      requestId: call.requestId,
      providerStatus: error.providerStatus,
      providerMessage: error.providerMessage,
    });
  }

  /** Store: only the prompt's own model's answers are cached (a fallback's answer stands in for it on this call only). */
  private async store(call: ExecutionCall, record: ExecutionRecord): Promise<void> {
    if (!record.cacheKey || record.answeredPosition !== 0) return;
    const { endpoint } = call.definition;
    const { body, renderedPrompt, renderedMessages, rawResponse, parsedOutput, finishReason } = record;
    await this.responses.set(
      { tenantId: call.principal.tenantId, endpointId: endpoint.id },
      record.cacheKey,
      {
        body,
        renderedPrompt: renderedPrompt!,
        renderedMessages: renderedMessages!,
        rawResponse: rawResponse!,
        parsedOutput,
        finishReason,
      },
      endpoint.cacheDurationSeconds,
    );
  }

  /** Log: the row of the execution (`ExecutionLogsService.record` queues it). */
  private logOf(call: ExecutionCall, record: ExecutionRecord, outcome: ExecutionOutcome): NewExecutionLog {
    const { endpoint, inputFields } = call.definition;
    const stream = record.observer.logged();
    const tags = mergeTags(call.principal.defaultTags, call.tags);
    tagActiveSpanWithTags(tags);
    return toExecutionLog(outcome, {
      principal: call.principal,
      tags,
      endpointId: endpoint.id,
      source: sourceOf(call),
      requestId: call.requestId,
      inputs: loggableInputs(call.body, inputFields),
      // Answered as an event stream (a failure before the model was called is a plain JSON answer).
      ...(stream ? { stream } : {}),
    });
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

  private clientOf(model: ModelInfo): LlmClient {
    const provider = this.models.provider(model.provider);
    if (!provider?.configured) {
      throw new UpstreamError(
        `The provider '${model.provider}' of model '${model.id}' is not configured on this server`,
      );
    }
    return this.llm.clientFor(provider);
  }
}

/** The images an image call asks for: its `n` (1 when it sets none). */
function imageCountOf(settings: Record<string, unknown>): number {
  const n = settings.n;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 1;
}

/** Waits `ms` before a retry, or less when the caller goes away meanwhile. */
async function untilGone(ms: number, gone: AbortSignal | undefined): Promise<void> {
  await sleep(ms, undefined, gone ? { signal: gone } : undefined).catch(() => undefined);
}

/**
 * The fingerprint of a definition's fields for the cache key, computed once per definition object (rebuilt when the
 * endpoint or one of its fields changes, as the output schemas of model-call.ts are).
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
