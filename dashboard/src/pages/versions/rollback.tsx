import { useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { Button, ConfirmDialog, Problems } from '../../ui/controls';
import type { Prompt } from './version-shared';

/** What a rollback did: the prompt it made, and how far it went (a refused promotion stops it at the Draft). */
export interface RolledBack {
  restored: Prompt;
  versionNumber: number;
  promoted: boolean;
  madeDefault: boolean;
  failure: unknown;
}

/**
 * "Roll back to vN" from the prompt's history: restores version N as a new Draft prompt (the prompt and its history
 * stay as they are) and, when the prompt is Live, offers to promote the new one, and when it is the endpoint's default,
 * to make the new one the default in its place. A confirmation says what will happen; the result stays on the page.
 * Disabled with the reason for a ReadOnly key.
 */
export function RollbackButton({
  prompt,
  versionNumber,
  writeBlock,
  onDone,
}: {
  prompt: Prompt;
  versionNumber: number;
  writeBlock: string | null;
  onDone: (result: RolledBack) => void;
}) {
  const [open, setOpen] = useState(false);
  const [promote, setPromote] = useState(true);
  const [makeDefault, setMakeDefault] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const live = prompt.status === 'Live';
  const willPromote = live && promote;
  const willSetDefault = willPromote && prompt.isDefault && makeDefault;

  async function rollBack() {
    setBusy(true);
    setError(null);
    let restored: Prompt;
    try {
      restored = await unwrap(
        api.POST('/admin/v1/prompts/{id}/versions/{versionNumber}/restore', {
          params: { path: { id: prompt.id, versionNumber } },
        }),
      );
    } catch (failure) {
      // Nothing was made: the dialog stays open with the reason.
      setError(failure);
      setBusy(false);
      return;
    }
    const result: RolledBack = { restored, versionNumber, promoted: false, madeDefault: false, failure: null };
    const path = { params: { path: { id: restored.id } } };
    try {
      if (willPromote) {
        result.restored = await unwrap(api.POST('/admin/v1/prompts/{id}/promote', path));
        result.promoted = true;
      }
      if (willSetDefault) {
        result.restored = await unwrap(api.POST('/admin/v1/prompts/{id}/set-default', path));
        result.madeDefault = true;
      }
    } catch (failure) {
      result.failure = failure;
    }
    setBusy(false);
    setOpen(false);
    onDone(result);
  }

  return (
    <>
      <Button
        blocked={writeBlock}
        onClick={() => {
          setError(null);
          setPromote(true);
          setMakeDefault(true);
          setOpen(true);
        }}
      >
        Roll back to v{versionNumber}
      </Button>
      {/* Mounted while open only: a history lists many events, each with its own. */}
      {open && (
        <ConfirmDialog
          open
          title={`Roll back ${prompt.name} to version ${versionNumber}?`}
          actionLabel={busy ? 'Rolling back…' : 'Roll back'}
          busy={busy}
          error={error}
          onCancel={() => setOpen(false)}
          onConfirm={rollBack}
        >
          <p>
            A new prompt, <strong>{`${prompt.name} (v${versionNumber})`}</strong>, is made from version {versionNumber}
            's template, model and settings. {prompt.name} and its history stay as they are.
          </p>
          {live && (
            <label className="checkbox">
              <input type="checkbox" checked={promote} onChange={(event) => setPromote(event.target.checked)} />
              Promote the new prompt to Live
            </label>
          )}
          {live && prompt.isDefault && (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={willPromote && makeDefault}
                disabled={!willPromote}
                onChange={(event) => setMakeDefault(event.target.checked)}
              />
              Make it the endpoint's default in place of {prompt.name}
            </label>
          )}
          <p className="rollback-outcome">
            {willSetDefault
              ? `Calls without ?prompt= are then answered by version ${versionNumber}'s content at once (unless a traffic split shares them); ${prompt.name} stays Live, no longer the default.`
              : willPromote
                ? `The new prompt is Live, callable with ?prompt=; the endpoint's default does not change.`
                : `The new prompt stays a Draft: nothing that callers get changes until it is promoted.`}
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** The result of a rollback, announced: what the new prompt is now, and a link to it. */
export function RollbackResult({ result, endpointId }: { result: RolledBack; endpointId: string }) {
  const { restored } = result;
  const state = result.madeDefault ? "Live and the endpoint's default" : result.promoted ? 'Live' : 'a Draft';
  return (
    <div className="rollback-result">
      <p role="status">
        Rolled back: <Link href={`/endpoints/${endpointId}/prompts/${restored.id}`}>{restored.name}</Link> holds version{' '}
        {result.versionNumber}'s content and is {state}.
      </p>
      <Problems error={result.failure} />
    </div>
  );
}
