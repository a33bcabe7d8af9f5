import type * as AnthropicSdk from '@ai-sdk/anthropic';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { answerBoundedFetch, type FetchFunction, httpFetch } from '../http-fetch';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, loadSdk } from './ai-sdk-client';

/** Anthropic Messages API (`/v1/messages`); it has no image generation. */
@Injectable()
export class AnthropicProvider implements LlmProvider {
  readonly kind = 'anthropic' as const;

  private readonly fetch: FetchFunction;

  constructor(
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'maxAnswerBytes'>,
    @Optional() http?: ProviderHttp,
  ) {
    this.fetch = http?.fetch ?? httpFetch;
  }

  createClient(definition: ProviderDefinition): LlmClient {
    const { createAnthropic } = loadSdk<typeof AnthropicSdk>('@ai-sdk/anthropic');
    const anthropic = createAnthropic({
      fetch: answerBoundedFetch(this.config.maxAnswerBytes, this.fetch),
      apiKey: definition.apiKey,
      ...(definition.baseUrl ? { baseURL: definition.baseUrl } : {}),
    });
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'anthropic',
      languageModel: (id) => anthropic(id),
    });
  }
}
