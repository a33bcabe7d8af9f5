import { UpstreamError } from '../../common/errors/app-error';

/** A JSON Schema object (draft-07 subset) describing a structured answer. */
export type JsonSchemaObject = Record<string, unknown>;

/** An image sent to a model alongside the prompt, from a `data:<mediaType>;base64,<data>` input. */
export interface ImageInput {
  mediaType: string;
  /** The whole data URI. */
  dataUri: string;
}

export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface TextRequest {
  model: string;
  prompt: string;
  images?: ImageInput[];
  temperature: number;
  maxOutputTokens: number;
  /** The prompt's customParameters: common sampling settings, the rest passed to the provider as its options. */
  customParameters?: Record<string, unknown>;
  /** Ask for structured output matching this schema; the answer's `object` then holds the parsed JSON. */
  schema?: { jsonSchema: JsonSchemaObject; strict: boolean };
  abortSignal: AbortSignal;
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

/** Our interface to a model provider; each adapter wraps the provider's maintained client library. */
export interface LlmClient {
  generateText(request: TextRequest): Promise<TextResult>;
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
