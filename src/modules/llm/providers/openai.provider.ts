import type * as OpenAiSdk from '@ai-sdk/openai';
import { Injectable } from '@nestjs/common';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, keyAndBaseUrl, loadSdk } from './ai-sdk-client';

/** OpenAI: text through the Responses API (`/v1/responses`), images through `/v1/images/generations`. */
@Injectable()
export class OpenAiProvider implements LlmProvider {
  readonly kind = 'openai' as const;

  constructor(private readonly http: ProviderHttp) {}

  createClient(definition: ProviderDefinition): LlmClient {
    const { createOpenAI } = loadSdk<typeof OpenAiSdk>('@ai-sdk/openai');
    const settings = keyAndBaseUrl(definition);
    const openai = this.http.perAnswer((fetch) => createOpenAI({ ...settings, fetch }));
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'openai',
      languageModel: (id) => openai.text(id),
      imageModel: (id) => openai.images.image(id),
    });
  }
}
