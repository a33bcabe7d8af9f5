import { UpstreamError } from '../../common/errors/app-error';

/** A JSON Schema object (draft-07 subset) describing a structured answer. */
export type JsonSchemaObject = Record<string, unknown>;

/** An image sent to a model alongside the prompt, from a `data:<mediaType>;base64,<data>` input. */
export interface ImageInput {
  mediaType: string;
  /** The whole data URI. */
  dataUri: string;
}

/** A piece of a message: text, or an image. */
export type ChatPart = { type: 'text'; text: string } | { type: 'image'; image: ImageInput };

/**
 * One message of the conversation sent: `system` (text only, first), `user` (text and images), `assistant` (a few-shot
 * turn, text only). Each provider receives the roles in its own form.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  parts: ChatPart[];
}

export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface TextRequest {
  model: string;
  /** The whole rendered text: what the mock echoes and what a worst-case cost counts. */
  prompt: string;
  /** The messages sent; without them, `prompt` is sent as one user message. */
  messages?: ChatMessage[];
  temperature: number;
  maxOutputTokens: number;
  /** The prompt's customParameters: common sampling settings, the rest passed to the provider as its options. */
  customParameters?: Record<string, unknown>;
  /** Ask for structured output matching this schema; the answer's `object` then holds the parsed JSON. */
  schema?: { jsonSchema: JsonSchemaObject; strict: boolean };
  abortSignal: AbortSignal;
  /** A streamed call's reader, when it can be full: the provider's stream then waits until it drains. */
  backpressure?: StreamBackpressure;
}

/** The reader of a streamed answer that can fall behind (the caller's connection): its pieces wait while it is full. */
export interface StreamBackpressure {
  isFull(): boolean;
  /** Runs `resume` once the reader can take more again (or has gone). */
  onceDrained(resume: () => void): void;
}

export interface TextResult {
  /** The model's raw text (for structured output, the JSON text it produced). */
  text: string;
  /** The parsed JSON when a schema was requested (not yet checked against it). */
  object?: unknown;
  usage: TokenUsage;
  /** Why the model stopped (`stop`, `length`, …), when the provider says. */
  finishReason?: string;
  /** The model that answered, when the provider names it (it may be a dated version of the requested one). */
  responseModel?: string;
}

export interface ImageRequest {
  model: string;
  prompt: string;
  /** Generation settings (`size`, `n`, `quality`, …): the output field's exampleValue overridden by customParameters. */
  settings: Record<string, unknown>;
  abortSignal: AbortSignal;
}

export interface GeneratedImage {
  base64Data: string;
  revisedPrompt: string;
}

export interface ImageResult {
  images: GeneratedImage[];
  usage: TokenUsage;
}

/**
 * A piece of a streamed answer: the next piece of the text (raw text, or the JSON text when a schema was requested),
 * or the object so far from a provider that builds it itself.
 */
export type TextStreamEvent = { type: 'delta'; text: string } | { type: 'partial'; output: unknown };

/** A streamed answer once complete: the same as a plain call's, with why the model stopped. */
export interface StreamedTextResult extends TextResult {
  /** The provider's finish reason as the AI SDK names it (`stop`, `length`, `content-filter`, …). */
  finishReason: string;
}

/** Our interface to a model provider; each adapter wraps the provider's maintained client library. */
export interface LlmClient {
  generateText(request: TextRequest): Promise<TextResult>;
  /**
   * The same call, streamed: `onEvent` receives each piece as it arrives; the promise settles with the complete answer
   * (or the failure, as generateText reports it).
   */
  streamText(request: TextRequest, onEvent: (event: TextStreamEvent) => void): Promise<StreamedTextResult>;
  generateImage(request: ImageRequest): Promise<ImageResult>;
}

/** The provider answered, but not with the JSON that was asked for; carries the raw answer for the execution log. */
export class InvalidLlmOutputError extends UpstreamError {
  constructor(
    message: string,
    readonly rawText: string,
    readonly usage: TokenUsage,
  ) {
    super(message);
  }
}

/**
 * The provider's answer (or the mock's) is larger than MAX_ANSWER_BYTES: the read stopped there and the connection was
 * closed, so no more of it is held in memory.
 */
export class AnswerTooLargeError extends UpstreamError {
  constructor() {
    super("the model's answer is too large");
  }
}

/**
 * The provider answered with an HTTP error status (`providerStatus`), or could not be reached (`providerStatus` null).
 * `retryAfterMs` is how long the provider asked to wait before trying again (its Retry-After), when it said.
 * `providerMessage` is the provider's own text about the failure: it may name the operator's account (organisation
 * and project ids, quotas), so it is for the service log only, never for a caller or an execution log row.
 */
export class ProviderError extends UpstreamError {
  constructor(
    message: string,
    readonly providerStatus: number | null,
    readonly retryAfterMs: number | null,
    options?: ErrorOptions,
    readonly providerMessage: string | null = null,
  ) {
    super(message, undefined, options);
  }
}

/** What a caller is told of a provider's error status: ours, naming the provider and the kind of failure. */
export function providerRefusalMessage(provider: string, status: number): string {
  return `the provider '${provider}' refused the call: ${refusalKindOf(status)} (${status})`;
}

function refusalKindOf(status: number): string {
  switch (status) {
    case 400:
      return 'bad request';
    case 401:
      return 'authentication failed';
    case 402:
      return 'payment required';
    case 403:
      return 'permission denied';
    case 404:
      return 'not found';
    case 408:
      return 'request timed out';
    case 409:
      return 'conflict';
    case 413:
      return 'request too large';
    case 422:
      return 'unprocessable request';
    case 429:
      return 'rate limited';
    default:
      return status >= 500 ? 'server error' : 'request refused';
  }
}

/**
 * The wait a provider asks for in its response headers: `retry-after-ms` (OpenAI), else `retry-after` as seconds or
 * an HTTP date; null when it asks for none or the value cannot be read. Header names are matched in any case.
 */
export function retryAfterMsOf(headers: Record<string, string> | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  let milliseconds: string | undefined;
  let seconds: string | undefined;
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === 'retry-after-ms') milliseconds = headers[name];
    else if (lower === 'retry-after') seconds = headers[name];
  }
  if (milliseconds !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(milliseconds)) return Math.ceil(Number(milliseconds));
  if (seconds === undefined) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(seconds)) return Math.ceil(Number(seconds) * 1000);
  // An HTTP date names its day and month; a bare number such as "-3" would parse as a year.
  const date = /[a-z]/i.test(seconds) ? Date.parse(seconds) : Number.NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
