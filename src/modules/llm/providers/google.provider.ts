import type * as GoogleSdk from '@ai-sdk/google';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { answerBoundedFetch, imageAnswerBytes, type FetchFunction, httpFetch } from '../http-fetch';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/** Google Gemini API: text and (Gemini image models) images through `:generateContent`. */
@Injectable()
export class GoogleProvider implements LlmProvider {
  readonly kind = 'google' as const;

  private readonly fetch: FetchFunction;

  constructor(
    @Inject(APP_CONFIG)
    private readonly config: Pick<AppConfig, 'maxAnswerBytes' | 'maxImagesPerCall' | 'maxImageBytes'>,
    @Optional() http?: ProviderHttp,
  ) {
    this.fetch = http?.fetch ?? httpFetch;
  }

  createClient(definition: ProviderDefinition): LlmClient {
    const { createGoogleGenerativeAI } = loadSdk<typeof GoogleSdk>('@ai-sdk/google');
    const settings = {
      apiKey: definition.apiKey,
      ...(definition.baseUrl ? { baseURL: definition.baseUrl } : {}),
    };
    const google = createGoogleGenerativeAI({
      ...settings,
      fetch: answerBoundedFetch(this.config.maxAnswerBytes, this.fetch),
    });
    // Image answers carry the images as base64: their reads are bounded by what the images may weigh.
    const images = createGoogleGenerativeAI({
      ...settings,
      fetch: answerBoundedFetch(imageAnswerBytes(this.config), this.fetch),
    });
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'google',
      languageModel: (id) => google(id),
      imageModel: (id) => images.image(id),
    });
  }
}
