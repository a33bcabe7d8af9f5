import { ApiProperty } from '@nestjs/swagger';
import { ApiAnyJson, ApiEnum, ApiInteger, ApiUuid } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import type { PromptVersion } from '../prompt-version';
import { VERSION_STATUSES, type VersionStatus } from '../prompt-version.entity';
import type { FallbackModel, SettingChange, TemplateDiffLine, VersionComparison } from '../version-compare';

export class VersionFallbackModelResponse implements FallbackModel {
  llmModel: string;
  @ApiProperty({ minimum: 0, maximum: 2, required: false })
  temperature?: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 2_000_000, required: false })
  maxTokens?: number;
  /** Provider-specific settings. */
  @ApiProperty({ required: false })
  customParameters?: Record<string, unknown>;
}

/** How a promotion passed the promotion gate. */
export class VersionGateResponse {
  /** True when it was promoted past the gate (`force`). */
  forced: boolean;
  /** Why it was forced (only when forced). */
  @ApiProperty({ required: false })
  reason?: string;
  /** The evaluation run that passed the gate (when forced: the newest run considered, null when none). */
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  runId: string | null;
}

export class PromptVersionResponse {
  @ApiUuid()
  promptId: string;
  /** Sequential from 1, without gaps. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  versionNumber: number;
  /** The prompt's status when this version was saved. */
  @ApiEnum('PromptStatus', VERSION_STATUSES)
  status: VersionStatus;
  template: string;
  llmModel: string;
  @ApiProperty({ minimum: 0, maximum: 2 })
  temperature: number;
  @ApiInteger({ minimum: 1, maximum: 2_000_000 })
  maxTokens: number;
  customParameters: Record<string, unknown>;
  @ApiInteger({ minimum: 0, maximum: 3 })
  retries: number;
  /** The fallback models of this version: each `{llmModel, temperature?, maxTokens?, customParameters?}`. */
  @ApiProperty({ type: [VersionFallbackModelResponse], maxItems: 3 })
  fallbackModels: VersionFallbackModelResponse[];
  changeNotes: string | null;
  /** True once pushed out by the plan's version history limit; still fetchable. */
  archived: boolean;
  /** How the version's promotion passed the endpoint's promotion gate; null when it was not promoted through one. */
  @ApiProperty({ type: () => VersionGateResponse, nullable: true })
  gate: VersionGateResponse | null;
  createdAt: Date;
}

export function toPromptVersionResponse(version: PromptVersion): PromptVersionResponse {
  return {
    promptId: version.promptId,
    versionNumber: version.versionNumber,
    status: version.status,
    template: version.template,
    llmModel: version.llmModel,
    temperature: version.temperature,
    maxTokens: version.maxTokens,
    customParameters: version.customParameters,
    retries: version.retries,
    fallbackModels: version.fallbackModels,
    changeNotes: version.changeNotes,
    archived: version.archived,
    gate: version.gate
      ? {
          forced: version.gate.forced,
          ...(version.gate.forced ? { reason: version.gate.reason ?? '' } : {}),
          runId: version.gate.runId,
        }
      : null,
    createdAt: version.createdAt,
  };
}

export class VersionSummaryResponse {
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  versionNumber: number;
  /** The prompt's status when this version was saved. */
  @ApiEnum('PromptStatus', VERSION_STATUSES)
  status: VersionStatus;
  createdAt: Date;
  changeNotes: string | null;
}

export class TemplateDiffLineResponse implements TemplateDiffLine {
  /** `added`, `removed` or `unchanged`. */
  type: 'added' | 'removed' | 'unchanged';
  /** 1-based line in the from version's template; null for an added line. */
  @ApiInteger({ minimum: 1 })
  fromLine: number | null;
  /** 1-based line in the to version's template; null for a removed line. */
  @ApiInteger({ minimum: 1 })
  toLine: number | null;
  text: string;
}

export class SettingChangeResponse implements SettingChange {
  /** `llmModel`, `temperature`, `maxTokens`, `customParameters`, `retries` or `fallbackModels`. */
  setting: 'llmModel' | 'temperature' | 'maxTokens' | 'customParameters' | 'retries' | 'fallbackModels';
  /** Its value in the from version: any JSON value (a string, a number or an object, by setting). */
  @ApiAnyJson()
  from: unknown;
  /** Its value in the to version. */
  @ApiAnyJson()
  to: unknown;
}

export class VersionComparisonResponse {
  @ApiUuid()
  promptId: string;
  from: VersionSummaryResponse;
  to: VersionSummaryResponse;
  templateChanged: boolean;
  templateDiff: TemplateDiffLineResponse[];
  unifiedDiff: string;
  changedSettings: SettingChangeResponse[];
}

export function toVersionComparisonResponse(
  from: PromptVersion,
  to: PromptVersion,
  comparison: VersionComparison,
): VersionComparisonResponse {
  return {
    promptId: from.promptId,
    from: toSummary(from),
    to: toSummary(to),
    templateChanged: comparison.templateChanged,
    templateDiff: comparison.templateDiff,
    unifiedDiff: comparison.unifiedDiff,
    changedSettings: comparison.changedSettings,
  };
}

function toSummary(version: PromptVersion): VersionSummaryResponse {
  return {
    versionNumber: version.versionNumber,
    status: version.status,
    createdAt: version.createdAt,
    changeNotes: version.changeNotes,
  };
}
