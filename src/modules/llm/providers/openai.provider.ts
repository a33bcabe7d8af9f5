import type * as OpenAiSdk from '@ai-sdk/openai';
import { Injectable } from '@nestjs/common';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/** OpenAI: text through the Responses API (`/v1/responses`), images through `/v1/images/generations`. */
@Injectable()
export class OpenAiProvider implements LlmProvider {
  readonly kind = 'openai' as const;

  constructor(private readonly http: ProviderHttp) {}

  createClient(definition: ProviderDefinition): LlmClient {
    const { createOpenAI } = loadSdk<typeof OpenAiSdk>('@ai-sdk/openai');
    const settings = {
      apiKey: definition.apiKey,
      ...(definition.baseUrl ? { baseURL: definition.baseUrl } : {}),
    };
    const openai = createOpenAI({ ...settings, fetch: this.http.text });
    // Image answers carry the images as base64: their reads are bounded by what the images may weigh.
    const images = createOpenAI({ ...settings, fetch: this.http.images });
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'openai',
      languageModel: (id) => openai(id),
      imageModel: (id) => images.image(id),
    });
  }
}
