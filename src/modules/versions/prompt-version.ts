import type { PromptVersionEntity, VersionStatus } from './prompt-version.entity';
import type { VersionContent } from './version-compare';
import type { VersionGate } from './version-gate';

export type { VersionGate };

/** A saved version as the prompts module sees it: its content and history fields, never its row. */
export interface PromptVersion extends VersionContent {
  promptId: string;
  versionNumber: number;
  status: VersionStatus;
  changeNotes: string | null;
  archived: boolean;
  gate: VersionGate | null;
  createdAt: Date;
}

export function toPromptVersion(entity: PromptVersionEntity): PromptVersion {
  return {
    promptId: entity.promptId,
    versionNumber: entity.versionNumber,
    status: entity.status,
    template: entity.template,
    llmModel: entity.llmModel,
    temperature: entity.temperature,
    maxTokens: entity.maxTokens,
    customParameters: entity.customParameters,
    retries: entity.retries,
    fallbackModels: entity.fallbackModels,
    changeNotes: entity.changeNotes,
    archived: entity.archived,
    gate: entity.gate ?? null,
    createdAt: entity.createdAt,
  };
}
