import type { PromptVersionEntity, VersionStatus } from '../prompt-version.entity';
import type { SettingChange, TemplateDiffLine, VersionComparison } from '../version-compare';

export class PromptVersionResponse {
  promptId: string;
  /** Sequential from 1, without gaps. */
  versionNumber: number;
  /** The prompt's status when this version was saved. */
  status: VersionStatus;
  template: string;
  llmModel: string;
  temperature: number;
  maxTokens: number;
  customParameters: Record<string, unknown>;
  changeNotes: string | null;
  /** True once pushed out by the plan's version history limit; still fetchable. */
  archived: boolean;
  createdAt: Date;
}

export function toPromptVersionResponse(version: PromptVersionEntity): PromptVersionResponse {
  return {
    promptId: version.promptId,
    versionNumber: version.versionNumber,
    status: version.status,
    template: version.template,
    llmModel: version.llmModel,
    temperature: version.temperature,
    maxTokens: version.maxTokens,
    customParameters: version.customParameters,
    changeNotes: version.changeNotes,
    archived: version.archived,
    createdAt: version.createdAt,
  };
}

export class VersionSummaryResponse {
  versionNumber: number;
  status: VersionStatus;
  createdAt: Date;
  changeNotes: string | null;
}

export class TemplateDiffLineResponse implements TemplateDiffLine {
  /** `added`, `removed` or `unchanged`. */
  type: 'added' | 'removed' | 'unchanged';
  fromLine: number | null;
  toLine: number | null;
  text: string;
}

export class SettingChangeResponse implements SettingChange {
  /** `llmModel`, `temperature`, `maxTokens` or `customParameters`. */
  setting: 'llmModel' | 'temperature' | 'maxTokens' | 'customParameters';
  from: unknown;
  to: unknown;
}

export class VersionComparisonResponse {
  promptId: string;
  from: VersionSummaryResponse;
  to: VersionSummaryResponse;
  templateChanged: boolean;
  templateDiff: TemplateDiffLineResponse[];
  unifiedDiff: string;
  changedSettings: SettingChangeResponse[];
}

export function toVersionComparisonResponse(
  from: PromptVersionEntity,
  to: PromptVersionEntity,
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

function toSummary(version: PromptVersionEntity): VersionSummaryResponse {
  return {
    versionNumber: version.versionNumber,
    status: version.status,
    createdAt: version.createdAt,
    changeNotes: version.changeNotes,
  };
}
