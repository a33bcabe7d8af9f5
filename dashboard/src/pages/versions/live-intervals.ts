import type { PromptEvent } from './event-text';

// When a prompt served traffic, read from its endpoint's history. Pure: no I/O.

/** A time during which the prompt was Live with one version and one share of the endpoint's traffic. */
export interface LiveInterval {
  versionNumber: number;
  /**
   * The percentage of the endpoint's calls without `?prompt=` that it answered: its weight in the traffic split, 100
   * as the default without a split, 0 when neither (only calls that pin it with `?prompt=` reached it).
   */
  share: number;
  from: string;
  /** null while it still lasts. */
  to: string | null;
  /** The change that started it (its key made it). */
  startedBy: PromptEvent;
}

/** "50 % of traffic"; a share of 0 says how the prompt was reached at all. */
export function shareText(share: number): string {
  return share === 0 ? '0 % of traffic (only calls with ?prompt=)' : `${share} % of traffic`;
}

/** The event types that make a new prompt: its history starts with one of them. */
const CREATION_TYPES: ReadonlySet<PromptEvent['type']> = new Set(['created', 'duplicated', 'restored']);

/** Whether `event` made the prompt `promptId`: a history that holds it holds everything that happened to the prompt. */
export function isCreationOf(event: PromptEvent, promptId: string): boolean {
  return CREATION_TYPES.has(event.type) && sameId(event.promptId, promptId);
}

interface Split {
  variants: { promptId: string; weight: number }[];
}

/** What the walk knows of the prompt and its endpoint after each event. */
interface State {
  isLive: boolean;
  versionNumber: number;
  share: number;
  isDefault: boolean;
  /** The endpoint's split; null when it has none, undefined until an event says. */
  split: Split | null | undefined;
}

/**
 * The times the prompt `promptId` was Live, newest first, from its endpoint's events (which hold the prompt's own), as
 * the endpoint's event list gives them, newest first. A new interval starts whenever the prompt's Live version or its
 * share of the traffic changes, and names the change that started it: a promotion, a save of the Live prompt, a change
 * of the endpoint's default or of its split (one made on another prompt included). Demoting or archiving the prompt
 * ends the last one. Each event states the shares it leaves behind; an event recorded before it did is read from the
 * split and the default the walk has seen so far.
 */
export function liveIntervals(promptId: string, events: readonly PromptEvent[]): LiveInterval[] {
  // Oldest first; events of one instant keep the order the list gives them (reversed).
  const ordered = [...events].reverse().sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const state: State = { isLive: false, versionNumber: 0, share: 0, isDefault: false, split: undefined };
  const intervals: LiveInterval[] = [];
  for (const event of ordered) {
    apply(state, event, promptId);
    const last = intervals[intervals.length - 1];
    const open = last?.to === null ? last : undefined;
    const unchanged = open && state.isLive && open.versionNumber === state.versionNumber && open.share === state.share;
    if (unchanged) continue;
    if (open) {
      open.to = event.createdAt;
      // Changed again within the same instant: it never served anything.
      if (open.from === open.to) intervals.pop();
    }
    if (state.isLive) {
      intervals.push({
        versionNumber: state.versionNumber,
        share: state.share,
        from: event.createdAt,
        to: null,
        startedBy: event,
      });
    }
  }
  return intervals.reverse();
}

/** The state after `event`. */
function apply(state: State, event: PromptEvent, promptId: string): void {
  const details = event.details;
  const isOurs = sameId(event.promptId, promptId);
  switch (event.type) {
    case 'created':
    case 'duplicated':
    case 'restored':
    case 'unarchived':
    case 'demoted':
    case 'archived':
      // A Draft or Archived prompt answers nothing, and is never the default (demoting the default clears it).
      if (isOurs) Object.assign(state, { isLive: false, isDefault: false });
      return;
    case 'promoted':
      if (!isOurs) return;
      state.isLive = true;
      state.versionNumber = event.versionNumber ?? state.versionNumber;
      state.share = percent(details.trafficShare) ?? shareOf(state, promptId);
      return;
    case 'saved':
      if (!isOurs) return;
      state.versionNumber = event.versionNumber ?? state.versionNumber;
      // A Live prompt serves its latest version at once, to the share the save records.
      state.isLive = details.status === 'Live';
      if (state.isLive) state.share = percent(details.trafficShare) ?? state.share;
      return;
    case 'default_set':
      if (isOurs) {
        // Only a Live prompt can become the default.
        state.isLive = true;
        state.isDefault = true;
        state.versionNumber = event.versionNumber ?? state.versionNumber;
        state.share = percent(details.trafficShare) ?? shareOf(state, promptId);
      } else if (state.isDefault || sameId(details.previousDefaultPromptId, promptId)) {
        state.isDefault = false;
        const recorded = sameId(details.previousDefaultPromptId, promptId)
          ? percent(details.previousDefaultTrafficShare)
          : null;
        state.share = recorded ?? shareOf(state, promptId);
      }
      return;
    case 'split_changed':
      state.split = splitOf(details.trafficSplit);
      if ('defaultPromptId' in details) state.isDefault = sameId(details.defaultPromptId, promptId);
      state.share = shareOf(state, promptId);
      return;
    case 'gate_forced':
      return;
  }
}

/** The prompt's share as the endpoint's split and default give it (a split the walk has not seen lists it not). */
function shareOf(state: State, promptId: string): number {
  if (state.split) return state.split.variants.find((variant) => sameId(variant.promptId, promptId))?.weight ?? 0;
  return state.isDefault ? 100 : 0;
}

function percent(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

function splitOf(value: unknown): Split | null {
  if (typeof value !== 'object' || value === null) return null;
  const variants = (value as { variants?: unknown }).variants;
  if (!Array.isArray(variants)) return null;
  return {
    variants: variants.flatMap((variant: { promptId?: unknown; weight?: unknown }) =>
      typeof variant?.promptId === 'string' && typeof variant.weight === 'number'
        ? [{ promptId: variant.promptId, weight: variant.weight }]
        : [],
    ),
  };
}

function sameId(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}
