import type { PromptStatus } from './executable-prompt';
import { decideTransition, PromptAction } from './prompt-lifecycle';

describe('decideTransition', () => {
  const statuses: PromptStatus[] = ['Draft', 'Live', 'Archived'];
  const expected: Record<PromptAction, Partial<Record<PromptStatus, PromptStatus>>> = {
    promote: { Draft: 'Live' },
    demote: { Live: 'Draft' },
    archive: { Draft: 'Archived', Live: 'Archived' },
    unarchive: { Archived: 'Draft' },
    setDefault: { Live: 'Live' },
  };

  // Each refusal names the current status, the action and the status (or statuses) the action needs.
  const refusals: Record<PromptAction, string> = {
    promote: 'cannot be promoted: only a Draft prompt can',
    demote: 'cannot be demoted: only a Live prompt can',
    archive: 'cannot be archived: only a Draft or Live prompt can',
    unarchive: 'cannot be unarchived: only a Archived prompt can',
    setDefault: 'cannot be set as default: only a Live prompt can',
  };

  for (const [action, allowed] of Object.entries(expected) as [
    PromptAction,
    Partial<Record<PromptStatus, PromptStatus>>,
  ][]) {
    for (const status of statuses) {
      const to = allowed[status];
      it(`${action} from ${status} is ${to ? `allowed (to ${to})` : 'refused'}`, () => {
        const decision = decideTransition(action, status, false);
        if (to) expect(decision).toEqual({ allowed: true, to, clearsDefault: false });
        else expect(decision).toEqual({ allowed: false, reason: `A ${status} prompt ${refusals[action]}` });
      });
    }
  }

  it('refuses to archive the default prompt', () => {
    expect(decideTransition('archive', 'Live', true)).toEqual({
      allowed: false,
      reason: "The endpoint's default prompt cannot be archived: set another default first",
    });
  });

  it('refuses a transition from the wrong status first, whether or not the prompt is the default', () => {
    expect(decideTransition('archive', 'Archived', true)).toEqual({
      allowed: false,
      reason: `A Archived prompt ${refusals.archive}`,
    });
    expect(decideTransition('promote', 'Live', true)).toEqual({
      allowed: false,
      reason: `A Live prompt ${refusals.promote}`,
    });
  });

  it('the default flag matters only to archive and demote', () => {
    expect(decideTransition('promote', 'Draft', true)).toEqual({ allowed: true, to: 'Live', clearsDefault: false });
    expect(decideTransition('unarchive', 'Archived', true)).toEqual({
      allowed: true,
      to: 'Draft',
      clearsDefault: false,
    });
  });

  it('demoting the default clears it; demoting another prompt does not', () => {
    expect(decideTransition('demote', 'Live', true)).toEqual({ allowed: true, to: 'Draft', clearsDefault: true });
    expect(decideTransition('demote', 'Live', false)).toEqual({ allowed: true, to: 'Draft', clearsDefault: false });
  });

  it('setting the current default again is allowed and keeps it Live', () => {
    expect(decideTransition('setDefault', 'Live', true)).toEqual({ allowed: true, to: 'Live', clearsDefault: false });
  });

  it('refuses to demote or archive a prompt the traffic split lists, and allows the other actions', () => {
    for (const action of ['demote', 'archive'] as const) {
      expect(decideTransition(action, 'Live', false, true)).toEqual({
        allowed: false,
        reason: `A prompt in the endpoint's traffic split cannot be ${action}d: remove it from trafficSplit first`,
      });
    }
    expect(decideTransition('setDefault', 'Live', false, true)).toEqual({
      allowed: true,
      to: 'Live',
      clearsDefault: false,
    });
  });
});
