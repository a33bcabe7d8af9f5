// What a prompt's or an endpoint's history records. Pure: no I/O.

/** The kinds of change a history records; each value is the wire string. */
export const PROMPT_EVENT_TYPES = [
  'created',
  'saved',
  'promoted',
  'demoted',
  'default_set',
  'archived',
  'unarchived',
  'restored',
  'duplicated',
  'split_changed',
  'gate_forced',
] as const;

export type PromptEventType = (typeof PROMPT_EVENT_TYPES)[number];

/** What a reader of the event needs beyond its type, prompt and version (see each writer). A JSON object. */
export type PromptEventDetails = Record<string, unknown>;

/**
 * One change to record. `promptId` and `versionNumber` are null for a change of the endpoint itself (its split);
 * `keyId` is null when no key made it.
 */
export interface NewPromptEvent {
  type: PromptEventType;
  endpointId: string;
  promptId: string | null;
  versionNumber: number | null;
  keyId: string | null;
  details: PromptEventDetails;
}

/** Whose history is listed: one prompt's, or every event of an endpoint (its prompts' and its own). */
export type PromptEventScope = { promptId: string } | { endpointId: string };

/** An event as recorded, as the lists read it. */
export interface RecordedPromptEvent extends NewPromptEvent {
  createdAt: Date;
}
