import type * as OpenAiSdk from '@ai-sdk/openai';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { answerBoundedFetch, imageAnswerBytes } from '../http-fetch';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/** OpenAI: text through the Responses API (`/v1/responses`), images through `/v1/images/generations`. */
@Injectable()
export class OpenAiProvider implements LlmProvider {
  readonly kind = 'openai' as const;

  constructor(
    @Inject(APP_CONFIG)
    private readonly config: Pick<AppConfig, 'maxAnswerBytes' | 'maxImagesPerCall' | 'maxImageBytes'>,
  ) {}

  createClient(definition: ProviderDefinition): LlmClient {
    const { createOpenAI } = loadSdk<typeof OpenAiSdk>('@ai-sdk/openai');
    const settings = {
      apiKey: definition.apiKey,
      ...(definition.baseUrl ? { baseURL: definition.baseUrl } : {}),
    };
    const openai = createOpenAI({ ...settings, fetch: answerBoundedFetch(this.config.maxAnswerBytes) });
    // Image answers carry the images as base64: their reads are bounded by what the images may weigh.
    const images = createOpenAI({ ...settings, fetch: answerBoundedFetch(imageAnswerBytes(this.config)) });
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'openai',
      languageModel: (id) => openai(id),
      imageModel: (id) => images.image(id),
    });
  }
}
