import type { ProviderDefinition, ProviderKind } from '../models/model';
import type { LlmClient } from './llm-client';

/** One kind of provider (openai, anthropic, …): builds clients from a provider definition of the model catalog. */
export interface LlmProvider {
  readonly kind: ProviderKind;
  createClient(definition: ProviderDefinition): LlmClient;
}

/** The injection token of the list of provider adapters the registry routes between. */
export const LLM_PROVIDERS = Symbol('LLM_PROVIDERS');
