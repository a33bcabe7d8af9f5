import { ApiAnyJson, ApiEnum, ApiInteger, ApiUuid } from '../../../common/http/api-schema.decorators';
import { MAX_INTEGER } from '../../../common/http/integer-bounds';
import { PROMPT_EVENT_TYPES, type PromptEventType, type RecordedPromptEvent } from '../../prompt-events/prompt-event';
import { EVENT_PAGE_SIZE, EVENT_TOTAL_CAP } from '../../prompt-events/prompt-events.service';

/** One change in a prompt's or an endpoint's history. */
export class PromptEventResponse {
  /**
   * `created`, `saved` (a new version), `promoted`, `demoted`, `default_set`, `archived`, `unarchived`, `restored`
   * (a new prompt from a version of another), `duplicated`, `split_changed` (the endpoint's traffic split) or
   * `gate_forced` (a promotion forced past the endpoint's promotion gate).
   */
  @ApiEnum('PromptEventType', PROMPT_EVENT_TYPES)
  type: PromptEventType;
  /** The prompt changed; null for a change of the endpoint itself (split_changed). */
  @ApiUuid()
  promptId: string | null;
  /** The prompt's version the change concerns (the new one for saved); null for split_changed. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  versionNumber: number | null;
  /** The key that made the change; null when none did (the command line). */
  @ApiUuid()
  keyId: string | null;
  /** That key's name as it is now; null when no key made the change or the key is gone. */
  keyName: string | null;
  createdAt: Date;
  /**
   * What the change was, by type. created: `{name}`; saved: `{previousVersionNumber, status, trafficShare, changed,
   * changeNotes}` (trafficShare: the percentage of the endpoint's calls without `?prompt=` the new version answers at
   * once, 0 unless the prompt is Live; changed: `template` and the settings that differ); promoted: `{gate,
   * trafficShare}` (gate: `{forced, runId}`, null without a gate); gate_forced: `{reason, runId}`; demoted:
   * `{wasDefault}`; default_set: `{previousDefaultPromptId, trafficShare, previousDefaultTrafficShare}` (the share the
   * replaced default answers after the change, null without one); duplicated and restored: `{name, sourcePromptId,
   * sourceName, sourceVersionNumber}`; split_changed: `{trafficSplit, previous, defaultPromptId}` (the splits are null
   * when there is none; defaultPromptId: the endpoint's default, which answers every call without a split); archived
   * and unarchived: `{}`.
   */
  @ApiAnyJson()
  details: Record<string, unknown>;
}

/** A page of events, newest first, with the meta of execution log pages. */
export class PromptEventPageResponse {
  items: PromptEventResponse[];
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  page: number;
  @ApiInteger({ minimum: 1, maximum: EVENT_PAGE_SIZE.max })
  pageSize: number;
  /** Events in the list, counted up to 10,000 (see totalIsExact). */
  @ApiInteger({ minimum: 0, maximum: EVENT_TOTAL_CAP })
  total: number;
  /** false when there are more than 10,000: `total` is then 10,000, a lower bound. */
  totalIsExact: boolean;
}

export function toPromptEventResponse(event: RecordedPromptEvent, keyName: string | null): PromptEventResponse {
  return {
    type: event.type,
    promptId: event.promptId,
    versionNumber: event.versionNumber,
    keyId: event.keyId,
    keyName,
    createdAt: event.createdAt,
    details: event.details,
  };
}
