import {
  APICallError,
  type JSONValue,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4Message,
  type LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type * as AiSdk from 'ai';
import type { ImageModel } from 'ai';
import { TimeSlice } from '../../../common/async/time-slice';
import { UpstreamError, UpstreamTimeoutError } from '../../../common/errors/app-error';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../../common/http/json-depth';
import type { ProviderDefinition } from '../../models/model';
import type { ProviderHttp } from '../provider-http';
import { splitCustomParameters, splitImageSettings, type SplitSettings } from '../call-settings';
import { captureRequest, type OpenEventStream, type ReadJsonAnswer, replayResponse } from '../http-fetch';
import { LeanEventStream, type LeanStreamResult, ProviderStreamError } from '../streaming/lean-event-stream';
import type { StreamFormat } from '../streaming/provider-streams';
import {
  AnswerTooLargeError,
  type ChatPart,
  ImageRequest,
  ImageResult,
  InvalidLlmOutputError,
  LlmClient,
  ProviderError,
  providerRefusalMessage,
  retryAfterMsOf,
  type StreamedTextResult,
  TextRequest,
  TextResult,
  type TextStreamEvent,
  TokenUsage,
} from '../llm-client';

/**
 * A streamed answer is read for at most this long before the event loop gets its turn back: a provider stream that
 * arrives faster than it is read (thousands of small pieces buffered) would otherwise be read to its end in one turn
 * while every other request waits.
 */
const STREAM_READ_SLICE_MS = 5;

// The AI SDK prints warnings (unsupported settings, deprecations) straight to the console; our logs are JSON lines.
(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;

/**
 * A provider package, loaded with the first client that needs it rather than at start: module loading is most of
 * the start-up time, and a deployment usually uses one or two of the providers.
 */
export function loadSdk<T>(name: string): T {
  return require(name) as T;
}

/** The settings of a provider's own library: the key, and the base URL when MODELS_FILE gives one. */
export function keyAndBaseUrl(definition: ProviderDefinition): { apiKey?: string; baseURL?: string } {
  return {
    apiKey: definition.apiKey,
    ...(definition.baseUrl ? { baseURL: definition.baseUrl } : {}),
  };
}

/** A provider's own library (OpenAI, Google): its `create…` function, whose providers make text and image models. */
export type TextAndImageSdk = (settings: { apiKey?: string; baseURL?: string; fetch: typeof globalThis.fetch }) => {
  (modelId: string): LanguageModelV4;
  image(modelId: string): ImageModel;
};

/** A client through a provider's own library for text and images, keyed and addressed as MODELS_FILE says. */
export function textAndImageClient(
  definition: ProviderDefinition,
  http: ProviderHttp,
  optionsKey: string,
  create: TextAndImageSdk,
  streamFormat?: StreamFormat,
): LlmClient {
  const settings = keyAndBaseUrl(definition);
  const provider = http.perAnswer((fetch) => create({ ...settings, fetch }));
  return new AiSdkClient({
    providerName: definition.name,
    optionsKey,
    languageModel: (id) => provider.text(id),
    imageModel: (id) => provider.images.image(id),
    ...(streamFormat ? { eventStreams: { format: streamFormat, open: http.textEventStream } } : {}),
  });
}

/** What an adapter supplies: the provider library's models and the key its provider options live under. */
export interface AiSdkModels {
  /** Display name in error messages (`openai`, `anthropic`, the MODELS_FILE provider name). */
  providerName: string;
  /** `providerOptions` key of this provider (`openai`, `anthropic`, `google`, or the compatible provider's name). */
  optionsKey: string;
  languageModel(modelId: string): LanguageModelV4;
  /** Absent when the provider has no image generation API. */
  imageModel?(modelId: string): ImageModel;
  /**
   * When a streamed answer is read by LeanEventStream rather than through the library's stream (which remains the way
   * for a request the lean reader leaves alone): the wire format of the model's event stream, and the fetch that hands
   * its body over.
   */
  eventStreams?: {
    format: StreamFormat;
    open(input: string | URL | Request, init: RequestInit): Promise<Response | OpenEventStream>;
  };
  /**
   * For a provider library whose model turns an answer's body into its result itself (the OpenAI-compatible chat
   * model's `convertResponse`): a plain call's 200 JSON answer is then read here, parsed once and handed to it, rather
   * than read through the library's fetch handling (a web Response, its text, the library's own JSON parse); any other
   * answer is the library's to read, as before. `jsonAnswer` sends the request and hands a 200 JSON answer over.
   */
  answerReader?: {
    convert(model: LanguageModelV4, body: unknown): Promise<LanguageModelV4GenerateResult>;
    jsonAnswer(input: string | URL | Request, init: RequestInit): Promise<Response | ReadJsonAnswer>;
  };
}

/**
 * An LlmClient on the AI SDK. The SDK never retries (one request per call): the execution service's attempt loop
 * decides on retries and fallback models, within the endpoint's timeout, and sees each attempt. A failure is reported
 * at once, with the provider's status and Retry-After.
 */
export class AiSdkClient implements LlmClient {
  /** Model objects are built once per id: building one per call showed in the execution profile. */
  private readonly languageModels = new Map<string, LanguageModelV4>();
  private readonly imageModels = new Map<string, ImageModel>();

  constructor(private readonly models: AiSdkModels) {}

  private languageModel(id: string): LanguageModelV4 {
    let model = this.languageModels.get(id);
    if (!model) this.languageModels.set(id, (model = this.models.languageModel(id)));
    return model;
  }

  private imageModel(id: string): ImageModel {
    let model = this.imageModels.get(id);
    if (!model) this.imageModels.set(id, (model = this.models.imageModel!(id)));
    return model;
  }

  /**
   * One call of the provider's language model (`doGenerate`, the AI SDK's provider specification) rather than
   * `generateText`: we make a single call with no tools, steps, retries or telemetry, and `generateText`'s
   * orchestration around it cost 45 % of the call's CPU in the execution profile (160 µs a call). The provider's own
   * request building, response validation and error types are the library's, unchanged.
   */
  async generateText(request: TextRequest): Promise<TextResult> {
    try {
      const model = this.languageModel(request.model);
      const options = this.callOptions(request);
      const result = this.models.answerReader
        ? await this.readAnswer(request.abortSignal, model, options, this.models.answerReader)
        : await model.doGenerate(options);
      const text = result.structuredOutputText ?? textOf(result.content);
      const usage = {
        inputTokens: result.usage.inputTokens.total ?? null,
        outputTokens: result.usage.outputTokens.total ?? null,
      };
      return this.answerOf(request, text, usage, result.finishReason.unified, result.response?.modelId);
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw this.failure(error, request.abortSignal);
    }
  }

  /**
   * A plain call whose answer is read here (see AiSdkModels.answerReader): the library builds the request
   * (captureRequest), sent here; a 200 JSON answer is parsed once and converted by the library's model, any other
   * answer (a refusal, a body that is not JSON) handed back to the library as its answer, so it reads as it did.
   */
  private async readAnswer(
    signal: AbortSignal,
    model: LanguageModelV4,
    options: LanguageModelV4CallOptions,
    reader: NonNullable<AiSdkModels['answerReader']>,
  ): Promise<LanguageModelV4GenerateResult> {
    const captured = await captureRequest(signal, () => model.doGenerate(options));
    if (captured === null) return model.doGenerate(options);
    const answer = await reader.jsonAnswer(captured.input, captured.init);
    if (answer instanceof Response) return replayResponse(signal, answer, () => model.doGenerate(options));
    let body: unknown;
    try {
      body = JSON.parse(answer.json);
    } catch {
      const unreadable = new Response(answer.json, { status: 200, headers: { 'content-type': 'application/json' } });
      return replayResponse(signal, unreadable, () => model.doGenerate(options));
    }
    return reader.convert(model, body);
  }

  /**
   * The call streamed: one `doStream` of the provider's language model, for the reason generateText uses `doGenerate`
   * (the AI SDK's `streamText` wraps the provider's stream in several more web streams: 7 to 10 ms of CPU for a
   * 20-chunk answer in the streaming bench, against 2 to 2.6 ms for the provider's stream alone). The text is passed
   * on as it comes, the JSON text of structured output included (the caller builds the object so far when it needs
   * one: parsing the whole text at every piece made a long answer in small pieces quadratic). The complete answer is
   * then read and checked exactly as generateText's is, so a streamed call ends with the body the plain call would
   * answer. For a provider whose wire format LeanEventStream reads, the library's stream is not used either: the
   * library builds the request, which is sent here, and the answering event stream is read from the connection's body
   * (see leanStream); the library's own per-chunk stages cost 2.1 ms of CPU per 20-chunk answer, the lean reader
   * about 0.1 ms.
   */
  async streamText(request: TextRequest, onEvent: (event: TextStreamEvent) => void): Promise<StreamedTextResult> {
    try {
      const model = this.languageModel(request.model);
      const options = this.callOptions(request);
      const eventStreams = this.models.eventStreams;
      const stream = eventStreams ? await this.leanStream(request, model, options, eventStreams) : null;
      if (!eventStreams || stream === null) {
        return await this.libraryAnswer(request, (await model.doStream(options)).stream, onEvent);
      }
      if ('replayed' in stream) {
        // Not an event stream (a refusal, say): the library reads it, as it would have.
        const { stream: parts } = await replayResponse(request.abortSignal, stream.replayed, () =>
          model.doStream(options),
        );
        return await this.libraryAnswer(request, parts, onEvent);
      }
      const lean = new LeanEventStream(
        eventStreams.format,
        (text) => onEvent({ type: 'delta', text }),
        request.backpressure,
      );
      lean.read(stream);
      return await this.leanAnswer(request, lean);
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw this.failure(error, request.abortSignal);
    }
  }

  /**
   * The streamed call sent without the library's stream: the library builds its request (captureRequest), sent here;
   * its answer is an event stream to read, or another answer to hand back to the library (`replayed`). Null for a call
   * the library streams itself: one that declares tools (a structured answer Anthropic gives through its JSON tool, a
   * stream of more than text), or one whose signal another call shares.
   */
  private async leanStream(
    request: TextRequest,
    model: LanguageModelV4,
    options: LanguageModelV4CallOptions,
    eventStreams: NonNullable<AiSdkModels['eventStreams']>,
  ): Promise<OpenEventStream | { replayed: Response } | null> {
    const captured = await captureRequest(request.abortSignal, () => model.doStream(options));
    if (captured === null || (typeof captured.init.body === 'string' && captured.init.body.includes('"tools":'))) {
      return null;
    }
    const answer = await eventStreams.open(captured.input, captured.init);
    return answer instanceof Response ? { replayed: answer } : answer;
  }

  /** A streamed answer read by LeanEventStream, checked as generateText's is. */
  private async leanAnswer(request: TextRequest, lean: LeanEventStream): Promise<StreamedTextResult> {
    let result: LeanStreamResult;
    try {
      result = await lean.result;
    } catch (error) {
      if (request.abortSignal.aborted) throw this.failure(error, request.abortSignal);
      throw error instanceof ProviderStreamError ? this.reportedFailure(error) : error;
    }
    if (request.abortSignal.aborted) throw request.abortSignal.reason;
    const answer = this.answerOf(request, result.text, result.usage, result.finishReason, result.responseModel);
    return { ...answer, finishReason: result.finishReason };
  }

  /** A streamed answer read through the provider library's stream. */
  private async libraryAnswer(
    request: TextRequest,
    stream: ReadableStream<LanguageModelV4StreamPart>,
    onEvent: (event: TextStreamEvent) => void,
  ): Promise<StreamedTextResult> {
    // Appending a piece does not copy the text (the engine joins the pieces once, when the answer is read).
    let text = '';
    let usage: TokenUsage = { inputTokens: null, outputTokens: null };
    let finishReason = 'other';
    let responseModel: string | undefined;
    const reader = stream.getReader();
    const slice = new TimeSlice(STREAM_READ_SLICE_MS);
    for (;;) {
      await slice.yieldIfDue();
      const { done, value: part } = await reader.read();
      if (done) break;
      if (part.type === 'text-delta') {
        text += part.delta;
        onEvent({ type: 'delta', text: part.delta });
      } else if (part.type === 'finish') {
        usage = {
          inputTokens: part.usage.inputTokens.total ?? null,
          outputTokens: part.usage.outputTokens.total ?? null,
        };
        finishReason = part.finishReason.unified;
      } else if (part.type === 'response-metadata') {
        responseModel = part.modelId ?? responseModel;
      } else if (part.type === 'error') {
        // An aborted call (the deadline, or a client that left) ends its stream with an error part of its own.
        throw request.abortSignal.aborted ? part.error : this.streamedFailure(part.error);
      }
    }
    if (request.abortSignal.aborted) throw request.abortSignal.reason;
    const answer = this.answerOf(request, text, usage, finishReason, responseModel);
    return { ...answer, finishReason };
  }

  /**
   * An error the provider reported in its event stream, read by LeanEventStream: before any of the answer, a refusal
   * with the status it stands for (as the provider library reports one); once the answer had begun, a failure while
   * answering. Its text is for the service log.
   */
  private reportedFailure(error: ProviderStreamError): ProviderError {
    const name = this.models.providerName;
    const { status, message } = error.failure;
    if (status !== null) {
      return new ProviderError(providerRefusalMessage(name, status), status, null, undefined, bounded(message));
    }
    return new ProviderError(
      `the provider '${name}' reported an error while answering`,
      null,
      null,
      undefined,
      bounded(message),
    );
  }

  /**
   * The provider call's options, plain or streamed: the prompt, the settings (customParameters split into the common
   * sampling settings, checked, and the provider's own options) and, for output fields, the JSON schema.
   */
  private callOptions(request: TextRequest): LanguageModelV4CallOptions {
    const settings = splitCustomParameters(request.customParameters);
    const options = { ...settings.provider } as Record<string, JSONValue>;
    if (request.schema && !request.schema.strict) options.strictJsonSchema = false;
    return {
      prompt: promptOf(request),
      temperature: request.temperature,
      maxOutputTokens: request.maxOutputTokens,
      ...commonSettings(settings.common),
      ...(request.schema
        ? { responseFormat: { type: 'json', schema: request.schema.jsonSchema, name: 'response' } }
        : {}),
      providerOptions: Object.keys(options).length > 0 ? { [this.models.optionsKey]: options } : {},
      abortSignal: request.abortSignal,
    };
  }

  /** The answer of a complete text: with a schema, its JSON parsed (a 502 when it is not JSON or too deep). */
  private answerOf(
    request: TextRequest,
    text: string,
    usage: TokenUsage,
    finishReason: string,
    responseModel: string | undefined,
  ): TextResult {
    const answered = { finishReason, responseModel };
    if (!request.schema) return { text, usage, ...answered };
    const object = parseJson(
      text,
      `${this.models.providerName} did not answer with JSON for the output fields`,
      usage,
      this.models.providerName,
    );
    return { text, object, usage, ...answered };
  }

  async generateImage(request: ImageRequest): Promise<ImageResult> {
    if (!this.models.imageModel) {
      throw new UpstreamError(`Provider ${this.models.providerName} cannot generate images`);
    }
    const settings = splitImageSettings(request.settings);
    try {
      const { generateImage } = loadSdk<typeof AiSdk>('ai');
      const result = await generateImage({
        model: this.imageModel(request.model),
        prompt: request.prompt,
        ...(settings.n !== undefined ? { n: settings.n } : {}),
        ...(settings.size !== undefined ? { size: settings.size } : {}),
        ...(settings.aspectRatio !== undefined ? { aspectRatio: settings.aspectRatio } : {}),
        ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
        providerOptions: Object.keys(settings.provider).length
          ? { [this.models.optionsKey]: settings.provider as Record<string, never> }
          : {},
        maxRetries: 0,
        abortSignal: request.abortSignal,
      });
      const metadata = (
        result.providerMetadata?.[this.models.optionsKey] as { images?: ({ revisedPrompt?: string } | null)[] }
      )?.images;
      return {
        images: result.images.map((image, index) => ({
          base64Data: image.base64,
          revisedPrompt: metadata?.[index]?.revisedPrompt ?? request.prompt,
        })),
        usage: usageOf(result.usage),
      };
    } catch (error) {
      throw this.failure(error, request.abortSignal);
    }
  }

  /**
   * An error the provider sent inside its event stream (Anthropic's `overloaded_error`, …): our message, its text for
   * the service log. A stream cut off past MAX_ANSWER_BYTES is reported as that.
   */
  private streamedFailure(error: unknown): Error {
    const tooLarge = causeOfType(error, AnswerTooLargeError);
    if (tooLarge) return tooLarge;
    const name = this.models.providerName;
    return new ProviderError(
      `the provider '${name}' reported an error while answering`,
      null,
      null,
      undefined,
      bounded(error instanceof Error ? error.message : jsonTextOf(error)),
    );
  }

  /**
   * Provider failures become a 502, an expired deadline a 504. The caller is told, in our words, which provider failed
   * and how (its status class, or that it could not be reached, or that its answer could not be read); the provider's
   * own text (which may name the operator's account) and the network error stay in `providerMessage` and the cause,
   * for the service log only.
   */
  private failure(error: unknown, signal: AbortSignal): Error {
    const name = this.models.providerName;
    if (signal.aborted || isAbort(error)) {
      return new UpstreamTimeoutError(`${name} did not answer within the endpoint's timeout`);
    }
    // The AI SDK wraps a streamed body's error (the read stopped past MAX_ANSWER_BYTES) in an error of its own.
    const tooLarge = causeOfType(error, AnswerTooLargeError);
    if (tooLarge) return tooLarge;
    if (APICallError.isInstance(error) && error.statusCode !== undefined && error.statusCode >= 400) {
      return new ProviderError(
        providerRefusalMessage(name, error.statusCode),
        error.statusCode,
        retryAfterMsOf(error.responseHeaders),
        undefined,
        providerTextOf(error),
      );
    }
    // An APICallError without a status is the AI SDK's report of a request that got no HTTP answer.
    if ((APICallError.isInstance(error) && error.statusCode === undefined) || isNetworkError(error)) {
      return new ProviderError(`the provider '${name}' could not be reached`, null, null, { cause: error });
    }
    return new UpstreamError(`the provider '${name}' answered in a form the service could not read`, undefined, {
      cause: error,
    });
  }
}

/** The provider's own account of a failure (its message and error body), bounded, for the service log. */
function providerTextOf(error: APICallError): string {
  const body = error.responseBody ? ` ${error.responseBody}` : '';
  return bounded(`${error.message}${body}`);
}

function bounded(text: string): string {
  return text.length > PROVIDER_TEXT_MAX_LENGTH ? `${text.slice(0, PROVIDER_TEXT_MAX_LENGTH)}…` : text;
}

const PROVIDER_TEXT_MAX_LENGTH = 2000;

/** A provider's error object as text (its JSON, or what String makes of one that has none). */
function jsonTextOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The conversation in the AI SDK's form: each provider library sends the roles natively (OpenAI's messages, Anthropic's
 * `system` and messages, Google's `systemInstruction` and contents).
 */
function promptOf(request: TextRequest): LanguageModelV4Message[] {
  const messages = request.messages ?? [{ role: 'user', parts: [{ type: 'text', text: request.prompt }] }];
  return messages.map((message): LanguageModelV4Message => {
    if (message.role === 'system') return { role: 'system', content: textOfParts(message.parts) };
    if (message.role === 'assistant') {
      return { role: 'assistant', content: [{ type: 'text', text: textOfParts(message.parts) }] };
    }
    return {
      role: 'user',
      content: message.parts.map((part) =>
        part.type === 'text'
          ? { type: 'text' as const, text: part.text }
          : {
              type: 'file' as const,
              // Inputs are validated `data:<mediaType>;base64,<data>` URIs: the provider takes the base64 part.
              data: { type: 'data' as const, data: part.image.dataUri.slice(part.image.dataUri.indexOf(',') + 1) },
              mediaType: part.image.mediaType,
            },
      ),
    };
  });
}

function textOfParts(parts: ChatPart[]): string {
  let text = '';
  for (const part of parts) if (part.type === 'text') text += part.text;
  return text;
}

/** The answer's text parts, joined (reasoning, sources and tool calls are not part of the answer). */
function textOf(content: LanguageModelV4Content[]): string {
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

function parseJson(text: string, message: string, usage: TokenUsage, providerName: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InvalidLlmOutputError(message, text, usage);
  }
  // An answer is held to the depth of a request body: a deeper one could not be serialised, cached or logged safely.
  if (exceedsJsonDepth(parsed)) {
    throw new InvalidLlmOutputError(
      `${providerName} answered JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
      text,
      usage,
    );
  }
  return parsed;
}

const NUMERIC_SETTINGS = ['topP', 'topK', 'presencePenalty', 'frequencyPenalty', 'seed'] as const;

/** The common sampling settings of customParameters, checked as the AI SDK's call settings are (a 502 otherwise). */
function commonSettings(common: SplitSettings['common']): Partial<LanguageModelV4CallOptions> {
  for (const name of NUMERIC_SETTINGS) {
    const value = common[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) {
      throw new UpstreamError(`Invalid customParameters: ${name} must be a number`);
    }
  }
  const stop = common.stopSequences;
  if (stop !== undefined && !(Array.isArray(stop) && stop.every((item) => typeof item === 'string'))) {
    throw new UpstreamError('Invalid customParameters: stopSequences must be a string or a list of strings');
  }
  return common as Partial<LanguageModelV4CallOptions>;
}

function usageOf(usage: { inputTokens?: number; outputTokens?: number } | undefined): TokenUsage {
  return { inputTokens: usage?.inputTokens ?? null, outputTokens: usage?.outputTokens ?? null };
}

/** The first error of `type` in the chain of causes of `error`, itself included. */
function causeOfType<T>(error: unknown, type: new (...args: never[]) => T): T | null {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    if (current instanceof type) return current;
  }
  return null;
}

/** A failure of the connection itself (refused, unknown host, reset, TLS), anywhere in the chain of causes. */
function isNetworkError(error: unknown): boolean {
  const seen = new Set<unknown>();
  // Not `instanceof Error`: errors from Node's own sockets may come from another realm (a VM context).
  for (
    let current = error;
    typeof current === 'object' && current !== null && !seen.has(current);
    current = (current as Error).cause
  ) {
    seen.add(current);
    const { code, syscall } = current as { code?: unknown; syscall?: unknown };
    if (typeof syscall === 'string') return true;
    if (
      typeof code === 'string' &&
      /^(E[A-Z]+|UND_ERR_.*|ERR_TLS_.*|ERR_SSL_.*|CERT_.*|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_.*)$/.test(
        code,
      )
    ) {
      return true;
    }
  }
  return false;
}

function isAbort(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}
