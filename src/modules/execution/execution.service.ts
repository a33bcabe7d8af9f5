import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { PromptError, UpstreamError, UpstreamTimeoutError } from '../../common/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { EndpointDefinition } from '../endpoints/endpoints.service';
import { cacheKey } from '../cache/cache-key';
import { ResponseCacheService } from '../cache/response-cache.service';
import { EndpointsService } from '../endpoints/endpoints.service';
import { customParametersProblems } from '../llm/call-settings';
import { InvalidLlmOutputError, type LlmClient } from '../llm/llm-client';
import { LlmRegistry } from '../llm/llm-registry';
import { ExecutionLogsService } from '../logs/execution-logs.service';
import type { ExecutionSource, NewExecutionLog } from '../logs/new-execution-log';
import type { ModelInfo } from '../models/model';
import { ModelsService } from '../models/models.service';
import type { ExecutablePrompt } from '../prompts/executable-prompt';
import { PromptsService } from '../prompts/prompts.service';
import { TemplateService } from '../prompts/template/template.service';
import { type TestRunResponse, toTestRunResponse } from './dto/test-run.response';
import { ExecutionRecord, loggableInputs } from './execution-record';
import { validateInputs, ValidatedInputs } from './input-validation';
import { conformOutput, imageOutputField, imageSettingsOf, type OutputSchema, outputSchemaOf, rawOutputOf } from './output-schema';

export interface ExecutionCall {
  principal: Principal;
  definition: EndpointDefinition;
  source: ExecutionSource;
  requestId: string;
  body: unknown;
  /** Api: the `?prompt=` name or slug (the default prompt when absent); TestPage: a prompt id, any status. */
  prompt: { selector?: string } | { id: string };
  /** Api executions only: the response cache's input (x-cache-bypass) and outcome (the X-Cache header). */
  cache?: CacheControl;
}

/**
 * HIT = answered from the cache; MISS = looked up, not found, the fresh answer stored; BYPASS = the
 * cache was not read (x-cache-bypass: true, which still stores the fresh answer, or caching is off on the endpoint).
 */
export interface CacheControl {
  bypass: boolean;
  status?: 'HIT' | 'MISS' | 'BYPASS';
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
 * Runs an endpoint: input validation, prompt selection, Liquid rendering, the LLM call bounded by the endpoint's
 * timeout, and the output rules. Every call that reaches this service (authenticated, within its rate limits, on an
 * endpoint) is logged exactly once, whatever its outcome.
 */
@Injectable()
export class ExecutionService {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly prompts: PromptsService,
    private readonly templates: TemplateService,
    private readonly models: ModelsService,
    private readonly llm: LlmRegistry,
    private readonly logs: ExecutionLogsService,
    private readonly responses: ResponseCacheService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The execution body (what the execution API answers). */
  async execute(call: ExecutionCall): Promise<unknown> {
    return (await this.executeLogged(call)).body;
  }

  /**
   * Test runs: any prompt of the endpoint, Draft included; an unknown endpoint is a 404, not logged. The answer is the
   * execution body with what the log row records of the run, and the row's id: its row is written before the answer
   * (within LOG_WRITE_WAIT_MS), so GET /admin/v1/logs/{id} finds it right away.
   */
  async testRun(principal: Principal, endpointId: string, promptId: string, inputs: unknown, requestId: string): Promise<TestRunResponse> {
    const definition = await this.endpoints.getDefinition(principal.tenantId, endpointId);
    const { body, log, logId } = await this.executeLogged({ principal, definition, source: 'TestPage', requestId, body: inputs, prompt: { id: promptId } });
    await this.logs.flushWithin(LOG_WRITE_WAIT_MS);
    return toTestRunResponse(body, log, logId);
  }

  /** Runs the call and records its log row (exactly one, whatever the outcome); a failure is thrown after logging. */
  private async executeLogged(call: ExecutionCall): Promise<{ body: unknown; log: NewExecutionLog; logId: string }> {
    const { endpoint, inputFields } = call.definition;
    const record = new ExecutionRecord(call.principal, endpoint.id, call.source, call.requestId, loggableInputs(call.body, inputFields));
    let body: unknown;
    try {
      body = await this.run(call, record);
    } catch (error) {
      this.logs.record(record.failure(error));
      throw error;
    }
    const log = record.success();
    return { body, log, logId: this.logs.record(log) };
  }

  private async run(call: ExecutionCall, record: ExecutionRecord): Promise<unknown> {
    const { endpoint, inputFields } = call.definition;
    const inputs = validateInputs(call.body, inputFields, this.config.maxImageBytes);
    const prompt = await this.promptOf(call);
    record.prompt = prompt;
    // From here the prompt version is known: the response cache answers or stores around the render and the LLM call.
    const key = call.cache && endpoint.cacheEnabled ? cacheKey({ endpointId: endpoint.id, ...settingsOf(prompt), body: call.body }) : null;
    if (call.cache) call.cache.status = key && !call.cache.bypass ? 'MISS' : 'BYPASS';
    if (key && !call.cache!.bypass) {
      const hit = await this.responses.get(key);
      // The key covers the prompt version and the whole body, so the prompt the entry was rendered from is the one
      // this call would render: a hit is answered without a render (entries stored before they kept it render).
      if (hit) {
        call.cache!.status = 'HIT';
        record.cached = true;
        record.renderedPrompt = hit.renderedPrompt ?? (await this.render(prompt, inputs));
        record.rawResponse = hit.rawResponse;
        record.parsedOutput = hit.parsedOutput;
        return hit.body;
      }
    }
    record.renderedPrompt = await this.render(prompt, inputs);
    const body = await this.answer(call, prompt, inputs, record);
    if (key) {
      const entry = { body, renderedPrompt: record.renderedPrompt, rawResponse: record.rawResponse, parsedOutput: record.parsedOutput };
      await this.responses.set(endpoint.id, key, entry, endpoint.cacheDurationSeconds);
    }
    return body;
  }

  private render(prompt: ExecutablePrompt, inputs: ValidatedInputs): Promise<string> {
    return this.templates.render(`${prompt.id}:${prompt.version}`, prompt.template, inputs.values);
  }

  /** The LLM call: text (raw or structured) or images. */
  private async answer(call: ExecutionCall, prompt: ExecutablePrompt, inputs: ValidatedInputs, record: ExecutionRecord): Promise<unknown> {
    const { endpoint, outputFields } = call.definition;
    const model = this.models.find(prompt.llmModel);
    if (!model) throw new UpstreamError(`The prompt's model '${prompt.llmModel}' is not in the model list`);
    const client = this.clientOf(model);
    // The endpoint's timeoutSeconds bounds the whole call; no retry can outlast it.
    const remainingMs = endpoint.timeoutSeconds * 1000 - record.elapsedMs();
    const imageField = imageOutputField(outputFields);
    if (imageField) {
      // The image field's exampleValue supplies defaults (`n` among them): the merged settings are what is sent.
      const settings = imageSettingsOf(imageField, prompt.customParameters);
      this.assertSettingsInBounds(settings, true);
      return this.generateImages(client, model, record, remainingMs, endpoint.timeoutSeconds, settings);
    }
    this.assertSettingsInBounds(prompt.customParameters, false);
    return this.generateText(call, client, model, prompt, inputs, record, remainingMs);
  }

  /**
   * The rules a prompt's customParameters are saved under, checked again before every provider call: a row saved
   * before a rule existed (or an image field's defaults) cannot run out of bounds. Such a prompt cannot run: 422.
   */
  private assertSettingsInBounds(settings: Record<string, unknown>, imageEndpoint: boolean): void {
    const problems = customParametersProblems(settings, { imageEndpoint, maxImagesPerCall: this.config.maxImagesPerCall });
    if (problems.length > 0) throw new PromptError(`The prompt's settings are out of bounds: ${problems.join('; ')}`);
  }

  private promptOf(call: ExecutionCall): Promise<ExecutablePrompt> {
    const { principal, definition } = call;
    return 'id' in call.prompt
      ? this.prompts.getForTestRun(principal.tenantId, definition.endpoint.id, call.prompt.id)
      : this.prompts.resolveForExecution(principal.tenantId, definition.endpoint.id, call.prompt.selector);
  }

  private clientOf(model: ModelInfo): LlmClient {
    const provider = this.models.provider(model.provider);
    if (!provider?.configured) {
      throw new UpstreamError(`The provider '${model.provider}' of model '${model.id}' is not configured on this server`);
    }
    return this.llm.clientFor(provider);
  }

  private async generateText(
    call: ExecutionCall,
    client: LlmClient,
    model: ModelInfo,
    prompt: ExecutablePrompt,
    inputs: ValidatedInputs,
    record: ExecutionRecord,
    remainingMs: number,
  ): Promise<unknown> {
    const { outputFields, endpoint } = call.definition;
    const schema = schemaOf(outputFields);
    const result = await withDeadline(remainingMs, endpoint.timeoutSeconds, (abortSignal) =>
      client.generateText({
        model: model.id,
        prompt: record.renderedPrompt!,
        images: inputs.images,
        temperature: prompt.temperature,
        maxOutputTokens: prompt.maxTokens,
        customParameters: prompt.customParameters,
        ...(schema ? { schema } : {}),
        abortSignal,
      }),
    );
    record.rawResponse = result.text;
    record.usage = result.usage;
    record.costUsd = this.models.costOf(model.id, result.usage);
    if (!schema) {
      record.parsedOutput = rawOutputOf(result.text);
      return record.parsedOutput;
    }
    const conformance = conformOutput(result.object, outputFields);
    if (!conformance.ok) {
      throw new InvalidLlmOutputError(`The model's answer does not match the output fields: ${conformance.problem}`, result.text, result.usage);
    }
    record.parsedOutput = conformance.value;
    return conformance.value;
  }

  private async generateImages(
    client: LlmClient,
    model: ModelInfo,
    record: ExecutionRecord,
    remainingMs: number,
    timeoutSeconds: number,
    settings: Record<string, unknown>,
  ): Promise<ImageExecutionBody> {
    const result = await withDeadline(remainingMs, timeoutSeconds, (abortSignal) =>
      client.generateImage({ model: model.id, prompt: record.renderedPrompt!, settings, abortSignal }),
    );
    record.usage = result.usage;
    record.costUsd = this.models.costOf(model.id, { ...result.usage, images: result.images.length });
    const usage = { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
    // The log keeps what was generated without the image bytes (megabytes of base64 per row).
    const summary = result.images.map((image) => ({ revisedPrompt: image.revisedPrompt, base64Length: image.base64Data.length }));
    record.rawResponse = JSON.stringify({ images: summary, usage });
    record.parsedOutput = { generatedImages: summary, usage };
    return { generatedImages: result.images, usage };
  }
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

/** Runs `work` with an abort signal that fires when the time left runs out, and answers 504 at that moment. */
async function withDeadline<T>(remainingMs: number, timeoutSeconds: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const message = `The LLM did not answer within the endpoint's timeout of ${timeoutSeconds} seconds`;
  if (remainingMs <= 0) throw new UpstreamTimeoutError(message);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new UpstreamTimeoutError(message));
    }, remainingMs);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } catch (error) {
    if (error instanceof UpstreamTimeoutError) throw new UpstreamTimeoutError(message);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** What a cached answer depends on besides the endpoint and the body: the prompt version and its model settings. */
function settingsOf(prompt: ExecutablePrompt) {
  const { id: promptId, version: promptVersion, llmModel, temperature, maxTokens, customParameters } = prompt;
  return { promptId, promptVersion, llmModel, temperature, maxTokens, customParameters };
}
