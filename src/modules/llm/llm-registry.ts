import { Inject, Injectable, Optional } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { UpstreamError } from '../../common/errors/app-error';
import { Metrics } from '../../common/metrics/metrics';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { ProviderDefinition, ProviderKind } from '../models/model';
import type { LlmClient } from './llm-client';
import { LLM_PROVIDERS, type LlmProvider } from './llm-provider';
import { type LlmObservation, ObservedLlmClient } from './observed-llm-client';

/**
 * Routes a provider definition of the model catalog to the adapter of its kind. Clients are built once per provider
 * and reused: the AI SDK provider objects hold no per-request state. With metrics or tracing on, each client is
 * observed (ObservedLlmClient): every call, one attempt, is measured and traced.
 */
@Injectable()
export class LlmRegistry {
  private readonly adapters: Map<ProviderKind, LlmProvider>;
  private readonly clients = new Map<string, { definition: ProviderDefinition; client: LlmClient }>();
  private readonly observation: LlmObservation | null;

  constructor(
    @Inject(LLM_PROVIDERS) adapters: LlmProvider[],
    @Optional() metrics?: Metrics,
    @Optional() @Inject(APP_CONFIG) config?: Pick<AppConfig, 'tracing'>,
  ) {
    this.adapters = new Map(adapters.map((adapter) => [adapter.kind, adapter]));
    const observed = {
      metrics: metrics?.enabled ? metrics : null,
      tracer: config?.tracing ? trace.getTracer('promptgate') : null,
      captureContent: config?.tracing?.captureContent ?? false,
    };
    this.observation = observed.metrics || observed.tracer ? observed : null;
  }

  clientFor(definition: ProviderDefinition): LlmClient {
    const cached = this.clients.get(definition.name);
    if (cached && cached.definition === definition) return cached.client;
    const adapter = this.adapters.get(definition.kind);
    if (!adapter) throw new UpstreamError(`No adapter for provider kind ${definition.kind}`);
    const created = adapter.createClient(definition);
    const client = this.observation ? new ObservedLlmClient(created, definition.name, this.observation) : created;
    this.clients.set(definition.name, { definition, client });
    return client;
  }
}
