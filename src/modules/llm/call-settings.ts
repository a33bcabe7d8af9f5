/** Sampling settings every AI SDK provider understands, and the spellings accepted for them in customParameters. */
const COMMON_SETTINGS: Record<string, CommonSetting> = {
  topP: 'topP',
  top_p: 'topP',
  topK: 'topK',
  top_k: 'topK',
  presencePenalty: 'presencePenalty',
  presence_penalty: 'presencePenalty',
  frequencyPenalty: 'frequencyPenalty',
  frequency_penalty: 'frequencyPenalty',
  stopSequences: 'stopSequences',
  stop: 'stopSequences',
  seed: 'seed',
};

type CommonSetting = 'topP' | 'topK' | 'presencePenalty' | 'frequencyPenalty' | 'stopSequences' | 'seed';

export interface SplitSettings {
  common: Partial<Record<CommonSetting, unknown>>;
  /** Everything else, for the provider's own options (`providerOptions[<provider>]`). */
  provider: Record<string, unknown>;
}

/**
 * A prompt's customParameters for a text call: common sampling settings become AI SDK call settings, the rest goes
 * to the provider as provider options (e.g. OpenAI `reasoningEffort`, Anthropic `thinking`). Settings owned by the
 * prompt itself (`temperature`, `maxTokens`) are not overridable here.
 */
export function splitCustomParameters(parameters: Record<string, unknown> | undefined): SplitSettings {
  const split: SplitSettings = { common: {}, provider: {} };
  for (const [name, value] of Object.entries(parameters ?? {})) {
    if (value === undefined || value === null) continue;
    const common = COMMON_SETTINGS[name];
    if (common) {
      split.common[common] = common === 'stopSequences' && typeof value === 'string' ? [value] : value;
    } else if (!['temperature', 'maxTokens', 'max_tokens', 'maxOutputTokens'].includes(name)) {
      split.provider[name] = value;
    }
  }
  return split;
}

export interface ImageSettings {
  n?: number;
  size?: `${number}x${number}`;
  aspectRatio?: `${number}:${number}`;
  seed?: number;
  /** Provider-specific settings such as `quality`, `style`, `background`. */
  provider: Record<string, unknown>;
}

/** Image generation settings: `n`, `size`, `aspectRatio`, `seed` are the AI SDK's own; the rest are the provider's. */
export function splitImageSettings(settings: Record<string, unknown>): ImageSettings {
  const split: ImageSettings = { provider: {} };
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined || value === null) continue;
    if (name === 'n' && typeof value === 'number') split.n = value;
    else if (name === 'size' && typeof value === 'string') split.size = value as `${number}x${number}`;
    else if ((name === 'aspectRatio' || name === 'aspect_ratio') && typeof value === 'string' && /^\d+:\d+$/.test(value)) {
      split.aspectRatio = value as `${number}:${number}`;
    } else if (name === 'seed' && typeof value === 'number') split.seed = value;
    else split.provider[toCamelCase(name)] = value;
  }
  return split;
}

/** The AI SDK's provider options are camelCase (`output_format` is `outputFormat`). */
function toCamelCase(name: string): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
