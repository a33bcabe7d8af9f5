import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-schema.decorators';
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
  @ApiProperty({ minimum: 0 })
  inputPerMillionTokens: number | null;
  /** USD per million output tokens; null when unknown. */
  @ApiProperty({ minimum: 0 })
  outputPerMillionTokens: number | null;
  /** USD per generated image, for image models; null otherwise or when unknown. */
  @ApiProperty({ minimum: 0 })
  perImage: number | null;
  currency: 'USD';
}

export class ModelResponse {
  /** The model id prompts name in `llmModel`. */
  id: string;
  provider: string;
  displayName: string;
  /** Tokens of input and output together; null when unknown. */
  @ApiInteger({ minimum: 1 })
  contextWindow: number | null;
  /** Most tokens one answer may have; null when unknown. */
  @ApiInteger({ minimum: 1 })
  maxOutputTokens: number | null;
  capabilities: ModelCapabilitiesResponse;
  pricing: ModelPricingResponse;
  /**
   * The highest sampling temperature its provider accepts (OpenAI and Google 2, Anthropic 1, others 2); a prompt's
   * `temperature` is 0 to 2 whatever its model.
   */
  @ApiProperty({ minimum: 0, maximum: 2 })
  maxTemperature: number;
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
    maxTemperature: model.maxTemperature,
    available: model.available,
    isTestModel: model.isTestModel,
  };
}
