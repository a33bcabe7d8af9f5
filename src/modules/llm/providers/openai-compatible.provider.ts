import type * as OpenAiCompatibleSdk from '@ai-sdk/openai-compatible';
import { Injectable } from '@nestjs/common';
import { UpstreamError } from '../../../common/errors/app-error';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/**
 * Any OpenAI-compatible server from MODELS_FILE (Ollama, vLLM, LM Studio, OpenRouter): `/chat/completions` with a
 * `json_schema` response format for structured output, `/images/generations` for images. Custom parameters the AI SDK
 * does not know are sent in the request body as they are (e.g. Ollama's `num_ctx`).
 */
@Injectable()
export class OpenAiCompatibleProvider implements LlmProvider {
  readonly kind = 'openai-compatible' as const;

  constructor(private readonly http: ProviderHttp) {}

  createClient(definition: ProviderDefinition): LlmClient {
    if (!definition.baseUrl) {
      return unreachable(`Provider ${definition.name} has no baseUrl in MODELS_FILE`);
    }
    const { createOpenAICompatible } = loadSdk<typeof OpenAiCompatibleSdk>('@ai-sdk/openai-compatible');
    const settings = {
      name: definition.name,
      baseURL: definition.baseUrl,
      ...(definition.apiKey ? { apiKey: definition.apiKey } : {}),
      supportsStructuredOutputs: true,
      includeUsage: true,
    };
    const provider = this.http.perAnswer((fetch) => createOpenAICompatible({ ...settings, fetch }));
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: definition.name,
      languageModel: (id) => provider.text.chatModel(id),
      imageModel: (id) => provider.images.imageModel(id),
      eventStreams: { format: 'openai-chat', open: this.http.textEventStream },
      answerReader: {
        // The chat model converts a Chat Completions body itself, validated by its own schema, as doGenerate does.
        convert: (model, body) =>
          (model as OpenAiCompatibleSdk.OpenAICompatibleChatLanguageModel).convertResponse({ body }),
        jsonAnswer: this.http.textJsonAnswer,
      },
    });
  }
}

function unreachable(message: string): LlmClient {
  const fail = () => Promise.reject(new UpstreamError(message));
  return { generateText: fail, streamText: fail, generateImage: fail };
}
