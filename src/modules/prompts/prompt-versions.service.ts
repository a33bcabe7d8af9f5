import { Injectable } from '@nestjs/common';
import { ModelsService } from '../models/models.service';
import {
  PromptVersionResponse,
  toPromptVersionResponse,
  toVersionComparisonResponse,
  VersionComparisonResponse,
} from '../versions/dto/version.response';
import { VersionsService } from '../versions/versions.service';
import { PromptResponse, toPromptResponse } from './dto/prompt.response';
import { restoredName } from './prompt-naming';
import { contentOf, exactName, PromptsService } from './prompts.service';

/** The version routes of a prompt: the prompt is checked here (tenant, endpoint), the rows come from VersionsService. */
@Injectable()
export class PromptVersionsService {
  constructor(
    private readonly prompts: PromptsService,
    private readonly versions: VersionsService,
    private readonly models: ModelsService,
  ) {}

  async list(tenantId: string, promptId: string): Promise<PromptVersionResponse[]> {
    await this.prompts.require(tenantId, promptId);
    return (await this.versions.list(tenantId, promptId)).map(toPromptVersionResponse);
  }

  async get(tenantId: string, promptId: string, versionNumber: number): Promise<PromptVersionResponse> {
    await this.prompts.require(tenantId, promptId);
    return toPromptVersionResponse(await this.versions.get(tenantId, promptId, versionNumber));
  }

  async compare(tenantId: string, promptId: string, from: number, to: number): Promise<VersionComparisonResponse> {
    await this.prompts.require(tenantId, promptId);
    const result = await this.versions.compare(tenantId, promptId, from, to);
    return toVersionComparisonResponse(result.from, result.to, result.comparison);
  }

  /**
   * A new Draft prompt named `<name> (v<N>)` whose version 1 holds that version's content; the
   * original prompt and its history are unchanged. Rollback is then promote and set-default on the new prompt.
   */
  async restore(
    tenantId: string,
    promptId: string,
    versionNumber: number,
    keyId: string | null,
  ): Promise<PromptResponse> {
    const { prompt } = await this.prompts.require(tenantId, promptId);
    const version = await this.versions.get(tenantId, promptId, versionNumber);
    this.models.require(version.llmModel);
    version.fallbackModels.forEach((fallback, index) =>
      this.models.require(fallback.llmModel, `fallbackModels.${index}.llmModel`),
    );
    const restored = await this.prompts.createDraft(tenantId, prompt.endpointId, keyId, {
      pickName: exactName(restoredName(prompt.name, versionNumber)),
      content: contentOf(version),
      changeNotes: `Restored from '${prompt.name}' version ${versionNumber}`,
      event: {
        type: 'restored',
        details: { sourcePromptId: prompt.id, sourceName: prompt.name, sourceVersionNumber: versionNumber },
      },
    });
    return toPromptResponse(restored, null);
  }
}
