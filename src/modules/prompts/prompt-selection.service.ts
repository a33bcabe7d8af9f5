import { Injectable } from '@nestjs/common';
import type { Endpoint } from '../endpoints/endpoint-definition';
import { EndpointsService } from '../endpoints/endpoints.service';
import { assignVariant, type StickyContext, stickyValueOf } from '../endpoints/traffic-split';
import { InvalidatingCache, InvalidationBus } from '../invalidation/invalidation-bus';
import { ENDPOINT_TOPIC } from '../invalidation/topics';
import type { PromptAssignment } from './prompt-assignment';
import type { ExecutablePrompt } from './executable-prompt';
import type { PromptEntity } from './prompt.entity';
import { PromptsRepository } from './prompts.repository';
import { contentOf } from './prompts.service';
import { PromptErrors } from './prompts.errors';
import { VersionsService } from '../versions/versions.service';

/** Execution's prompt selection, kept in memory and dropped on every instance when the endpoint or a prompt changes. */
const RESOLVED_PROMPT_CACHE = { max: 20_000, ttlMs: 10 * 60_000 };

/** The prompt a request runs, and how it was assigned. */
export interface SelectedPrompt {
  prompt: ExecutablePrompt;
  assignment: PromptAssignment;
}

/**
 * Which prompt an execution runs: `?prompt=`, the endpoint's traffic split or its default for the execution API and
 * MCP, the named prompt for a test run. Successful resolutions are kept in memory per instance and dropped on every
 * instance when the endpoint or one of its prompts changes.
 */
@Injectable()
export class PromptSelectionService {
  private readonly resolved: InvalidatingCache<ExecutablePrompt>;

  constructor(
    private readonly prompts: PromptsRepository,
    private readonly endpoints: EndpointsService,
    private readonly versions: VersionsService,
    bus: InvalidationBus,
  ) {
    this.resolved = new InvalidatingCache<ExecutablePrompt>(
      bus,
      ENDPOINT_TOPIC,
      (prompt) => prompt.endpointId,
      RESOLVED_PROMPT_CACHE,
    );
  }

  /**
   * For execution: `?prompt=` pins a prompt by name or slug (it must be Live); without one, the endpoint's traffic
   * split assigns a variant (sticky by the key or a header, random by weight otherwise), or else the default answers.
   * `endpoint` is the caller's read model, so a change of the split applies wherever that model was refreshed.
   */
  async selectForExecution(
    tenantId: string,
    endpoint: Endpoint,
    selector: string | undefined,
    sticky: StickyContext,
  ): Promise<SelectedPrompt> {
    if (selector)
      return { prompt: await this.resolveForExecution(tenantId, endpoint.id, selector), assignment: 'pinned' };
    const split = endpoint.trafficSplit;
    if (!split) return { prompt: await this.resolveForExecution(tenantId, endpoint.id), assignment: 'default' };
    const promptId = assignVariant(split, endpoint.id, stickyValueOf(split, sticky));
    const prompt = await this.resolved.getOrLoad(`${tenantId}\n${endpoint.id}\nid:${promptId}`, () =>
      this.resolveVariant(tenantId, endpoint.id, promptId),
    );
    return { prompt: prompt!, assignment: 'split' };
  }

  /**
   * For execution: `selector` matches the name or slug of a prompt that is not archived, or else a name or slug a
   * prompt that is not archived gave up in a rename (the prompt that gave it up last); it must be Live. Without one,
   * the endpoint's default.
   */
  async resolveForExecution(tenantId: string, endpointId: string, selector?: string): Promise<ExecutablePrompt> {
    // Only successful resolutions are kept; the refusals below are answered from the database every time.
    const resolved = await this.resolved.getOrLoad(`${tenantId}\n${endpointId}\nname:${selector ?? ''}`, () =>
      this.resolveFromDatabase(tenantId, endpointId, selector),
    );
    return resolved!;
  }

  /** A variant of the split: Live by the split's own rule (its prompts cannot leave Live), checked again here. */
  private async resolveVariant(tenantId: string, endpointId: string, promptId: string): Promise<ExecutablePrompt> {
    const prompt = await this.prompts.findById(tenantId, promptId);
    if (!prompt || prompt.endpointId !== endpointId || prompt.status !== 'Live') {
      throw PromptErrors.splitVariantNotLive();
    }
    return toExecutablePrompt(prompt);
  }

  private async resolveFromDatabase(
    tenantId: string,
    endpointId: string,
    selector?: string,
  ): Promise<ExecutablePrompt> {
    if (selector !== undefined && selector !== '') {
      const prompt =
        (await this.prompts.findActiveBySelector(tenantId, endpointId, selector)) ??
        (await this.prompts.findActiveByFormerSelector(tenantId, endpointId, selector));
      if (!prompt) throw PromptErrors.noPromptNamed(selector);
      if (prompt.status !== 'Live') {
        throw PromptErrors.selectedNotLive(prompt.name, prompt.status);
      }
      return toExecutablePrompt(prompt);
    }
    const endpoint = await this.endpoints.requireActive(tenantId, endpointId);
    const prompt = endpoint.defaultPromptId ? await this.prompts.findById(tenantId, endpoint.defaultPromptId) : null;
    if (!prompt) throw PromptErrors.noDefaultPrompt();
    if (prompt.status !== 'Live') throw PromptErrors.defaultNotLive(prompt.name);
    return toExecutablePrompt(prompt);
  }

  /** For the test runner: Draft and Live prompts of the endpoint; Archived ones are out of use (409). */
  async getForTestRun(
    tenantId: string,
    endpointId: string,
    promptId: string,
    versionNumber?: number,
  ): Promise<ExecutablePrompt> {
    const prompt = await this.prompts.findById(tenantId, promptId);
    if (!prompt || prompt.endpointId !== endpointId) {
      throw PromptErrors.notOnEndpoint(promptId, endpointId);
    }
    if (prompt.status === 'Archived') {
      throw PromptErrors.archivedNotTestable(prompt.name);
    }
    const current = toExecutablePrompt(prompt);
    if (versionNumber === undefined || versionNumber === prompt.currentVersion) return current;
    // An earlier version runs its own content under the prompt's identity, as it ran when it was current.
    const version = await this.versions.get(tenantId, promptId, versionNumber);
    return { ...current, version: version.versionNumber, ...contentOf(version) };
  }
}

function toExecutablePrompt(prompt: PromptEntity): ExecutablePrompt {
  return {
    id: prompt.id,
    endpointId: prompt.endpointId,
    name: prompt.name,
    slug: prompt.slug,
    status: prompt.status,
    version: prompt.currentVersion,
    ...contentOf(prompt),
  };
}
