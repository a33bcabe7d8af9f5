import { Module } from '@nestjs/common';
import { LLM_PROVIDERS, type LlmProvider } from './llm-provider';
import { LlmRegistry } from './llm-registry';
import { ProviderHttp } from './provider-http';
import { AnthropicProvider } from './providers/anthropic.provider';
import { GoogleProvider } from './providers/google.provider';
import { MockProvider } from './providers/mock.provider';
import { OpenAiCompatibleProvider } from './providers/openai-compatible.provider';
import { OpenAiProvider } from './providers/openai.provider';

// Owns the LLM provider adapters (OpenAI, Anthropic, Google, OpenAI-compatible, mock) behind our LlmClient interface.
// Exports LlmRegistry, which hands out the client for a provider definition of the model catalog.
const ADAPTERS = [OpenAiProvider, AnthropicProvider, GoogleProvider, OpenAiCompatibleProvider, MockProvider];

@Module({
  providers: [
    ProviderHttp,
    ...ADAPTERS,
    { provide: LLM_PROVIDERS, useFactory: (...adapters: LlmProvider[]) => adapters, inject: ADAPTERS },
    LlmRegistry,
  ],
  exports: [LlmRegistry],
})
export class LlmModule {}
