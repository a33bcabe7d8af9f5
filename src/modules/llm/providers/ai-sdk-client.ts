import {
  APICallError,
  generateImage,
  generateText,
  type ImageModel,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  NoObjectGeneratedError,
  Output,
} from 'ai';
import { UpstreamError, UpstreamTimeoutError } from '../../../common/errors/app-error';
import { splitCustomParameters, splitImageSettings } from '../call-settings';
import {
  ImageRequest,
  ImageResult,
  InvalidLlmOutputError,
  LlmClient,
  TextRequest,
  TextResult,
  TokenUsage,
} from '../llm-client';

// The AI SDK prints warnings (unsupported settings, deprecations) straight to the console; our logs are JSON lines.
(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;

/** What an adapter supplies: the provider library's models and the key its provider options live under. */
export interface AiSdkModels {
  /** Display name in error messages (`openai`, `anthropic`, the MODELS_FILE provider name). */
  providerName: string;
  /** `providerOptions` key of this provider (`openai`, `anthropic`, `google`, or the compatible provider's name). */
  optionsKey: string;
  languageModel(modelId: string): LanguageModel;
  /** Absent when the provider has no image generation API. */
  imageModel?(modelId: string): ImageModel;
}

/**
 * An LlmClient on the AI SDK. No retries (`maxRetries: 0`): the endpoint's timeout bounds the whole call and a retry
 * could outlast it; a failure is reported at once.
 */
export class AiSdkClient implements LlmClient {
  /** Model objects are built once per id: building one per call showed in the execution profile. */
  private readonly languageModels = new Map<string, LanguageModel>();
  private readonly imageModels = new Map<string, ImageModel>();

  constructor(private readonly models: AiSdkModels) {}

  private languageModel(id: string): LanguageModel {
    let model = this.languageModels.get(id);
    if (!model) this.languageModels.set(id, (model = this.models.languageModel(id)));
    return model;
  }

  private imageModel(id: string): ImageModel {
    let model = this.imageModels.get(id);
    if (!model) this.imageModels.set(id, (model = this.models.imageModel!(id)));
    return model;
  }

  async generateText(request: TextRequest): Promise<TextResult> {
    const settings = splitCustomParameters(request.customParameters);
    const providerOptions: Record<string, Record<string, never>> = {};
    const options = { ...settings.provider } as Record<string, unknown>;
    if (request.schema && !request.schema.strict) options.strictJsonSchema = false;
    if (Object.keys(options).length > 0) providerOptions[this.models.optionsKey] = options as Record<string, never>;
    const content = request.images?.length
      ? { messages: [userMessage(request)] }
      : { prompt: request.prompt };
    try {
      const result = await generateText({
        model: this.languageModel(request.model),
        ...content,
        temperature: request.temperature,
        maxOutputTokens: request.maxOutputTokens,
        ...(settings.common as object),
        ...(request.schema ? { output: Output.object({ schema: jsonSchema(request.schema.jsonSchema), name: 'response' }) } : {}),
        providerOptions,
        maxRetries: 0,
        abortSignal: request.abortSignal,
      });
      const usage = usageOf(result.usage);
      if (!request.schema) return { text: result.text, usage };
      return { text: result.text, object: result.output, usage };
    } catch (error) {
      if (NoObjectGeneratedError.isInstance(error)) {
        throw new InvalidLlmOutputError(
          `${this.models.providerName} did not answer with JSON for the output fields`,
          error.text ?? '',
          usageOf(error.usage),
        );
      }
      throw this.failure(error, request.abortSignal);
    }
  }

  async generateImage(request: ImageRequest): Promise<ImageResult> {
    if (!this.models.imageModel) {
      throw new UpstreamError(`Provider ${this.models.providerName} cannot generate images`);
    }
    const settings = splitImageSettings(request.settings);
    try {
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
      const metadata = (result.providerMetadata?.[this.models.optionsKey] as { images?: ({ revisedPrompt?: string } | null)[] })
        ?.images;
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

  /** Provider failures become a 502 with the provider's own message; an expired deadline a 504. */
  private failure(error: unknown, signal: AbortSignal): Error {
    if (signal.aborted || isAbort(error)) {
      return new UpstreamTimeoutError(`${this.models.providerName} did not answer within the endpoint's timeout`);
    }
    if (APICallError.isInstance(error)) {
      const status = error.statusCode ? ` (HTTP ${error.statusCode})` : '';
      return new UpstreamError(`${this.models.providerName} request failed${status}: ${error.message}`);
    }
    const message = error instanceof Error ? error.message : String(error);
    return new UpstreamError(`${this.models.providerName} request failed: ${message}`);
  }
}

function userMessage(request: TextRequest): ModelMessage {
  return {
    role: 'user',
    content: [
      { type: 'text', text: request.prompt },
      ...(request.images ?? []).map((image) => ({ type: 'file' as const, data: image.dataUri, mediaType: image.mediaType })),
    ],
  };
}

function usageOf(usage: { inputTokens?: number; outputTokens?: number } | undefined): TokenUsage {
  return { inputTokens: usage?.inputTokens ?? null, outputTokens: usage?.outputTokens ?? null };
}

function isAbort(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}
