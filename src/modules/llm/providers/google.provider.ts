import type * as GoogleSdk from '@ai-sdk/google';
import { Injectable, Optional } from '@nestjs/common';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { type FetchFunction, httpFetch } from '../http-fetch';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/** Google Gemini API: text and (Gemini image models) images through `:generateContent`. */
@Injectable()
export class GoogleProvider implements LlmProvider {
  readonly kind = 'google' as const;
  private readonly fetch: FetchFunction;

  constructor(@Optional() http?: ProviderHttp) {
    this.fetch = http?.fetch ?? httpFetch;
  }

  createClient(definition: ProviderDefinition): LlmClient {
    const { createGoogleGenerativeAI } = loadSdk<typeof GoogleSdk>('@ai-sdk/google');
    const google = createGoogleGenerativeAI({
      fetch: this.fetch,
      apiKey: definition.apiKey,
      ...(definition.baseUrl ? { baseURL: definition.baseUrl } : {}),
    });
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'google',
      languageModel: (id) => google(id),
      imageModel: (id) => google.image(id),
    });
  }
}
