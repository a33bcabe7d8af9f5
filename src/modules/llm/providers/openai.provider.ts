import type * as OpenAiSdk from '@ai-sdk/openai';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { answerBoundedFetch, imageAnswerBytes, type FetchFunction, httpFetch } from '../http-fetch';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/** OpenAI: text through the Responses API (`/v1/responses`), images through `/v1/images/generations`. */
@Injectable()
export class OpenAiProvider implements LlmProvider {
  readonly kind = 'openai' as const;

  private readonly fetch: FetchFunction;

  constructor(
    @Inject(APP_CONFIG)
    private readonly config: Pick<AppConfig, 'maxAnswerBytes' | 'maxImagesPerCall' | 'maxImageBytes'>,
    @Optional() http?: ProviderHttp,
  ) {
    this.fetch = http?.fetch ?? httpFetch;
  }

  createClient(definition: ProviderDefinition): LlmClient {
    const { createOpenAI } = loadSdk<typeof OpenAiSdk>('@ai-sdk/openai');
    const settings = {
      apiKey: definition.apiKey,
      ...(definition.baseUrl ? { baseURL: definition.baseUrl } : {}),
    };
    const openai = createOpenAI({ ...settings, fetch: answerBoundedFetch(this.config.maxAnswerBytes, this.fetch) });
    // Image answers carry the images as base64: their reads are bounded by what the images may weigh.
    const images = createOpenAI({ ...settings, fetch: answerBoundedFetch(imageAnswerBytes(this.config), this.fetch) });
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'openai',
      languageModel: (id) => openai(id),
      imageModel: (id) => images.image(id),
    });
  }
}
