import { ApiProperty } from '@nestjs/swagger';
import { ApiEnum, ApiInteger, ApiUuid } from '../../../common/http/api-schema.decorators';
import { PromotionGateResponse } from '../../endpoints/dto/endpoint.response';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import type { PromptStatus } from '../executable-prompt';
import type { PromptEntity } from '../prompt.entity';
import type { TemplateAnalysis, TemplateProblem } from '../template/liquid-template';
import { MAX_FALLBACK_MODELS, MAX_RETRIES, PROMPT_STATUSES } from './prompt.dto';

export class FallbackModelResponse {
  llmModel: string;
  @ApiProperty({ minimum: 0, maximum: 2, required: false })
  temperature?: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 2_000_000, required: false })
  maxTokens?: number;
  /** Provider-specific settings. */
  @ApiProperty({ required: false })
  customParameters?: Record<string, unknown>;
}

export class PromptResponse {
  @ApiUuid()
  id: string;
  @ApiUuid()
  endpointId: string;
  name: string;
  /** Derived from the name; selects the prompt in execution requests (`?prompt=`). */
  slug: string;
  template: string;
  llmModel: string;
  @ApiProperty({ minimum: 0, maximum: 2 })
  temperature: number;
  @ApiInteger({ minimum: 1, maximum: 2_000_000 })
  maxTokens: number;
  /** Provider-specific settings. */
  customParameters: Record<string, unknown>;
  /** How many more times each model is tried after a failure that fails over. */
  @ApiInteger({ minimum: 0, maximum: MAX_RETRIES })
  retries: number;
  /** Models tried in order once the prompt's own model failed over; an omitted setting is the prompt's own. */
  @ApiProperty({ type: [FallbackModelResponse], maxItems: MAX_FALLBACK_MODELS })
  fallbackModels: FallbackModelResponse[];
  /** `Draft`, `Live` or `Archived`. */
  @ApiEnum('PromptStatus', PROMPT_STATUSES)
  status: PromptStatus;
  /** Whether this prompt is its endpoint's default. */
  isDefault: boolean;
  /** Number of the latest version. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  currentVersion: number;
  changeNotes: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toPromptResponse(prompt: PromptEntity, defaultPromptId: string | null): PromptResponse {
  return {
    id: prompt.id,
    endpointId: prompt.endpointId,
    name: prompt.name,
    slug: prompt.slug,
    template: prompt.template,
    llmModel: prompt.llmModel,
    temperature: prompt.temperature,
    maxTokens: prompt.maxTokens,
    customParameters: prompt.customParameters,
    retries: prompt.retries,
    fallbackModels: prompt.fallbackModels,
    status: prompt.status,
    isDefault: prompt.id === defaultPromptId,
    currentVersion: prompt.currentVersion,
    changeNotes: prompt.changeNotes,
    createdAt: prompt.createdAt,
    updatedAt: prompt.updatedAt,
  };
}

export class TemplateProblemResponse implements TemplateProblem {
  message: string;
  /** 1-based; null when the problem has no position (size or parse limits). */
  @ApiInteger({ minimum: 1 })
  line: number | null;
  /** 1-based; null with line. */
  @ApiInteger({ minimum: 1 })
  column: number | null;
}

export class TemplateValidationResponse {
  valid: boolean;
  errors: TemplateProblemResponse[];
  /** The `inputs.<name>` variables the template reads. */
  variables: string[];
  /** Variables that are not input fields of the endpoint. */
  unknownVariables: string[];
}

export function toTemplateValidationResponse(analysis: TemplateAnalysis): TemplateValidationResponse {
  return {
    valid: analysis.valid,
    errors: analysis.errors.map((e) => ({ message: e.message, line: e.line, column: e.column })),
    variables: analysis.variables,
    unknownVariables: analysis.unknownVariables,
  };
}

/**
 * Whether the prompt's current version may be promoted now under its endpoint's promotion gate: the verdict a
 * promotion would get at this moment (the promotion decides again when it is made).
 */
export class PromotionGateStateResponse {
  /** The endpoint's gate; null when its promotions are not gated. */
  @ApiProperty({ type: () => PromotionGateResponse, nullable: true })
  gate: PromotionGateResponse | null;
  /** Whether a promotion would pass (always true without a gate). */
  open: boolean;
  /** Why it would not, a sentence per reason (those of the promotion's 409); empty when open. */
  problems: string[];
  /** The completed run that passes the gate, or else the newest run of the gate's dataset it looked at; null for none. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  runId: string | null;
}
