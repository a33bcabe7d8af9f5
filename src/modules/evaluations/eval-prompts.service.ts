import { Injectable } from '@nestjs/common';
import { EndpointsService } from '../endpoints/endpoints.service';
import type { ExecutablePrompt } from '../prompts/executable-prompt';
import { contentOf, PromptsService } from '../prompts/prompts.service';
import { VersionsService } from '../versions/versions.service';
import type { PromptVersionRef } from './eval-run';
import { EvalRunErrors } from './eval-runs.errors';

/** The prompt versions a run names: checked when it is created, and turned into what execution runs. */
@Injectable()
export class EvalPromptsService {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly prompts: PromptsService,
    private readonly versions: VersionsService,
  ) {}

  /** A prompt version a run may name: a prompt of the endpoint that is not Archived, at an existing version. */
  async versionRef(
    tenantId: string,
    endpointId: string,
    field: string,
    promptId: string,
    versionNumber: number | undefined,
  ): Promise<PromptVersionRef> {
    const { prompt } = await this.prompts.require(tenantId, promptId);
    if (prompt.endpointId !== endpointId) throw EvalRunErrors.notOnEndpoint(field, promptId);
    if (prompt.status === 'Archived') throw EvalRunErrors.archived(field, prompt.name);
    const number = versionNumber ?? prompt.currentVersion;
    await this.versions.get(tenantId, promptId, number);
    return { promptId, versionNumber: number };
  }

  /** The endpoint's default prompt at its current version; null when it has none. */
  async defaultVersion(tenantId: string, endpointId: string): Promise<PromptVersionRef | null> {
    const endpoint = await this.endpoints.requireActive(tenantId, endpointId);
    if (!endpoint.defaultPromptId) return null;
    const { prompt } = await this.prompts.require(tenantId, endpoint.defaultPromptId);
    return { promptId: prompt.id, versionNumber: prompt.currentVersion };
  }

  /** The prompt version as execution runs it: the version's content under its prompt's identity. */
  async executable(tenantId: string, ref: PromptVersionRef): Promise<ExecutablePrompt> {
    const { prompt } = await this.prompts.require(tenantId, ref.promptId);
    const version = await this.versions.get(tenantId, ref.promptId, ref.versionNumber);
    return {
      id: prompt.id,
      endpointId: prompt.endpointId,
      name: prompt.name,
      slug: prompt.slug,
      status: prompt.status,
      version: version.versionNumber,
      ...contentOf(version),
    };
  }
}
