import type { ModelInfo } from '../model';

export class ModelCapabilitiesResponse {
  reasoning: boolean;
  streaming: boolean;
  tools: boolean;
  jsonMode: boolean;
  vision: boolean;
  imageGeneration: boolean;
}

export class ModelPricingResponse {
  /** USD per million input tokens; null when unknown. */
  inputPerMillionTokens: number | null;
  outputPerMillionTokens: number | null;
  /** USD per generated image, for image models. */
  perImage: number | null;
  currency: 'USD';
}

export class ModelResponse {
  id: string;
  provider: string;
  displayName: string;
  contextWindow: number | null;
  maxOutputTokens: number | null;
  capabilities: ModelCapabilitiesResponse;
  pricing: ModelPricingResponse;
  /** Whether its provider is configured, so the model can be called. */
  available: boolean;
  isTestModel: boolean;
}

export function toModelResponse(model: ModelInfo): ModelResponse {
  return {
    id: model.id,
    provider: model.provider,
    displayName: model.displayName,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxOutputTokens,
    capabilities: { ...model.capabilities },
    pricing: { ...model.pricing },
    available: model.available,
    isTestModel: model.isTestModel,
  };
}
