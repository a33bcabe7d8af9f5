import type * as OpenAiSdk from '@ai-sdk/openai';
import { Injectable } from '@nestjs/common';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { ProviderHttp } from '../provider-http';
import { loadSdk, textAndImageClient } from './ai-sdk-client';

/**
 * OpenAI: text through the Responses API (`/v1/responses`), its streamed answers read as Responses events (see
 * LeanEventStream); images through `/v1/images/generations`.
 */
@Injectable()
export class OpenAiProvider implements LlmProvider {
  readonly kind = 'openai' as const;

  constructor(private readonly http: ProviderHttp) {}

  createClient(definition: ProviderDefinition): LlmClient {
    const { createOpenAI } = loadSdk<typeof OpenAiSdk>('@ai-sdk/openai');
    return textAndImageClient(definition, this.http, 'openai', createOpenAI, 'openai-responses');
  }
}
