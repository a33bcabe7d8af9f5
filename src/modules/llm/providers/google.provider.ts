import type * as GoogleSdk from '@ai-sdk/google';
import { Injectable } from '@nestjs/common';
import type { ProviderDefinition } from '../../models/model';
import type { LlmClient } from '../llm-client';
import type { LlmProvider } from '../llm-provider';
import { ProviderHttp } from '../provider-http';
import { loadSdk, textAndImageClient } from './ai-sdk-client';

/** Google Gemini API: text and (Gemini image models) images through `:generateContent`. */
@Injectable()
export class GoogleProvider implements LlmProvider {
  readonly kind = 'google' as const;

  constructor(private readonly http: ProviderHttp) {}

  createClient(definition: ProviderDefinition): LlmClient {
    const { createGoogleGenerativeAI } = loadSdk<typeof GoogleSdk>('@ai-sdk/google');
    return textAndImageClient(definition, this.http, 'google', createGoogleGenerativeAI, 'google');
  }
}
