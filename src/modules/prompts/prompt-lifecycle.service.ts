import { Injectable } from '@nestjs/common';
import { EndpointsService } from '../endpoints/endpoints.service';
import { splitLists } from '../endpoints/traffic-split';
import { PromptEventsService } from '../prompt-events/prompt-events.service';
import { transitionEvents } from './prompt-history';
import type { PromotionGateStateResponse, PromptResponse } from './dto/prompt.response';
import { decideTransition, PromptAction } from './prompt-lifecycle';
import { PromptsService } from './prompts.service';
import type { Endpoint } from '../endpoints/endpoint-definition';
import type { VersionGate } from '../versions/prompt-version';
import { VersionsService } from '../versions/versions.service';
import type { PromptEntity } from './prompt.entity';
import { type GateVerdict, PromotionGate } from './promotion-gate';
import type { PromotionGateSettings } from '../endpoints/promotion-gate-settings';

/** A promotion's options: `force` promotes past the endpoint's promotion gate, recording `reason`. */
export interface PromoteOptions {
  force: boolean;
  reason?: string;
}
import { TransactionHost } from '../../database/transactions';
import { PromptErrors } from './prompts.errors';

/**
 * The prompt status transitions (promote, demote, archive, set-default). Each runs in one transaction, so its writes
 * (the status, the endpoint's default) land together or not at all; it locks the endpoint row, then the
 * prompt row (always in that order, so concurrent transitions cannot deadlock): concurrent set-default calls
 * serialise, the default is replaced in a single update (never a moment without one), and a prompt cannot be
 * demoted or archived between the check and the change. Each change is recorded in the prompt's history in that same
 * transaction; a call that changes nothing (set-default on the default) records nothing. `keyId` is the key making the
 * change (null when none).
 */
@Injectable()
export class PromptLifecycleService {
  constructor(
    private readonly prompts: PromptsService,
    private readonly endpoints: EndpointsService,
    private readonly txHost: TransactionHost,
    private readonly versions: VersionsService,
    private readonly gate: PromotionGate,
    private readonly events: PromptEventsService,
  ) {}

  /**
   * Draft to Live. With an endpoint promotion gate, only when an evaluation run passes it (409 with a message per
   * reason otherwise), unless `force` with a reason; the version records how the gate was passed.
   */
  promote(tenantId: string, id: string, options: PromoteOptions, keyId: string | null): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'promote', keyId, options);
  }

  /**
   * Whether the prompt's current version may be promoted now under its endpoint's promotion gate: the verdict a
   * promotion would get, read without the promotion's locks (the promotion decides again under them).
   */
  async promotionGateState(tenantId: string, id: string): Promise<PromotionGateStateResponse> {
    const { prompt, endpoint } = await this.prompts.require(tenantId, id);
    const gate = endpoint.promotionGate;
    if (!gate) return { gate: null, open: true, problems: [], runId: null };
    const defaultPrompt = endpoint.defaultPromptId
      ? (await this.prompts.require(tenantId, endpoint.defaultPromptId)).prompt
      : null;
    const verdict = await this.askGate(tenantId, gate, prompt, defaultPrompt);
    return { gate: { ...gate }, open: verdict.problems.length === 0, problems: verdict.problems, runId: verdict.runId };
  }

  /** Live to Draft; demoting the default clears the endpoint's default. */
  demote(tenantId: string, id: string, keyId: string | null): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'demote', keyId);
  }

  /** Live only; replaces the previous default. */
  setDefault(tenantId: string, id: string, keyId: string | null): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'setDefault', keyId);
  }

  /** From Draft or Live, never the default; hidden from lists, history kept. */
  archive(tenantId: string, id: string, keyId: string | null): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'archive', keyId);
  }

  /** Back to Draft, if its name and slug are still free among the endpoint's non-archived prompts. */
  unarchive(tenantId: string, id: string, keyId: string | null): Promise<PromptResponse> {
    return this.apply(tenantId, id, 'unarchive', keyId);
  }

  private async apply(
    tenantId: string,
    id: string,
    action: PromptAction,
    keyId: string | null,
    promotion: PromoteOptions = { force: false },
  ): Promise<PromptResponse> {
    const { prompt: found } = await this.prompts.require(tenantId, id);
    await this.txHost.withTransaction(async () => {
      const endpoint = await this.endpoints.lockForDefaultChange(tenantId, found.endpointId);
      const prompt = await this.prompts.lock(tenantId, id);
      const isDefault = endpoint.defaultPromptId === id;
      const decision = decideTransition(action, prompt.status, isDefault, splitLists(endpoint.trafficSplit, id));
      if (!decision.allowed) throw PromptErrors.transitionRefused(decision.reason);
      if (action === 'unarchive') await this.prompts.ensureNameFree(prompt, prompt.name);
      const gate = action === 'promote' ? await this.passGate(tenantId, endpoint, prompt, promotion) : null;
      if (decision.clearsDefault) await this.endpoints.setDefaultPrompt(tenantId, endpoint.id, null);
      if (decision.to !== prompt.status) await this.prompts.setStatus(tenantId, id, decision.to);
      if (action === 'setDefault' && !isDefault) await this.endpoints.setDefaultPrompt(tenantId, endpoint.id, id);
      if (gate) await this.versions.recordGate(tenantId, id, prompt.currentVersion, gate);
      const events = transitionEvents(
        action,
        { endpoint, promptId: id, versionNumber: prompt.currentVersion, keyId },
        {
          wasDefault: isDefault,
          gate,
        },
      );
      for (const event of events) await this.events.record(tenantId, event);
    });
    await this.endpoints.notifyChanged(found.endpointId);
    return this.prompts.get(tenantId, id);
  }

  /**
   * The endpoint's promotion gate, for a promotion (under the endpoint's and the prompt's row locks): null without a
   * gate; what the version records when a run passes it or the promotion is forced; a 409 with the reasons otherwise.
   */
  private async passGate(
    tenantId: string,
    endpoint: Endpoint,
    prompt: PromptEntity,
    promotion: PromoteOptions,
  ): Promise<VersionGate | null> {
    if (!endpoint.promotionGate) return null;
    const defaultPrompt = endpoint.defaultPromptId ? await this.prompts.lock(tenantId, endpoint.defaultPromptId) : null;
    const verdict = await this.askGate(tenantId, endpoint.promotionGate, prompt, defaultPrompt);
    if (verdict.problems.length === 0) return { forced: false, runId: verdict.runId };
    if (promotion.force) return { forced: true, reason: promotion.reason ?? '', runId: verdict.runId };
    throw PromptErrors.gateNotPassed(verdict.problems);
  }

  /** The gate's verdict on the prompt's current version, against the endpoint's current default (null: none). */
  private askGate(
    tenantId: string,
    gate: PromotionGateSettings,
    prompt: PromptEntity,
    defaultPrompt: PromptEntity | null,
  ): Promise<GateVerdict> {
    return this.gate.check(
      tenantId,
      gate,
      { promptId: prompt.id, versionNumber: prompt.currentVersion },
      defaultPrompt && { promptId: defaultPrompt.id, versionNumber: defaultPrompt.currentVersion },
    );
  }
}
