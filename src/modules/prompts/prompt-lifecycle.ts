import type { PromptStatus } from './executable-prompt';

/** The prompt lifecycle actions (set-default keeps the status but has a precondition). */
export type PromptAction = 'promote' | 'demote' | 'archive' | 'unarchive' | 'setDefault';

export type TransitionDecision =
  | {
      allowed: true;
      to: PromptStatus;
      /** the endpoint's default must be cleared (demoting the default) */ clearsDefault: boolean;
    }
  | { allowed: false; reason: string };

const RULES: Record<PromptAction, { from: PromptStatus[]; to: PromptStatus | 'same' }> = {
  promote: { from: ['Draft'], to: 'Live' },
  demote: { from: ['Live'], to: 'Draft' },
  archive: { from: ['Draft', 'Live'], to: 'Archived' },
  unarchive: { from: ['Archived'], to: 'Draft' },
  setDefault: { from: ['Live'], to: 'same' },
};

const VERBS: Record<PromptAction, string> = {
  promote: 'promoted',
  demote: 'demoted',
  archive: 'archived',
  unarchive: 'unarchived',
  setDefault: 'set as default',
};

/**
 * Promote only from Draft, demote only from Live (demoting the default clears it), archive from
 * Draft or Live but never the endpoint's default, unarchive only from Archived (back to Draft), set-default only Live.
 * A prompt the endpoint's traffic split lists can be neither demoted nor archived: the split only ever points at Live
 * prompts, so it must drop the prompt first.
 */
export function decideTransition(
  action: PromptAction,
  status: PromptStatus,
  isDefault: boolean,
  inSplit = false,
): TransitionDecision {
  const rule = RULES[action];
  if (!rule.from.includes(status)) {
    const allowed = rule.from.join(' or ');
    return { allowed: false, reason: `A ${status} prompt cannot be ${VERBS[action]}: only a ${allowed} prompt can` };
  }
  if ((action === 'demote' || action === 'archive') && inSplit) {
    return {
      allowed: false,
      reason: `A prompt in the endpoint's traffic split cannot be ${VERBS[action]}: remove it from trafficSplit first`,
    };
  }
  if (action === 'archive' && isDefault) {
    return { allowed: false, reason: "The endpoint's default prompt cannot be archived: set another default first" };
  }
  return { allowed: true, to: rule.to === 'same' ? status : rule.to, clearsDefault: action === 'demote' && isDefault };
}
