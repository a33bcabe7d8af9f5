import { type FormEvent, useId, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { Button, Field } from '../../../ui/controls';
import { useLoad } from '../../../ui/use-load';
import { keptDraftOf } from '../../prompts/kept-draft';
import type { Prompt } from '../test-run';
import { type ColumnChoice, type ColumnKind, type GridColumn, hasColumn } from './grid-model';

const KINDS: { kind: ColumnKind; label: string }[] = [
  { kind: 'draft', label: 'Unsaved draft' },
  { kind: 'version', label: 'A saved version' },
  { kind: 'prompt', label: 'Another prompt (its current version)' },
];

/**
 * Chooses a column: what of a prompt runs (its unsaved draft, a saved version, or its current version) and which
 * prompt. An archived prompt runs only as an unsaved draft: its saved versions must be unarchived first.
 */
export function AddColumnForm({
  prompts,
  columns,
  preferredPromptId,
  fullReason,
  onAdd,
}: {
  prompts: Prompt[];
  columns: GridColumn[];
  preferredPromptId: string | null;
  fullReason: string | null;
  onAdd: (choice: ColumnChoice) => void;
}) {
  const titleId = useId();
  const [kind, setKind] = useState<ColumnKind>('draft');
  const [promptId, setPromptId] = useState(() =>
    prompts.some((prompt) => prompt.id === preferredPromptId) ? (preferredPromptId as string) : '',
  );
  const [versionNumber, setVersionNumber] = useState<number | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const runnable = (prompt: Prompt) => kind === 'draft' || prompt.status !== 'Archived';
  const chosen =
    prompts.find((prompt) => prompt.id === promptId && runnable(prompt)) ??
    prompts.find((prompt) => prompt.isDefault && runnable(prompt)) ??
    prompts.find(runnable);
  const versions = useLoad(
    () =>
      kind === 'version' && chosen
        ? unwrap(api.GET('/admin/v1/prompts/{id}/versions', { params: { path: { id: chosen.id } } }))
        : Promise.resolve([]),
    [kind, chosen?.id],
  );
  const version = versionNumber ?? chosen?.currentVersion ?? null;
  const versionNumbers =
    versions.data && versions.data.length > 0
      ? versions.data.map((one) => one.versionNumber)
      : version !== null
        ? [version]
        : [];
  const kept = kind === 'draft' && chosen ? keptDraftOf(chosen.id) : null;

  function add(event: FormEvent) {
    event.preventDefault();
    if (fullReason || !chosen) return;
    const choice: ColumnChoice =
      kind === 'version'
        ? { kind, promptId: chosen.id, version: version ?? chosen.currentVersion }
        : { kind, promptId: chosen.id };
    if (hasColumn(columns, choice)) {
      setSaid(null);
      return setProblem('This column is in the grid already.');
    }
    setProblem(null);
    onAdd(choice);
    setSaid('Column added.');
  }

  return (
    <form className="grid-column-form" aria-labelledby={titleId} onSubmit={add} noValidate>
      <h3 id={titleId}>Add a column</h3>
      {fullReason && (
        <p className="notice" role="note">
          {fullReason}
        </p>
      )}
      <Field label="Runs" error={problem}>
        {(id) => (
          <select
            id={id}
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as ColumnKind);
              setProblem(null);
              setSaid(null);
            }}
          >
            {KINDS.map((one) => (
              <option key={one.kind} value={one.kind}>
                {one.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Prompt">
        {(id) => (
          <select
            id={id}
            value={chosen?.id ?? ''}
            onChange={(event) => {
              setPromptId(event.target.value);
              setVersionNumber(null);
              setProblem(null);
              setSaid(null);
            }}
          >
            {prompts.map((prompt) => (
              <option key={prompt.id} value={prompt.id} disabled={!runnable(prompt)}>
                {promptOption(prompt, kind)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {kind === 'version' && (
        <Field label="Version">
          {(id) => (
            <select
              id={id}
              value={version ?? ''}
              onChange={(event) => {
                setVersionNumber(Number(event.target.value));
                setProblem(null);
              }}
            >
              {versionNumbers.map((number) => (
                <option key={number} value={number}>
                  Version {number}
                  {number === chosen?.currentVersion ? ' (current)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {kind === 'draft' && chosen && (
        <p className="muted fine-print">
          {kept
            ? `Runs the changes to ${chosen.name} kept in this browser (made on version ${kept.baseVersion}), as they stand when the grid runs, without saving them.`
            : `No unsaved changes to ${chosen.name} are kept in this browser: its saved text (version ${chosen.currentVersion}) runs, as unsaved text.`}
        </p>
      )}
      <Button type="submit" blocked={fullReason} disabled={!chosen}>
        Add column
      </Button>
      <p role="status" className={said ? 'grid-said' : 'visually-hidden'}>
        {said}
      </p>
    </form>
  );
}

function promptOption(prompt: Prompt, kind: ColumnKind): string {
  const state = `${prompt.status}${prompt.isDefault ? ', default' : ''}, v${prompt.currentVersion}`;
  const draft = kind === 'draft' && keptDraftOf(prompt.id) ? ', unsaved changes kept' : '';
  const archived = kind !== 'draft' && prompt.status === 'Archived' ? ' (unarchive it to run it)' : '';
  return `${prompt.name} — ${state}${draft}${archived}`;
}
