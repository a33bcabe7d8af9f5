import { TEMPERATURE_MAX } from './model-table';

/** A model the service can call. */
export interface ModelCapabilities {
  reasoning: boolean;
  streaming: boolean;
  tools: boolean;
  jsonMode: boolean;
  vision: boolean;
  imageGeneration: boolean;
}

export interface ModelPricing {
  inputPerMillionTokens: number | null;
  outputPerMillionTokens: number | null;
  perImage: number | null;
  currency: 'USD';
}

export interface ModelInfo {
  id: string;
  /** Provider name: openai, anthropic, google, mock, or an OpenAI-compatible provider from MODELS_FILE. */
  provider: string;
  displayName: string;
  contextWindow: number | null;
  maxOutputTokens: number | null;
  capabilities: ModelCapabilities;
  pricing: ModelPricing;
  /** The highest sampling temperature its provider accepts. */
  maxTemperature: number;
  /** Whether its provider is configured. */
  available: boolean;
  /** The built-in offline model(s), for tests and demos. */
  isTestModel: boolean;
}

/** The built-in offline provider, always available, zero pricing. */
export const MOCK_MODELS: ModelInfo[] = [
  {
    id: 'mock-echo',
    provider: 'mock',
    displayName: 'Mock echo (returns the rendered prompt)',
    contextWindow: 1_000_000,
    maxOutputTokens: 1_000_000,
    capabilities: {
      reasoning: false,
      streaming: false,
      tools: false,
      jsonMode: true,
      vision: true,
      imageGeneration: false,
    },
    pricing: { inputPerMillionTokens: 0, outputPerMillionTokens: 0, perImage: 0, currency: 'USD' },
    maxTemperature: TEMPERATURE_MAX,
    available: true,
    isTestModel: true,
  },
];

export type ProviderKind = 'openai' | 'anthropic' | 'google' | 'openai-compatible' | 'mock';

/** How to reach a provider: the built-in ones from env, OpenAI-compatible ones from MODELS_FILE. */
export interface ProviderDefinition {
  name: string;
  kind: ProviderKind;
  baseUrl?: string;
  apiKey?: string;
  /** Whether it can be called (credentials present, or no credentials needed). */
  configured: boolean;
}
