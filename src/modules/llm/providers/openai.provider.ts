import type * as OpenAiSdk from '@ai-sdk/openai';
import { Injectable, Optional } from '@nestjs/common';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { type FetchFunction, httpFetch } from '../http-fetch';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/** OpenAI: text through the Responses API (`/v1/responses`), images through `/v1/images/generations`. */
@Injectable()
export class OpenAiProvider implements LlmProvider {
  readonly kind = 'openai' as const;
  private readonly fetch: FetchFunction;

  constructor(@Optional() http?: ProviderHttp) {
    this.fetch = http?.fetch ?? httpFetch;
  }

  createClient(definition: ProviderDefinition): LlmClient {
    const { createOpenAI } = loadSdk<typeof OpenAiSdk>('@ai-sdk/openai');
    const openai = createOpenAI({
      fetch: this.fetch,
      apiKey: definition.apiKey,
      ...(definition.baseUrl ? { baseURL: definition.baseUrl } : {}),
    });
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'openai',
      languageModel: (id) => openai(id),
      imageModel: (id) => openai.image(id),
    });
  }
}
