import { calcPrice } from '@pydantic/genai-prices';
import { MODEL_CONFIGS, type ModelConfig } from 'llm-zoo';
import type { ModelsFileContent, ModelsFileModel } from '../../config/models-file';
import type { ModelCapabilities, ModelInfo, ModelPricing } from './model';
import { BuiltInProvider, OWN_MODELS, OwnModelEntry, PROVIDER_FLAGS, temperatureMaxOf } from './model-table';

const BUILT_IN: BuiltInProvider[] = ['openai', 'anthropic', 'google'];

/** An OpenAI-compatible server's model about which nothing else is known. */
const COMPATIBLE_DEFAULTS: ModelCapabilities = {
  reasoning: false,
  streaming: true,
  tools: false,
  jsonMode: true,
  vision: false,
  imageGeneration: false,
};
const UNKNOWN_PRICING: ModelPricing = {
  inputPerMillionTokens: null,
  outputPerMillionTokens: null,
  perImage: null,
  currency: 'USD',
};

/**
 * The packaged catalog: llm-zoo's directly callable OpenAI, Anthropic and Google models (retired ones only when our
 * table names them) plus the ids of our table. Prices and context windows come from genai-prices (llm-zoo as the
 * fallback), reasoning/tools/vision and max output from llm-zoo, JSON mode/streaming/image generation from our table.
 * `available` is false here; the service sets it from the configured providers.
 */
export function packagedModels(now = new Date()): ModelInfo[] {
  const zooById = new Map<string, ModelConfig[]>();
  for (const config of Object.values(MODEL_CONFIGS)) {
    if (!BUILT_IN.includes(config.provider as BuiltInProvider) || config.openRouterOnly) continue;
    // Service-tier and reasoning-mode variants share the API id of their base model.
    if (config.serviceTier || config.capabilities.reasoningMode) continue;
    if (config.retired && !OWN_MODELS[config.shortName]) continue;
    zooById.set(config.shortName, [...(zooById.get(config.shortName) ?? []), config]);
  }
  const ids = new Set([...zooById.keys(), ...Object.keys(OWN_MODELS)]);
  return [...ids].map((id) => describe(id, zooById.get(id) ?? [], OWN_MODELS[id], now));
}

function describe(id: string, zoo: ModelConfig[], own: OwnModelEntry | undefined, now: Date): ModelInfo {
  const provider = (own?.provider ?? zoo[0].provider) as BuiltInProvider;
  const priced = priceEntry(id, provider, now);
  const first = zoo[0];
  // A "thinking" variant of the same id means the model can reason.
  const any = (flag: 'supportsReasoning' | 'supportsFunctionCalling' | 'supportsVision') =>
    zoo.some((config) => config.capabilities[flag]);
  const flags = { ...PROVIDER_FLAGS[provider], ...own?.flags, ...own?.capabilities };
  const capabilities: ModelCapabilities = {
    reasoning: own?.capabilities?.reasoning ?? any('supportsReasoning'),
    streaming: flags.streaming,
    tools: own?.capabilities?.tools ?? any('supportsFunctionCalling'),
    jsonMode: flags.jsonMode,
    vision: own?.capabilities?.vision ?? any('supportsVision'),
    imageGeneration: flags.imageGeneration,
  };
  const tokenPrices = own?.imageOnlyPricing
    ? { input: null, output: null }
    : { input: priced?.input ?? first?.inputPrice ?? null, output: priced?.output ?? first?.outputPrice ?? null };
  return {
    id,
    provider,
    displayName: own?.displayName ?? displayNameOf(priced?.name, first?.label) ?? id,
    contextWindow: priced?.contextWindow ?? first?.contextWindow ?? null,
    maxOutputTokens: own?.maxOutputTokens ?? first?.maxOutputTokens ?? null,
    capabilities,
    pricing: {
      inputPerMillionTokens: tokenPrices.input,
      outputPerMillionTokens: tokenPrices.output,
      perImage: own?.perImage ?? null,
      currency: 'USD',
    },
    maxTemperature: temperatureMaxOf(provider),
    available: false,
    isTestModel: false,
  };
}

/** genai-prices' full names ("Claude Sonnet 4.5"), except its lower-case ones ("gpt 4o"), where llm-zoo's label reads better. */
function displayNameOf(pricesName: string | undefined, zooLabel: string | undefined): string | undefined {
  if (pricesName && (/[A-Z]/.test(pricesName) || !zooLabel)) return pricesName;
  return zooLabel;
}

interface PricedEntry {
  name?: string;
  contextWindow?: number;
  input: number | null;
  output: number | null;
}

/** genai-prices' entry for an id (its own alias rules), with the prices in force now; tiered prices give their base. */
function priceEntry(id: string, provider: BuiltInProvider, now: Date): PricedEntry | undefined {
  let result: ReturnType<typeof calcPrice>;
  try {
    result = calcPrice({ input_tokens: 0, output_tokens: 0 }, id, { providerId: provider, timestamp: now });
  } catch {
    return undefined;
  }
  if (!result) return undefined;
  const base = (value: unknown): number | null =>
    typeof value === 'number'
      ? value
      : typeof (value as { base?: unknown })?.base === 'number'
        ? (value as { base: number }).base
        : null;
  return {
    name: result.model.name,
    contextWindow: result.model.context_window,
    input: base(result.model_price.input_mtok),
    output: base(result.model_price.output_mtok),
  };
}

/**
 * Applies MODELS_FILE: each provider's models, and the top-level `models`, override the catalog entry with the same id
 * field by field (moving it to that provider), or add it.
 */
export function applyModelsFile(catalog: Map<string, ModelInfo>, content: ModelsFileContent): void {
  for (const provider of content.providers) {
    for (const model of provider.models) catalog.set(model.id, merge(catalog.get(model.id), model, provider.name));
  }
  for (const model of content.models) catalog.set(model.id, merge(catalog.get(model.id), model, model.provider));
}

function merge(base: ModelInfo | undefined, model: ModelsFileModel, provider: string): ModelInfo {
  return {
    id: model.id,
    provider,
    displayName: model.displayName ?? base?.displayName ?? model.id,
    contextWindow: model.contextWindow !== undefined ? model.contextWindow : (base?.contextWindow ?? null),
    maxOutputTokens: model.maxOutputTokens !== undefined ? model.maxOutputTokens : (base?.maxOutputTokens ?? null),
    capabilities: { ...(base?.capabilities ?? COMPATIBLE_DEFAULTS), ...model.capabilities },
    pricing: { ...(base?.pricing ?? UNKNOWN_PRICING), ...model.pricing, currency: 'USD' },
    maxTemperature: temperatureMaxOf(provider),
    available: false,
    isTestModel: false,
  };
}

export interface Usage {
  inputTokens?: number | null;
  outputTokens?: number | null;
  images?: number;
}

/**
 * USD cost of one call; null when a price it needs is unknown. Image calls (images > 0 on a model with a per-image
 * price) are billed per image plus their prompt tokens where those have a price; their output tokens are the images
 * themselves and are not billed again.
 */
export function costFromPricing(pricing: ModelPricing, usage: Usage): number | null {
  let cost = 0;
  const images = usage.images ?? 0;
  const perImage = images > 0 && pricing.perImage !== null;
  if (usage.inputTokens) {
    if (pricing.inputPerMillionTokens !== null) cost += (usage.inputTokens * pricing.inputPerMillionTokens) / 1_000_000;
    else if (!perImage) return null;
  }
  if (perImage) {
    cost += images * pricing.perImage!;
  } else {
    if (images > 0) return null;
    if (usage.outputTokens) {
      if (pricing.outputPerMillionTokens === null) return null;
      cost += (usage.outputTokens * pricing.outputPerMillionTokens) / 1_000_000;
    }
  }
  return Math.round(cost * 1e9) / 1e9;
}

/** Every model: the built-in test model first, then by provider and id. */
export function sortedCatalog(models: Iterable<ModelInfo>): ModelInfo[] {
  const rank = (provider: string) => {
    const index = ['mock', ...BUILT_IN].indexOf(provider);
    return index === -1 ? 99 : index;
  };
  return [...models].sort(
    (a, b) => rank(a.provider) - rank(b.provider) || a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id),
  );
}
