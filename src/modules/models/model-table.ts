import type { ModelCapabilities } from './model';

export type BuiltInProvider = 'openai' | 'anthropic' | 'google';

/** What the packaged catalogs (genai-prices, llm-zoo) do not carry: JSON mode, streaming and image generation. */
export type OwnFlags = Pick<ModelCapabilities, 'jsonMode' | 'streaming' | 'imageGeneration'>;

/**
 * Every current chat model of these providers streams and returns structured output through the AI SDK (OpenAI
 * response_format json_schema, Anthropic structured outputs / tool use, Gemini responseSchema).
 */
export const PROVIDER_FLAGS: Record<BuiltInProvider, OwnFlags> = {
  openai: { jsonMode: true, streaming: true, imageGeneration: false },
  anthropic: { jsonMode: true, streaming: true, imageGeneration: false },
  google: { jsonMode: true, streaming: true, imageGeneration: false },
};

/** The highest sampling temperature a prompt may set (0 to 2), whatever its provider. */
export const TEMPERATURE_MAX = 2;

/**
 * The highest sampling temperature each built-in provider's API accepts: OpenAI and Gemini take 0 to 2, Anthropic 0 to
 * 1. Other providers (the offline model, OpenAI-compatible servers) are given TEMPERATURE_MAX.
 */
export const PROVIDER_TEMPERATURE_MAX: Record<BuiltInProvider, number> = { openai: 2, anthropic: 1, google: 2 };

/** The highest temperature a model of this provider accepts. */
export function temperatureMaxOf(provider: string): number {
  return PROVIDER_TEMPERATURE_MAX[provider as BuiltInProvider] ?? TEMPERATURE_MAX;
}

export interface OwnModelEntry {
  provider: BuiltInProvider;
  /** Flags that differ from PROVIDER_FLAGS. */
  flags?: Partial<OwnFlags>;
  /** For models neither package describes (image models): everything the catalog needs. */
  displayName?: string;
  capabilities?: Partial<ModelCapabilities>;
  maxOutputTokens?: number;
  /** USD per generated image (1024×1024, standard/medium quality); the packages only price tokens. */
  perImage?: number;
  /** true: no token prices (the provider bills images only). */
  imageOnlyPricing?: boolean;
}

const IMAGE_MODEL: Partial<ModelCapabilities> = {
  reasoning: false,
  tools: false,
  jsonMode: false,
  streaming: false,
  imageGeneration: true,
};

/**
 * Our one table. Each id here is always listed (even if llm-zoo marks it retired: these are the ids prompts commonly
 * name), with the flags that differ from the provider default. Ids are the providers' API ids.
 */
export const OWN_MODELS: Record<string, OwnModelEntry> = {
  'gpt-4o': { provider: 'openai' },
  'gpt-4o-mini': { provider: 'openai' },
  'gpt-4.1': { provider: 'openai' },
  'gpt-4.1-mini': { provider: 'openai' },
  'gpt-4.1-nano': { provider: 'openai' },
  'gpt-5': { provider: 'openai' },
  'gpt-5-mini': { provider: 'openai' },
  'gpt-5-nano': { provider: 'openai' },
  // Responses-API-only models without streaming.
  'gpt-5-pro': { provider: 'openai', flags: { streaming: false } },
  'o1-pro': { provider: 'openai', flags: { streaming: false } },
  'o3-pro': { provider: 'openai', flags: { streaming: false } },
  'claude-sonnet-4-5': { provider: 'anthropic' },
  'claude-haiku-4-5': { provider: 'anthropic' },
  'claude-opus-4-1': { provider: 'anthropic' },
  'gemini-2.5-pro': { provider: 'google' },
  'gemini-2.5-flash': { provider: 'google' },
  // llm-zoo lists only its retired preview.
  'gemini-2.5-flash-lite': {
    provider: 'google',
    displayName: 'Gemini 2.5 Flash-Lite',
    capabilities: { reasoning: true, tools: true, vision: true },
    maxOutputTokens: 65536,
  },
  'gpt-image-1': {
    provider: 'openai',
    displayName: 'GPT Image 1',
    capabilities: { ...IMAGE_MODEL, vision: true },
    perImage: 0.042,
  },
  'gpt-image-1-mini': {
    provider: 'openai',
    displayName: 'GPT Image 1 Mini',
    capabilities: { ...IMAGE_MODEL, vision: true },
    perImage: 0.011,
  },
  'dall-e-3': {
    provider: 'openai',
    displayName: 'DALL·E 3',
    capabilities: { ...IMAGE_MODEL, vision: false },
    perImage: 0.04,
    imageOnlyPricing: true,
  },
  'dall-e-2': {
    provider: 'openai',
    displayName: 'DALL·E 2',
    capabilities: { ...IMAGE_MODEL, vision: false },
    perImage: 0.02,
    imageOnlyPricing: true,
  },
  'gemini-2.5-flash-image': {
    provider: 'google',
    displayName: 'Gemini 2.5 Flash Image',
    capabilities: { ...IMAGE_MODEL, vision: true },
    perImage: 0.039,
  },
  'imagen-4.0-generate-001': {
    provider: 'google',
    displayName: 'Imagen 4',
    capabilities: { ...IMAGE_MODEL, vision: false },
    perImage: 0.04,
    imageOnlyPricing: true,
  },
};
