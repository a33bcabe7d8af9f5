import type * as GoogleSdk from '@ai-sdk/google';
import { Injectable } from '@nestjs/common';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { httpFetch } from '../http-fetch';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/** Google Gemini API: text and (Gemini image models) images through `:generateContent`. */
@Injectable()
export class GoogleProvider implements LlmProvider {
  readonly kind = 'google' as const;

  createClient(definition: ProviderDefinition): LlmClient {
    const { createGoogleGenerativeAI } = loadSdk<typeof GoogleSdk>('@ai-sdk/google');
    const google = createGoogleGenerativeAI({
      fetch: httpFetch,
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
