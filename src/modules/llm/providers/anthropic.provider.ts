import type * as AnthropicSdk from '@ai-sdk/anthropic';
import { Injectable } from '@nestjs/common';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { ProviderHttp } from '../provider-http';
import { AiSdkClient, keyAndBaseUrl, loadSdk } from './ai-sdk-client';

/** Anthropic Messages API (`/v1/messages`); it has no image generation. */
@Injectable()
export class AnthropicProvider implements LlmProvider {
  readonly kind = 'anthropic' as const;

  constructor(private readonly http: ProviderHttp) {}

  createClient(definition: ProviderDefinition): LlmClient {
    const { createAnthropic } = loadSdk<typeof AnthropicSdk>('@ai-sdk/anthropic');
    const anthropic = createAnthropic({ ...keyAndBaseUrl(definition), fetch: this.http.text });
    return new AiSdkClient({
      providerName: definition.name,
      optionsKey: 'anthropic',
      languageModel: (id) => anthropic(id),
      eventStreams: { format: 'anthropic', open: this.http.textEventStream },
    });
  }
}
