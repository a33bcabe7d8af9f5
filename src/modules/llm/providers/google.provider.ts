import type * as GoogleSdk from '@ai-sdk/google';
import { Injectable } from '@nestjs/common';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/** Google Gemini API: text and (Gemini image models) images through `:generateContent`. */
@Injectable()
export class GoogleProvider implements LlmProvider {
  readonly kind = 'google' as const;

  constructor(private readonly http: ProviderHttp) {}

  createClient(definition: ProviderDefinition): LlmClient {
    const { createGoogleGenerativeAI } = loadSdk<typeof GoogleSdk>('@ai-sdk/google');
    const settings = {
      apiKey: definition.apiKey,
      ...(definition.baseUrl ? { baseURL: definition.baseUrl } : {}),
    };
    const google = createGoogleGenerativeAI({
      ...settings,
      fetch: this.http.text,
    });
    // Image answers carry the images as base64: their reads are bounded by what the images may weigh.
    const images = createGoogleGenerativeAI({
      ...settings,
      fetch: this.http.images,
    });
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'google',
      languageModel: (id) => google(id),
      imageModel: (id) => images.image(id),
    });
  }
}
