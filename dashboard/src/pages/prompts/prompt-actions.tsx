import { useState } from 'react';
import { api, ApiError, unwrap } from '../../api/client';
import { navigate } from '../../router';
import { Button, Problems } from '../../ui/controls';
import { GateRefusal, GateState, type PromotionGate } from '../eval-runs/promotion-gate';
import type { Prompt } from './prompt-draft';

type Transition = 'promote' | 'demote' | 'set-default' | 'archive' | 'unarchive';

const DONE: Record<Transition | 'force', string> = {
  promote: 'Promoted: the prompt is Live.',
  force: 'Promoted past the promotion gate: the prompt is Live, and its version records why.',
  demote: 'Demoted: the prompt is a Draft again.',
  'set-default': "This prompt is now the endpoint's default.",
  archive: 'Archived: the prompt is hidden from lists and cannot run through the API.',
  unarchive: 'Unarchived: the prompt is a Draft again.',
};

function transition(action: Transition, id: string, reason?: string) {
  const params = { params: { path: { id } } };
  switch (action) {
    case 'promote':
      return api.POST('/admin/v1/prompts/{id}/promote', reason ? { ...params, body: { force: true, reason } } : params);
    case 'demote':
      return api.POST('/admin/v1/prompts/{id}/demote', params);
    case 'set-default':
      return api.POST('/admin/v1/prompts/{id}/set-default', params);
    case 'archive':
      return api.POST('/admin/v1/prompts/{id}/archive', params);
    case 'unarchive':
      return api.POST('/admin/v1/prompts/{id}/unarchive', params);
  }
}

/**
 * The lifecycle actions that apply to the prompt's status: promote (Draft), demote (Live), set default (Live, not the
 * default already), archive (Draft or Live, not the default), unarchive (Archived), duplicate. An action the rules
 * refuse in advance is shown disabled with the reason; a refusal of the service (409) shows its message. Under the
 * endpoint's promotion gate, Promote says what the gate asks; when the gate refuses, its reasons are listed with a
 * promotion past it that records a reason.
 */
export function PromptActions({
  prompt,
  writeBlock,
  onChanged,
  gate = null,
}: {
  prompt: Prompt;
  writeBlock: string | null;
  onChanged: (prompt: Prompt) => void;
  /** The endpoint's promotion gate; null when it has none. */
  gate?: PromotionGate | null;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string[] | null>(null);

  /** Runs `action`; `forceReason` promotes past the promotion gate with that reason. */
  async function act(action: Transition, forceReason?: string) {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      onChanged(await unwrap(transition(action, prompt.id, forceReason)));
      setRefusal(null);
      setDone(DONE[forceReason ? 'force' : action]);
    } catch (failure) {
      // A Draft's promotion refused under a gate is the gate's refusal: its reasons, and the way past it.
      if (action === 'promote' && gate && failure instanceof ApiError && failure.status === 409)
        setRefusal(failure.messages);
      else setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function duplicate() {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const copy = await unwrap(api.POST('/admin/v1/prompts/{id}/duplicate', { params: { path: { id: prompt.id } } }));
      navigate(`/endpoints/${copy.endpointId}/prompts/${copy.id}`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const { status, isDefault } = prompt;
  const blocked = (reason: string | null) => writeBlock ?? reason;
  return (
    <div className="prompt-actions">
      <div className="actions" role="group" aria-label="Lifecycle">
        {status === 'Draft' && (
          <Button kind="primary" blocked={blocked(null)} disabled={busy} onClick={() => act('promote')}>
            Promote to Live
          </Button>
        )}
        {status !== 'Archived' && !isDefault && (
          <Button
            blocked={blocked(status === 'Live' ? null : 'Only a Live prompt can be the default: promote it first.')}
            disabled={busy}
            onClick={() => act('set-default')}
          >
            Set as default
          </Button>
        )}
        {status === 'Live' && (
          <Button
            blocked={blocked(null)}
            disabled={busy}
            title={isDefault ? 'Demoting the default leaves the endpoint without a default prompt.' : undefined}
            onClick={() => act('demote')}
          >
            Demote to Draft
          </Button>
        )}
        {status !== 'Archived' && (
          <Button
            kind="danger"
            blocked={blocked(
              isDefault ? "The endpoint's default prompt cannot be archived: set another default first." : null,
            )}
            disabled={busy}
            onClick={() => act('archive')}
          >
            Archive
          </Button>
        )}
        {status === 'Archived' && (
          <Button blocked={blocked(null)} disabled={busy} onClick={() => act('unarchive')}>
            Unarchive
          </Button>
        )}
        <Button blocked={blocked(null)} disabled={busy} onClick={duplicate}>
          Duplicate
        </Button>
      </div>
      {writeBlock ? (
        <p className="muted fine-print">{writeBlock}</p>
      ) : (
        <ul className="action-reasons muted fine-print">
          {status === 'Draft' && <li>Set as default: only a Live prompt can be the default, so promote it first.</li>}
          {status !== 'Archived' && isDefault && (
            <li>Archive: the endpoint's default prompt cannot be archived; set another default first.</li>
          )}
          {status === 'Live' && isDefault && (
            <li>Demote: demoting the default leaves the endpoint without a default prompt.</li>
          )}
        </ul>
      )}
      {status === 'Draft' && gate && (
        <GateState
          gate={gate}
          endpointId={prompt.endpointId}
          promptId={prompt.id}
          versionNumber={prompt.currentVersion}
        />
      )}
      {status === 'Draft' && refusal && (
        <GateRefusal
          reasons={refusal}
          writeBlock={writeBlock}
          busy={busy}
          onForce={(reason) => act('promote', reason)}
        />
      )}
      <p role="status" className="action-done">
        {done}
      </p>
      <Problems error={error} />
    </div>
  );
}
