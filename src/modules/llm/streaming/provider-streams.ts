import type { TokenUsage } from '../llm-client';

/** The streaming wire formats read without the provider packages' streams. */
export type StreamFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'google';

/**
 * An error the provider reported inside its event stream. `status` is the HTTP status it stands for when the provider
 * reported it before any of the answer (the call was refused, and may fail over as a refused call does); null once the
 * answer had begun.
 */
export interface StreamFailure {
  status: number | null;
  /** The provider's own text, for the service log only. */
  message: string;
}

/**
 * What one streamed answer is read into, event by event: the text is handed on as it comes, and only what the answer
 * needs is kept (the usage, the finish reason as the AI SDK names it, the model that answered). Each payload is read
 * with JSON.parse and its few fields checked by type where they are used; events that carry nothing of this (pings,
 * the repeated whole text of `…done` events) are skipped by their name, unparsed.
 */
export abstract class ProviderStream {
  usage: TokenUsage = { inputTokens: null, outputTokens: null };
  finishReason = 'other';
  responseModel: string | undefined;
  /** Set once the provider reported an error: nothing more is read. */
  failure: StreamFailure | null = null;
  /** Whether a piece of text was handed on. */
  protected answered = false;

  constructor(private readonly onText: (text: string) => void) {}

  /** One event of the stream: its name (`message` when unnamed) and its data. */
  abstract event(name: string, data: string): void;

  /** The body ended: what is missing then (a finish reason a provider always sends) becomes a failure. */
  end(): void {}

  protected text(text: string): void {
    if (text.length === 0) return;
    this.answered = true;
    this.onText(text);
  }

  protected fail(status: number | null, message: string): void {
    this.failure ??= { status, message };
  }

  /** The payload of an event, or a failure when it is not a JSON object. */
  protected json(data: string): Payload | null {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      this.fail(null, `the event stream held data that is not JSON: ${data.slice(0, 200)}`);
      return null;
    }
    const payload = objectOf(value);
    if (payload) return payload;
    this.fail(null, `the event stream held data that is not a JSON object: ${data.slice(0, 200)}`);
    return null;
  }
}

export function providerStreamOf(format: StreamFormat, onText: (text: string) => void): ProviderStream {
  switch (format) {
    case 'openai-chat':
      return new OpenAiChatStream(onText);
    case 'openai-responses':
      return new OpenAiResponsesStream(onText);
    case 'anthropic':
      return new AnthropicStream(onText);
    case 'google':
      return new GoogleStream(onText);
  }
}

/**
 * Chat Completions chunks (OpenAI-compatible servers): `choices[0].delta.content` (a string, or text parts), a refusal
 * as text, `finish_reason`, the usage in the last chunk (with `stream_options.include_usage`), `data: [DONE]` last. An
 * `{"error": …}` chunk is a failure, and so is a stream that ends without a finish reason.
 */
class OpenAiChatStream extends ProviderStream {
  private rawFinish: string | null = null;
  private refused = false;
  private metadataSeen = false;

  event(_name: string, data: string): void {
    if (data === '[DONE]') return;
    const chunk = this.json(data);
    if (!chunk) return;
    if (chunk.error != null) {
      this.fail(null, messageOf(chunk.error) ?? data);
      return;
    }
    if (!this.metadataSeen && (chunk.id || chunk.model || chunk.created)) {
      this.metadataSeen = true;
      this.responseModel = stringOf(chunk.model);
    }
    const usage = objectOf(chunk.usage);
    if (usage) {
      this.usage = {
        inputTokens: countOf(usage.prompt_tokens) ?? 0,
        outputTokens: countOf(usage.completion_tokens) ?? 0,
      };
    }
    const choice = Array.isArray(chunk.choices) ? objectOf(chunk.choices[0]) : undefined;
    if (!choice) return;
    const finish = stringOf(choice.finish_reason);
    if (finish !== undefined) this.rawFinish = finish;
    const delta = objectOf(choice.delta);
    if (!delta) return;
    const content = delta.content;
    if (typeof content === 'string') this.text(content);
    else if (Array.isArray(content)) {
      for (const item of content) {
        const part = objectOf(item);
        if (part?.type === 'text' && typeof part.text === 'string') this.text(part.text);
      }
    }
    if (typeof delta.refusal === 'string' && delta.refusal.length > 0) {
      this.refused = true;
      this.text(delta.refusal);
    }
  }

  end(): void {
    if (this.rawFinish === null) {
      this.fail(null, 'Response stream ended without a finish reason.');
      return;
    }
    this.finishReason = chatFinishReason(this.rawFinish, this.refused);
  }
}

function chatFinishReason(reason: string, refused: boolean): string {
  switch (reason) {
    case 'stop':
      return refused ? 'content-filter' : 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'function_call':
    case 'tool_calls':
      return 'tool-calls';
    default:
      return 'other';
  }
}

/** Responses events whose payload carries nothing the answer needs: skipped unparsed. */
const RESPONSES_SKIPPED = new Set([
  'response.in_progress',
  'response.queued',
  'response.output_item.added',
  'response.output_item.done',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.done',
  'response.output_text.annotation.added',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
  'response.reasoning_summary_text.delta',
  'response.reasoning_summary_text.done',
  'response.reasoning_text.delta',
  'response.reasoning_text.done',
]);

/**
 * OpenAI Responses events: the text in `response.output_text.delta` (a refusal's in `response.refusal.delta`), the
 * model in `response.created`, the usage and finish in `response.completed` or `response.incomplete`. An `error` event,
 * or `response.failed` with an error, is a failure: refused with the status it names when no output came before it.
 */
class OpenAiResponsesStream extends ProviderStream {
  private refused = false;
  /** Whether an event of the answer itself came (anything but its creation, progress and failure). */
  private output = false;

  constructor(onText: (text: string) => void) {
    super(onText);
    this.finishReason = 'interrupted';
  }

  event(name: string, data: string): void {
    if (RESPONSES_SKIPPED.has(name)) {
      if (name !== 'response.in_progress' && name !== 'response.queued') this.output = true;
      return;
    }
    const value = this.json(data);
    if (!value) return;
    const type = typeof value.type === 'string' ? value.type : name;
    switch (type) {
      case 'response.created':
        this.responseModel = stringOf(objectOf(value.response)?.model);
        return;
      case 'response.in_progress':
      case 'response.queued':
        return;
      case 'response.output_text.delta':
        this.output = true;
        if (typeof value.delta === 'string') this.text(value.delta);
        return;
      case 'response.refusal.delta':
        this.output = true;
        this.refused = true;
        if (typeof value.delta === 'string') this.text(value.delta);
        return;
      case 'response.completed':
      case 'response.incomplete': {
        this.output = true;
        const response = objectOf(value.response) ?? {};
        this.finishReason = responsesFinishReason(objectOf(response.incomplete_details)?.reason, this.refused);
        this.usage = responsesUsage(response.usage);
        return;
      }
      case 'response.failed': {
        const response = objectOf(value.response) ?? {};
        const reason = objectOf(response.incomplete_details)?.reason;
        this.finishReason = reason ? responsesFinishReason(reason, false) : 'error';
        this.usage = responsesUsage(response.usage);
        const error = objectOf(response.error);
        const message = messageOf(error);
        if (message !== undefined) {
          this.fail(this.output ? null : statusOfStreamError(error?.code, 'response.failed'), message);
        }
        return;
      }
      case 'error': {
        const error = objectOf(value.error) ?? value;
        const message = stringOf(error.message) ?? data;
        this.fail(this.output ? null : statusOfStreamError(error.code, error.type), message);
        return;
      }
      default:
        if (type === 'response.refusal.done') this.refused = true;
        this.output = true;
    }
  }
}

function responsesFinishReason(reason: unknown, refused: boolean): string {
  switch (reason) {
    case undefined:
    case null:
      return refused ? 'content-filter' : 'stop';
    case 'max_output_tokens':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

function responsesUsage(value: unknown): TokenUsage {
  const usage = objectOf(value);
  if (!usage) return { inputTokens: null, outputTokens: null };
  return { inputTokens: countOf(usage.input_tokens), outputTokens: countOf(usage.output_tokens) };
}

/**
 * The HTTP status an OpenAI stream error stands for: its code when that is one, else what its code and type say
 * (quota and rate limits 429, authentication 401, permission 403, not found 404, invalid requests 400, overload 503,
 * timeouts 504), else 500.
 */
export function statusOfStreamError(code: unknown, type: unknown): number {
  const numeric = typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : code;
  if (typeof numeric === 'number' && Number.isInteger(numeric) && numeric >= 400 && numeric <= 599) return numeric;
  const words = [code, type]
    .filter((value) => typeof value === 'string' || typeof value === 'number')
    .join(' ')
    .toLowerCase();
  if (words.includes('insufficient_quota') || words.includes('rate_limit')) return 429;
  if (words.includes('authentication')) return 401;
  if (words.includes('permission')) return 403;
  if (words.includes('not_found')) return 404;
  if (['invalid', 'bad_request', 'context_length'].some((word) => words.includes(word))) return 400;
  if (words.includes('overload')) return 503;
  if (words.includes('timeout')) return 504;
  return 500;
}

/** Anthropic events whose payload carries nothing the answer needs: skipped unparsed. */
const ANTHROPIC_SKIPPED = new Set(['ping', 'content_block_start', 'content_block_stop']);

/**
 * Anthropic Messages events: `message_start` (the model, the input tokens), `content_block_delta` with `text_delta`
 * (thinking and signatures are not the answer), `message_delta` (the stop reason, the output tokens), `message_stop`.
 * An `error` event is a failure: refused with the status its type stands for when it came before `message_start`.
 */
class AnthropicStream extends ProviderStream {
  private started = false;
  private stopped = false;
  private input = 0;
  private cacheRead = 0;
  private cacheCreation = 0;
  private output = 0;
  private stopReason: string | undefined;

  event(name: string, data: string): void {
    if (ANTHROPIC_SKIPPED.has(name)) return;
    const value = this.json(data);
    if (!value) return;
    switch (value.type) {
      case 'content_block_delta': {
        const delta = objectOf(value.delta);
        if (delta?.type === 'text_delta' && typeof delta.text === 'string') this.text(delta.text);
        return;
      }
      case 'message_start': {
        this.started = true;
        const message = objectOf(value.message) ?? {};
        this.responseModel = stringOf(message.model);
        const usage = objectOf(message.usage) ?? {};
        this.input = countOf(usage.input_tokens) ?? 0;
        this.cacheRead = countOf(usage.cache_read_input_tokens) ?? 0;
        this.cacheCreation = countOf(usage.cache_creation_input_tokens) ?? 0;
        this.stopReason = stringOf(message.stop_reason);
        return;
      }
      case 'message_delta': {
        const usage = objectOf(value.usage) ?? {};
        this.input = countOf(usage.input_tokens) ?? this.input;
        this.output = countOf(usage.output_tokens) ?? this.output;
        this.cacheRead = countOf(usage.cache_read_input_tokens) ?? this.cacheRead;
        this.cacheCreation = countOf(usage.cache_creation_input_tokens) ?? this.cacheCreation;
        this.stopReason = stringOf(objectOf(value.delta)?.stop_reason);
        return;
      }
      case 'message_stop':
        this.stopped = true;
        this.finishReason = anthropicFinishReason(this.stopReason);
        this.usage = { inputTokens: this.input + this.cacheCreation + this.cacheRead, outputTokens: this.output };
        return;
      case 'error': {
        const error = objectOf(value.error) ?? {};
        const message = stringOf(error.message) ?? data;
        this.fail(this.started ? null : anthropicErrorStatus(error.type), message);
        return;
      }
      default:
        return;
    }
  }

  end(): void {
    // A stream cut off after some of the answer: it was interrupted, and the usage is unknown.
    if (!this.stopped && this.answered) this.finishReason = 'interrupted';
  }
}

function anthropicFinishReason(reason: string | undefined): string {
  switch (reason) {
    case 'pause_turn':
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'refusal':
      return 'content-filter';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    default:
      return 'other';
  }
}

function anthropicErrorStatus(type: unknown): number {
  switch (type) {
    case 'overloaded_error':
      return 529;
    case 'rate_limit_error':
      return 429;
    case 'request_too_large':
      return 413;
    case 'authentication_error':
      return 401;
    case 'permission_error':
      return 403;
    case 'not_found_error':
      return 404;
    case 'billing_error':
    case 'invalid_request_error':
      return 400;
    default:
      return 500;
  }
}

/**
 * Gemini's `streamGenerateContent?alt=sse`: each event a GenerateContentResponse, its text in
 * `candidates[0].content.parts[].text` (parts marked `thought` are reasoning, not the answer), the usage in
 * `usageMetadata` (the latest counts), the finish reason on the last candidate. A blocked prompt ends the answer as
 * filtered; an `{"error": …}` event is a failure.
 */
class GoogleStream extends ProviderStream {
  private blocked = false;

  constructor(onText: (text: string) => void) {
    super(onText);
    this.finishReason = 'interrupted';
  }

  event(_name: string, data: string): void {
    const value = this.json(data);
    if (!value) return;
    if (value.error != null) {
      this.fail(null, messageOf(value.error) ?? data);
      return;
    }
    const usage = objectOf(value.usageMetadata);
    if (usage) {
      this.usage = {
        inputTokens: (countOf(usage.promptTokenCount) ?? 0) + (countOf(usage.toolUsePromptTokenCount) ?? 0),
        outputTokens: (countOf(usage.candidatesTokenCount) ?? 0) + (countOf(usage.thoughtsTokenCount) ?? 0),
      };
    }
    const blockReason = objectOf(value.promptFeedback)?.blockReason;
    if (
      !this.blocked &&
      typeof blockReason === 'string' &&
      blockReason !== '' &&
      blockReason !== 'BLOCK_REASON_UNSPECIFIED' &&
      blockReason !== 'BLOCKED_REASON_UNSPECIFIED'
    ) {
      this.blocked = true;
      this.finishReason = 'content-filter';
    }
    if (this.blocked) return;
    const candidate = Array.isArray(value.candidates) ? objectOf(value.candidates[0]) : undefined;
    if (!candidate) return;
    const parts = objectOf(candidate.content)?.parts;
    if (Array.isArray(parts)) {
      for (const item of parts) {
        const part = objectOf(item);
        if (part && typeof part.text === 'string' && part.thought !== true) this.text(part.text);
      }
    }
    const finish = stringOf(candidate.finishReason);
    if (finish !== undefined) this.finishReason = googleFinishReason(finish);
  }
}

function googleFinishReason(reason: string): string {
  switch (reason) {
    case 'STOP':
      return 'stop';
    case 'MAX_TOKENS':
    case 'CONTINUATION':
      return 'length';
    case 'IMAGE_SAFETY':
    case 'RECITATION':
    case 'SAFETY':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
      return 'content-filter';
    case 'MALFORMED_FUNCTION_CALL':
      return 'error';
    default:
      return 'other';
  }
}

/** A JSON object of a payload, its fields read with a check of their type where they are used. */
type Payload = Record<string, unknown>;

function objectOf(value: unknown): Payload | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Payload) : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A token count as the provider gave it, when it is one. */
function countOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The message of a provider's error object (`{message}`), when it has one. */
function messageOf(error: unknown): string | undefined {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : undefined;
}
