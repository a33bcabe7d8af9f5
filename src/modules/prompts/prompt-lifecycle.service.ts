import { Injectable } from '@nestjs/common';
import { EndpointsService } from '../endpoints/endpoints.service';
import { splitLists } from '../endpoints/traffic-split';
import type { PromptResponse } from './dto/prompt.response';
import { decideTransition, PromptAction } from './prompt-lifecycle';
import { PromptsService } from './prompts.service';
import { TransactionHost } from '../../database/transactions';
import { PromptErrors } from './prompts.errors';

/**
 * The prompt status transitions (promote, demote, archive, set-default). Each runs in one transaction, so its writes
 * (the status, the endpoint's default) land together or not at all; it locks the endpoint row, then the
 * prompt row (always in that order, so concurrent transitions cannot deadlock): concurrent set-default calls
 * serialise, the default is replaced in a single update (never a moment without one), and a prompt cannot be
 * demoted or archived between the check and the change.
 */
@Injectable()
export class PromptLifecycleService {
  constructor(
    private readonly prompts: PromptsService,
    private readonly endpoints: EndpointsService,
    private readonly txHost: TransactionHost,
  ) {}

  promote(tenantId: string, id: string): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'promote');
  }

  /** Live to Draft; demoting the default clears the endpoint's default. */
  demote(tenantId: string, id: string): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'demote');
  }

  /** Live only; replaces the previous default. */
  setDefault(tenantId: string, id: string): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'setDefault');
  }

  /** From Draft or Live, never the default; hidden from lists, history kept. */
  archive(tenantId: string, id: string): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'archive');
  }

  /** Back to Draft, if its name and slug are still free among the endpoint's non-archived prompts. */
  unarchive(tenantId: string, id: string): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'unarchive');
  }

  private async apply(tenantId: string, id: string, action: PromptAction): Promise<PromptResponse> {
    const { prompt: found } = await this.prompts.require(tenantId, id);
    await this.txHost.withTransaction(async () => {
      const endpoint = await this.endpoints.lockForDefaultChange(tenantId, found.endpointId);
      const prompt = await this.prompts.lock(tenantId, id);
      const isDefault = endpoint.defaultPromptId === id;
      const decision = decideTransition(action, prompt.status, isDefault, splitLists(endpoint.trafficSplit, id));
      if (!decision.allowed) throw PromptErrors.transitionRefused(decision.reason);
      if (action === 'unarchive') await this.prompts.ensureNameFree(prompt, prompt.name);
      if (decision.clearsDefault) await this.endpoints.setDefaultPrompt(tenantId, endpoint.id, null);
      if (decision.to !== prompt.status) await this.prompts.setStatus(tenantId, id, decision.to);
      if (action === 'setDefault' && !isDefault) await this.endpoints.setDefaultPrompt(tenantId, endpoint.id, id);
    });
    await this.endpoints.notifyChanged(found.endpointId);
    return this.prompts.get(tenantId, id);
  }
}
