import type { PromptVersionEntity, VersionStatus } from './prompt-version.entity';
import type { VersionContent } from './version-compare';

/** A saved version as the prompts module sees it: its content and history fields, never its row. */
export interface PromptVersion extends VersionContent {
  promptId: string;
  versionNumber: number;
  status: VersionStatus;
  changeNotes: string | null;
  archived: boolean;
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
    createdAt: entity.createdAt,
  };
}
