/**
 * Settings of a provider call the service sets itself (the model, the prompt and its messages, streaming, the output
 * format, tools, the sampling temperature, token limits, the number of answers): a prompt's customParameters may not
 * set them, so what a call sends, costs and logs is what the prompt's own settings say.
 */
export const SERVICE_CONTROLLED_SETTINGS: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'prompt',
  'system',
  'stream',
  'stream_options',
  'response_format',
  'tools',
  'tool_choice',
  'functions',
  'temperature',
  'max_tokens',
  'max_completion_tokens',
  'maxTokens',
  'maxOutputTokens',
]);

export const CUSTOM_PARAMETERS_MAX_KEYS = 50;
export const CUSTOM_PARAMETERS_MAX_JSON_BYTES = 16 * 1024;

export interface CustomParameterRules {
  /** Image endpoints take `n`, the number of images of one call. */
  imageEndpoint: boolean;
  maxImagesPerCall: number;
}

/**
 * The problems of a prompt's customParameters, each naming `customParameters.<key>` (none when they may be used): an
 * object of at most 50 keys and 16 KiB of JSON that sets nothing the service controls; `n` only on image endpoints,
 * as an integer from 1 to `maxImagesPerCall`. Checked when a prompt is saved and again before each provider call.
 */
export function customParametersProblems(parameters: unknown, rules: CustomParameterRules): string[] {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
    return ['customParameters must be an object'];
  const keys = Object.keys(parameters);
  if (keys.length > CUSTOM_PARAMETERS_MAX_KEYS) {
    return [`customParameters must have at most ${CUSTOM_PARAMETERS_MAX_KEYS} keys; it has ${keys.length}`];
  }
  const bytes = Buffer.byteLength(JSON.stringify(parameters), 'utf8');
  if (bytes > CUSTOM_PARAMETERS_MAX_JSON_BYTES) {
    return [`customParameters must be at most ${CUSTOM_PARAMETERS_MAX_JSON_BYTES} bytes of JSON; it has ${bytes}`];
  }
  const problems: string[] = [];
  for (const key of keys) {
    if (SERVICE_CONTROLLED_SETTINGS.has(key) || (key === 'n' && !rules.imageEndpoint)) {
      problems.push(`customParameters.${key} cannot be set: the service controls it`);
    } else if (key === 'n') {
      const n = (parameters as Record<string, unknown>)[key];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > rules.maxImagesPerCall) {
        problems.push(`customParameters.n must be an integer from 1 to ${rules.maxImagesPerCall}`);
      }
    }
  }
  return problems;
}

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
 * to the provider as provider options (e.g. OpenAI `reasoningEffort`, Anthropic `thinking`). Settings the service
 * controls (the model, messages, token limits, `n`, …) are never passed on, even from a row saved before they were
 * refused: OpenAI-compatible providers copy their options into the request body over the service's own fields.
 */
export function splitCustomParameters(parameters: Record<string, unknown> | undefined): SplitSettings {
  const split: SplitSettings = { common: {}, provider: {} };
  for (const [name, value] of Object.entries(parameters ?? {})) {
    if (value === undefined || value === null) continue;
    const common = COMMON_SETTINGS[name];
    if (common) {
      split.common[common] = common === 'stopSequences' && typeof value === 'string' ? [value] : value;
    } else if (!SERVICE_CONTROLLED_SETTINGS.has(name) && name !== 'n') {
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

/**
 * Image generation settings: `n`, `size`, `aspectRatio`, `seed` are the AI SDK's own; the rest are the provider's,
 * except what the service controls (the model and prompt, which the provider would copy over its own fields). An `n`
 * that is not a number is dropped rather than passed on as a provider option.
 */
export function splitImageSettings(settings: Record<string, unknown>): ImageSettings {
  const split: ImageSettings = { provider: {} };
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined || value === null) continue;
    if (SERVICE_CONTROLLED_SETTINGS.has(name) || SERVICE_CONTROLLED_SETTINGS.has(toCamelCase(name))) continue;
    if (name === 'n') {
      if (typeof value === 'number') split.n = value;
    } else if (name === 'size' && typeof value === 'string') split.size = value as `${number}x${number}`;
    else if (
      (name === 'aspectRatio' || name === 'aspect_ratio') &&
      typeof value === 'string' &&
      /^\d+:\d+$/.test(value)
    ) {
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
