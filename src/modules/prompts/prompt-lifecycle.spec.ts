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

  for (const [action, allowed] of Object.entries(expected) as [PromptAction, Partial<Record<PromptStatus, PromptStatus>>][]) {
    for (const status of statuses) {
      const to = allowed[status];
      it(`${action} from ${status} is ${to ? `allowed (to ${to})` : 'refused'}`, () => {
        const decision = decideTransition(action, status, false);
        if (to) expect(decision).toEqual({ allowed: true, to, clearsDefault: false });
        else expect(decision).toEqual({ allowed: false, reason: expect.stringContaining(`A ${status} prompt cannot be`) });
      });
    }
  }

  it('refuses to archive the default prompt', () => {
    expect(decideTransition('archive', 'Live', true)).toEqual({ allowed: false, reason: expect.stringContaining('default') });
  });

  it('demoting the default clears it; demoting another prompt does not', () => {
    expect(decideTransition('demote', 'Live', true)).toEqual({ allowed: true, to: 'Draft', clearsDefault: true });
    expect(decideTransition('demote', 'Live', false)).toEqual({ allowed: true, to: 'Draft', clearsDefault: false });
  });

  it('setting the current default again is allowed and keeps it Live', () => {
    expect(decideTransition('setDefault', 'Live', true)).toEqual({ allowed: true, to: 'Live', clearsDefault: false });
  });
});
