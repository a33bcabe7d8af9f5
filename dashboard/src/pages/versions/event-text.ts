import type { Schemas } from '../../api/client';

export type PromptEvent = Schemas['PromptEventResponse'];

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const count = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** What happened, in a few words: "Promoted v3", "Saved v4, live at once for 30 % of traffic". */
export function eventSummary(event: PromptEvent): string {
  const v = event.versionNumber === null ? '' : ` v${event.versionNumber}`;
  const details = event.details;
  switch (event.type) {
    case 'created':
      return `Created${v}`;
    case 'saved': {
      const share = count(details.trafficShare);
      return details.status === 'Live' ? `Saved${v}, live at once for ${share ?? 0} % of traffic` : `Saved${v}`;
    }
    case 'promoted': {
      const gate = details.gate as { forced?: boolean } | null | undefined;
      if (!gate) return `Promoted${v}`;
      return gate.forced ? `Promoted${v} past the promotion gate` : `Promoted${v} through the promotion gate`;
    }
    case 'gate_forced':
      return `Promotion gate forced for${v}: “${text(details.reason)}”`;
    case 'demoted':
      return details.wasDefault
        ? `Demoted${v} to Draft, leaving the endpoint without a default`
        : `Demoted${v} to Draft`;
    case 'default_set':
      return `Set${v} as the endpoint's default`;
    case 'archived':
      return `Archived${v}`;
    case 'unarchived':
      return `Unarchived${v} as a Draft`;
    case 'restored':
      return `Restored from ${text(details.sourceName)} v${count(details.sourceVersionNumber) ?? '?'}`;
    case 'duplicated':
      return `Duplicated from ${text(details.sourceName)} v${count(details.sourceVersionNumber) ?? '?'}`;
    case 'split_changed':
      return details.trafficSplit ? 'Traffic split changed' : 'Traffic split removed';
  }
}

/** Who made the change: the key by its name (its id when it has none now), or no key. */
export function eventActor(event: PromptEvent): string {
  if (event.keyName) return `by key ${event.keyName}`;
  return event.keyId ? `by key ${event.keyId.slice(0, 8)}…` : 'without a key';
}
