import { Inject, Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MOCK_MODELS, ModelInfo, ProviderDefinition } from './model';

/** The model catalog: every model the service knows, with capabilities, pricing and availability. */
@Injectable()
export class ModelsService {
  private readonly models = new Map<string, ModelInfo>(MOCK_MODELS.map((m) => [m.id, m]));
  private readonly providers = new Map<string, ProviderDefinition>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { openai, anthropic, google } = config.providers;
    const builtIn: ProviderDefinition[] = [
      { name: 'mock', kind: 'mock', configured: true },
      { name: 'openai', kind: 'openai', ...openai, configured: Boolean(openai.apiKey) },
      { name: 'anthropic', kind: 'anthropic', ...anthropic, configured: Boolean(anthropic.apiKey) },
      { name: 'google', kind: 'google', ...google, configured: Boolean(google.apiKey) },
    ];
    for (const provider of builtIn) this.providers.set(provider.name, provider);
  }

  provider(name: string): ProviderDefinition | undefined {
    return this.providers.get(name);
  }

  list(): ModelInfo[] {
    return [...this.models.values()];
  }

  find(id: string): ModelInfo | undefined {
    return this.models.get(id);
  }

  /** USD cost of one call from the catalog's pricing; null when the model or a needed price is unknown. */
  costOf(modelId: string, usage: { inputTokens?: number | null; outputTokens?: number | null; images?: number }): number | null {
    const pricing = this.models.get(modelId)?.pricing;
    if (!pricing) return null;
    let cost = 0;
    if (usage.inputTokens) {
      if (pricing.inputPerMillionTokens === null) return null;
      cost += (usage.inputTokens * pricing.inputPerMillionTokens) / 1_000_000;
    }
    if (usage.outputTokens) {
      if (pricing.outputPerMillionTokens === null) return null;
      cost += (usage.outputTokens * pricing.outputPerMillionTokens) / 1_000_000;
    }
    if (usage.images) {
      if (pricing.perImage === null) return null;
      cost += usage.images * pricing.perImage;
    }
    return Math.round(cost * 1e9) / 1e9;
  }

  /** The model a prompt names; a 400 naming `llmModel` when the catalog does not have it. */
  require(id: string, field = 'llmModel'): ModelInfo {
    const model = this.models.get(id);
    if (!model) throw new ValidationError(`${field} '${id}' is not a model of the model list (GET /admin/v1/prompts/models)`, field);
    return model;
  }
}
