import type { Endpoint } from '../endpoints/endpoint-definition';
import { trafficShareOf } from '../endpoints/traffic-split';
import type { NewPromptEvent } from '../prompt-events/prompt-event';
import { changedSettings, type VersionContent } from '../versions/version-compare';
import type { VersionGate } from '../versions/version-gate';
import type { PromptStatus } from './executable-prompt';
import type { PromptAction } from './prompt-lifecycle';

// What a prompt's history records for a save and for a status transition. Pure: no I/O.

/**
 * The prompt a change concerns and its version, on its endpoint as it was before the change, and the key that made it
 * (null when none did).
 */
export interface ChangeSubject {
  endpoint: Pick<Endpoint, 'id' | 'defaultPromptId' | 'trafficSplit'>;
  promptId: string;
  versionNumber: number;
  keyId: string | null;
}

/**
 * The events of an allowed transition: `promoted` (with how the promotion gate was passed, null without a gate, and
 * the share of the traffic it answers at once), and `gate_forced` after it when the promotion was forced past the gate
 * (its reason and the run considered); `demoted` (whether it cleared the endpoint's default); `default_set` (the
 * default it replaced, the share of the traffic it now answers, and the share the replaced default still answers),
 * none when the prompt already was the default; `archived`; `unarchived`. Each share is of the calls without
 * `?prompt=`, right after the change, so that a reader can tell from the event alone what each prompt serves.
 */
export function transitionEvents(
  action: PromptAction,
  subject: ChangeSubject,
  outcome: { wasDefault: boolean; gate: VersionGate | null },
): NewPromptEvent[] {
  const { endpoint, promptId, versionNumber, keyId } = subject;
  const event = (type: NewPromptEvent['type'], details: NewPromptEvent['details']): NewPromptEvent => ({
    type,
    endpointId: endpoint.id,
    promptId,
    versionNumber,
    keyId,
    details,
  });
  switch (action) {
    case 'promote': {
      const { gate } = outcome;
      const promoted = event('promoted', {
        gate: gate && { forced: gate.forced, runId: gate.runId },
        trafficShare: trafficShareOf(endpoint.trafficSplit, endpoint.defaultPromptId, promptId),
      });
      return gate?.forced
        ? [promoted, event('gate_forced', { reason: gate.reason ?? '', runId: gate.runId })]
        : [promoted];
    }
    case 'demote':
      return [event('demoted', { wasDefault: outcome.wasDefault })];
    case 'setDefault':
      if (outcome.wasDefault) return [];
      return [
        event('default_set', {
          previousDefaultPromptId: endpoint.defaultPromptId,
          trafficShare: trafficShareOf(endpoint.trafficSplit, promptId, promptId),
          // The replaced default stays Live: it keeps its weight in a split, else only calls that pin it with ?prompt= reach it.
          previousDefaultTrafficShare:
            endpoint.defaultPromptId === null
              ? null
              : trafficShareOf(endpoint.trafficSplit, promptId, endpoint.defaultPromptId),
        }),
      ];
    case 'archive':
      return [event('archived', {})];
    case 'unarchive':
      return [event('unarchived', {})];
  }
}

/**
 * The event of a save that made version `versionNumber`: the version it follows, the prompt's status, the share of
 * the endpoint's traffic the new version answers at once (a Live prompt serves its latest version: its weight in the
 * split, or 100 as the default without a split; 0 for a prompt that is not Live), what changed (`template` and the
 * settings that differ) and the change note.
 */
export function savedEvent(
  subject: ChangeSubject,
  prompt: { status: PromptStatus; currentVersion: number },
  change: { before: VersionContent; after: VersionContent; changeNotes: string | null },
): NewPromptEvent {
  const { endpoint, promptId, versionNumber, keyId } = subject;
  const { before, after, changeNotes } = change;
  const settings = changedSettings(before, after).map((setting) => setting.setting);
  return {
    type: 'saved',
    endpointId: endpoint.id,
    promptId,
    versionNumber,
    keyId,
    details: {
      previousVersionNumber: prompt.currentVersion,
      status: prompt.status,
      trafficShare:
        prompt.status === 'Live' ? trafficShareOf(endpoint.trafficSplit, endpoint.defaultPromptId, promptId) : 0,
      changed: before.template !== after.template ? ['template', ...settings] : settings,
      changeNotes,
    },
  };
}
