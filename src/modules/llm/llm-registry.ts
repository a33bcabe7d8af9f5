import { Inject, Injectable } from '@nestjs/common';
import { UpstreamError } from '../../common/errors/app-error';
import type { ProviderDefinition, ProviderKind } from '../models/model';
import type { LlmClient } from './llm-client';
import { LLM_PROVIDERS, type LlmProvider } from './llm-provider';

/**
 * Routes a provider definition of the model catalog to the adapter of its kind. Clients are built once per provider
 * and reused: the AI SDK provider objects hold no per-request state.
 */
@Injectable()
export class LlmRegistry {
  private readonly adapters: Map<ProviderKind, LlmProvider>;
  private readonly clients = new Map<string, { definition: ProviderDefinition; client: LlmClient }>();

  constructor(@Inject(LLM_PROVIDERS) adapters: LlmProvider[]) {
    this.adapters = new Map(adapters.map((adapter) => [adapter.kind, adapter]));
  }

  clientFor(definition: ProviderDefinition): LlmClient {
    const cached = this.clients.get(definition.name);
    if (cached && cached.definition === definition) return cached.client;
    const adapter = this.adapters.get(definition.kind);
    if (!adapter) throw new UpstreamError(`No adapter for provider kind ${definition.kind}`);
    const client = adapter.createClient(definition);
    this.clients.set(definition.name, { definition, client });
    return client;
  }
}
