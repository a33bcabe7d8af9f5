import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Button, Field, Problems } from '../../ui/controls';
import { useAction } from '../../ui/use-action';
import {
  checkDraft,
  DATA_TYPES,
  type DraftField,
  type DraftProblems,
  draftOf,
  MAX_CATEGORIES,
  MAX_DESCRIPTION_LENGTH,
  type ScoreConfig,
  SCORE_NAME_RULE,
  type ScoreConfigDraft,
} from './rules';

/**
 * Creates a score config, or edits `config`. The draft is checked before it is sent; what only the service knows (a
 * name taken, a config that scores already use) comes back as its message.
 */
export function ScoreConfigForm({
  config,
  onSaved,
  onCancel,
}: {
  config?: ScoreConfig;
  onSaved: (saved: ScoreConfig) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<ScoreConfigDraft>(() => draftOf(config));
  const [problems, setProblems] = useState<DraftProblems>({});
  const saving = useAction();
  const change = (field: DraftField, value: string) => {
    setDraft((previous) => ({ ...previous, [field]: value }));
    setProblems((previous) => ({ ...previous, [field]: undefined }));
  };
  const type = DATA_TYPES.find((option) => option.value === draft.dataType);

  async function save(event: FormEvent) {
    event.preventDefault();
    const checked = checkDraft(draft);
    if ('problems' in checked) return setProblems(checked.problems);
    const saved = await saving.run(() =>
      config
        ? unwrap(api.PUT('/admin/v1/score-configs/{id}', { params: { path: { id: config.id } }, body: checked.body }))
        : unwrap(api.POST('/admin/v1/score-configs', { body: checked.body })),
    );
    if (saved) onSaved(saved);
  }

  const title = config ? `Edit the score config ${config.name}` : 'New score config';
  return (
    <form className="panel score-config-form" aria-label={title} onSubmit={save} noValidate>
      <h2>{title}</h2>
      <div className="inline">
        <Field label="Name" hint={SCORE_NAME_RULE} error={problems.name}>
          {(id) => (
            <input
              id={id}
              className="mono"
              value={draft.name}
              onChange={(event) => change('name', event.target.value)}
              spellCheck={false}
              autoComplete="off"
              required
            />
          )}
        </Field>
        <Field label="Data type" hint={type?.hint}>
          {(id) => (
            <select id={id} value={draft.dataType} onChange={(event) => change('dataType', event.target.value)}>
              {DATA_TYPES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {draft.dataType === 'numeric' && (
          <>
            <Field label="Minimum" error={problems.minimum}>
              {(id) => (
                <input
                  id={id}
                  type="number"
                  step="any"
                  value={draft.minimum}
                  onChange={(event) => change('minimum', event.target.value)}
                  required
                />
              )}
            </Field>
            <Field label="Maximum" error={problems.maximum}>
              {(id) => (
                <input
                  id={id}
                  type="number"
                  step="any"
                  value={draft.maximum}
                  onChange={(event) => change('maximum', event.target.value)}
                  required
                />
              )}
            </Field>
          </>
        )}
      </div>
      {draft.dataType === 'categorical' && (
        <Field label="Categories" hint={`One per line, 2 to ${MAX_CATEGORIES}`} error={problems.categories}>
          {(id) => (
            <textarea
              id={id}
              rows={5}
              value={draft.categories}
              onChange={(event) => change('categories', event.target.value)}
              required
            />
          )}
        </Field>
      )}
      <Field
        label="Description"
        hint={`Optional, at most ${MAX_DESCRIPTION_LENGTH} characters`}
        error={problems.description}
      >
        {(id) => (
          <textarea
            id={id}
            rows={2}
            value={draft.description}
            onChange={(event) => change('description', event.target.value)}
          />
        )}
      </Field>
      <Problems error={saving.error} />
      <div className="form-actions">
        <Button type="submit" kind="primary" disabled={saving.busy}>
          {config ? 'Save changes' : 'Create score config'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
