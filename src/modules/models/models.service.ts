import { Inject, Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MOCK_MODELS, ModelInfo, ProviderDefinition } from './model';
import { applyModelsFile, costFromPricing, packagedModels, sortedCatalog, Usage } from './model-catalog';

/**
 * The model catalog: every model the service knows, with capabilities, pricing and availability. Built once at start
 * from the packaged data, our table and MODELS_FILE (already validated by config).
 */
@Injectable()
export class ModelsService {
  private readonly models: Map<string, ModelInfo>;
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
    for (const provider of config.modelsFileContent?.providers ?? []) {
      this.providers.set(provider.name, {
        name: provider.name,
        kind: 'openai-compatible',
        baseUrl: provider.baseUrl,
        apiKey: provider.apiKey,
        configured: provider.configured,
      });
    }

    const catalog = new Map(packagedModels().map((m) => [m.id, m]));
    if (config.modelsFileContent) applyModelsFile(catalog, config.modelsFileContent);
    // The offline model is always there, whatever the file says.
    for (const mock of MOCK_MODELS) catalog.set(mock.id, mock);
    this.models = new Map(
      sortedCatalog(catalog.values()).map((m) => [
        m.id,
        { ...m, available: this.providers.get(m.provider)?.configured ?? false },
      ]),
    );
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
  costOf(modelId: string, usage: Usage): number | null {
    const model = this.models.get(modelId);
    return model ? costFromPricing(model.pricing, usage) : null;
  }

  /** The model a prompt names; a 400 naming `llmModel` when the catalog does not have it. */
  /**
   * A temperature the model takes: above its provider's maximum is a 400 naming `field` (the provider would refuse the
   * call).
   */
  requireTemperature(id: string, temperature: number, field: string): void {
    // A model not in the list is refused on its own, naming its field.
    const model = this.models.get(id);
    if (model && temperature > model.maxTemperature) {
      throw new ValidationError(
        `${field} ${temperature} is above ${model.maxTemperature}, the highest temperature ${model.provider} models (${id}) take`,
        field,
      );
    }
  }

  require(id: string, field = 'llmModel'): ModelInfo {
    const model = this.models.get(id);
    if (!model)
      throw new ValidationError(
        `${field} '${id}' is not a model of the model list (GET /admin/v1/prompts/models)`,
        field,
      );
    return model;
  }
}
