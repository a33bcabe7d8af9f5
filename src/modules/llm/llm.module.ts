import { Module } from '@nestjs/common';
import { LLM_PROVIDERS, type LlmProvider } from './llm-provider';
import { LlmRegistry } from './llm-registry';
import { ProviderCallLimiter } from './provider-call-limiter';
import { ProviderHttp } from './provider-http';
import { AnthropicProvider } from './providers/anthropic.provider';
import { GoogleProvider } from './providers/google.provider';
import { MockProvider } from './providers/mock.provider';
import { OpenAiCompatibleProvider } from './providers/openai-compatible.provider';
import { OpenAiProvider } from './providers/openai.provider';

// Owns the LLM provider adapters (OpenAI, Anthropic, Google, OpenAI-compatible, mock) behind our LlmClient interface.
// Exports LlmRegistry, which hands out the client for a provider definition of the model catalog, and
// ProviderCallLimiter, which bounds the provider calls each tenant and key have in flight.
const ADAPTERS = [OpenAiProvider, AnthropicProvider, GoogleProvider, OpenAiCompatibleProvider, MockProvider];

@Module({
  providers: [
    ProviderHttp,
    ...ADAPTERS,
    { provide: LLM_PROVIDERS, useFactory: (...adapters: LlmProvider[]) => adapters, inject: ADAPTERS },
    LlmRegistry,
    ProviderCallLimiter,
  ],
  exports: [LlmRegistry, ProviderCallLimiter],
})
export class LlmModule {}
