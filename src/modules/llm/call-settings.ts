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

/**
 * Settings that would let a call bill more than its prompt's `maxTokens` allows: caps on output or reasoning tokens
 * (Anthropic `thinking.budgetTokens`, Google `thinkingConfig.thinkingBudget`, Ollama `num_predict`, OpenRouter
 * `reasoning.max_tokens`, …), a server-side choice among several answers (`best_of`) and the billing tier
 * (`service_tier`). Spelled as `normalizedSetting` spells them: lower case, without `_` and `-`. `maxTokens` is the
 * ceiling of what a call may bill, so a prompt's customParameters may not hold them at any depth.
 */
const BILLING_SETTINGS: ReadonlySet<string> = new Set([
  'maxtokens',
  'maxcompletiontokens',
  'maxoutputtokens',
  'maxnewtokens',
  'maxtokenstosample',
  'maxreasoningtokens',
  'maxthinkingtokens',
  'numpredict',
  'budgettokens',
  'thinkingbudget',
  'bestof',
  'servicetier',
]);

/** A setting's name as the provider rules compare them: lower case, without `_` and `-` (`MAX_TOKENS` is `maxtokens`). */
function normalizedSetting(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

const SERVICE_CONTROLLED_NORMALIZED: ReadonlySet<string> = new Set(
  [...SERVICE_CONTROLLED_SETTINGS].map(normalizedSetting),
);

/** Whether the service sets this setting itself, in any spelling (`Max_Tokens`, `STREAM`, `responseFormat`). */
function isServiceControlled(name: string): boolean {
  return SERVICE_CONTROLLED_NORMALIZED.has(normalizedSetting(name));
}

/** The first setting at any depth of `value` (itself included, under `name`) that raises what a call may bill. */
function billingSettingIn(name: string, value: unknown, depth = 0): string | null {
  if (BILLING_SETTINGS.has(normalizedSetting(name))) return name;
  // Anthropic's extended thinking adds its budget (1024 tokens when none is given) to the call's max_tokens.
  if (normalizedSetting(name) === 'thinking' && isEnabledThinking(value)) return name;
  // customParameters are at most 16 KiB of JSON, and a request body at most 64 levels deep.
  if (typeof value !== 'object' || value === null || depth > 64) return null;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const found = billingSettingIn(key, item, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

function isEnabledThinking(value: unknown): boolean {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  return typeof type === 'string' && type.toLowerCase() === 'enabled';
}

export const CUSTOM_PARAMETERS_MAX_KEYS = 50;
export const CUSTOM_PARAMETERS_MAX_JSON_BYTES = 16 * 1024;

export interface CustomParameterRules {
  /** Image endpoints take `n`, the number of images of one call. */
  imageEndpoint: boolean;
  maxImagesPerCall: number;
}

/**
 * The problems of a prompt's customParameters, each naming `customParameters.<key>` (none when they may be used): an
 * object of at most 50 keys and 16 KiB of JSON that sets nothing the service controls (in any case, with or without
 * `_`) and nothing, at any depth, that raises what a call may bill above its `maxTokens` (see BILLING_SETTINGS); `n`
 * only on image endpoints, as an integer from 1 to `maxImagesPerCall`. Checked when a prompt is saved and again
 * before each provider call (a row saved before a rule existed cannot run: 422).
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
    const value = (parameters as Record<string, unknown>)[key];
    const billing = billingSettingIn(key, value);
    if (isServiceControlled(key) || (key === 'n' && !rules.imageEndpoint)) {
      problems.push(`customParameters.${key} cannot be set: the service controls it`);
    } else if (billing !== null) {
      problems.push(
        `customParameters.${key} cannot be set: ${billing === key ? 'it' : `its ${billing}`} would let a call bill beyond maxTokens or change its billing tier`,
      );
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
    } else if (!isServiceControlled(name) && billingSettingIn(name, value) === null && name !== 'n') {
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
    if (isServiceControlled(name) || billingSettingIn(name, value) !== null) continue;
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
