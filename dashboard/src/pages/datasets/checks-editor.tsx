import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useWriteBlock } from '../../session';
import { Button, Field } from '../../ui/controls';
import { useAction } from '../../ui/use-action';
import { useLoad } from '../../ui/use-load';
import { FormProblems } from '../endpoints/endpoint-common';
import { ModelPicker } from '../prompts/model-picker';
import { messagesOf } from './api-messages';
import {
  CHECK_TYPES,
  checkBodyOf,
  type CheckDraft,
  checkDraftOf,
  type CheckParameter,
  checkProblemsOf,
  type Dataset,
  MAX_CHECKS,
} from './rules';

type Problems = Partial<Record<CheckParameter | 'check', string>>;

/**
 * The checks run on every item's output: added, changed and removed here, then saved together (they replace the
 * dataset's). What the service refuses of a check (a pattern that does not compile, a model not in the catalog) is
 * shown at that check's field.
 */
export function ChecksEditor({ dataset, onSaved }: { dataset: Dataset; onSaved: (saved: Dataset) => void }) {
  const blocked = useWriteBlock();
  const [drafts, setDrafts] = useState<CheckDraft[]>(() => dataset.checks.map(checkDraftOf));
  /** The fields changed since the last save, whose messages from it no longer apply. */
  const [touched, setTouched] = useState<Record<number, Partial<Record<keyof Problems, true>>>>({});
  const [changed, setChanged] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const saving = useAction();
  const others = saving.error ? checkProblemsOf(messagesOf(saving.error)).others : [];
  const hasJudge = drafts.some((draft) => draft.type === 'judge');
  const models = useLoad(
    () => (hasJudge ? unwrap(api.GET('/admin/v1/prompts/models')) : Promise.resolve([])),
    [hasJudge],
  );

  /** A change of the list's shape: the service's messages, by position, no longer match. */
  function reshape(next: CheckDraft[]) {
    setDrafts(next);
    setTouched({});
    saving.setError(null);
    setChanged(true);
    setNotice(null);
  }

  function change(index: number, parameter: CheckParameter, value: string | boolean) {
    setDrafts((previous) => previous.map((draft, at) => (at === index ? { ...draft, [parameter]: value } : draft)));
    const cleared: Partial<Record<keyof Problems, true>> =
      parameter === 'type' ? { type: true, check: true } : { [parameter]: true };
    setTouched((previous) => ({ ...previous, [index]: { ...previous[index], ...cleared } }));
    setChanged(true);
    setNotice(null);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    setTouched({});
    const saved = await saving.run(() =>
      unwrap(
        api.PUT('/admin/v1/datasets/{id}', {
          params: { path: { id: dataset.id } },
          body: { checks: drafts.map(checkBodyOf) },
        }),
      ),
    );
    if (!saved) return;
    setDrafts(saved.checks.map(checkDraftOf));
    setChanged(false);
    setNotice(`Saved ${saved.checks.length === 1 ? 'the check' : `${saved.checks.length} checks`}.`);
    onSaved(saved);
  }

  // The service's messages of the last save, put at their checks; a field changed since has its message cleared.
  const refused = saving.error ? checkProblemsOf(messagesOf(saving.error)).byCheck : {};
  const problemsOf = (index: number): Problems => {
    const all: Problems = { ...refused[index] };
    for (const key of Object.keys(touched[index] ?? {}) as (keyof Problems)[]) delete all[key];
    return all;
  };

  return (
    <section className="panel" aria-labelledby="checks-title">
      <h2 id="checks-title">Checks</h2>
      <p className="muted">
        Every item&apos;s output must pass all of these. An endpoint with output fields always checks that the output
        matches them.
      </p>
      <form className="checks-editor" aria-label="Checks" onSubmit={save} noValidate>
        {drafts.length === 0 && <p className="empty">No checks yet.</p>}
        {drafts.map((draft, index) => (
          <CheckFields
            key={draft.key}
            index={index}
            draft={draft}
            problems={problemsOf(index)}
            models={models.data ?? []}
            disabled={Boolean(blocked)}
            onChange={(parameter, value) => change(index, parameter, value)}
            onRemove={() => reshape(drafts.filter((_, at) => at !== index))}
          />
        ))}
        <FormProblems messages={others} />
        <p role="status" className={notice ? 'notice' : 'visually-hidden'}>
          {notice}
        </p>
        <div className="form-actions start">
          <Button
            blocked={blocked ?? (drafts.length >= MAX_CHECKS ? `A dataset has at most ${MAX_CHECKS} checks.` : null)}
            onClick={() => reshape([...drafts, checkDraftOf({ type: 'contains' })])}
          >
            Add check
          </Button>
          <Button type="submit" kind="primary" blocked={blocked} disabled={saving.busy || !changed}>
            {saving.busy ? 'Saving…' : 'Save checks'}
          </Button>
          {changed && (
            <Button onClick={() => (reshape(dataset.checks.map(checkDraftOf)), setChanged(false))}>
              Discard changes
            </Button>
          )}
        </div>
      </form>
    </section>
  );
}

function CheckFields({
  index,
  draft,
  problems,
  models,
  disabled,
  onChange,
  onRemove,
}: {
  index: number;
  draft: CheckDraft;
  problems: Problems;
  models: Parameters<typeof ModelPicker>[0]['models'];
  disabled: boolean;
  onChange: (parameter: CheckParameter, value: string | boolean) => void;
  onRemove: () => void;
}) {
  const type = CHECK_TYPES.find((option) => option.value === draft.type);
  const text = (parameter: CheckParameter, label: string, hint?: string, mono = false) => (
    <Field label={label} hint={hint} error={problems[parameter]}>
      {(id) => (
        <input
          id={id}
          className={mono ? 'mono' : undefined}
          value={String(draft[parameter as keyof CheckDraft])}
          onChange={(event) => onChange(parameter, event.target.value)}
          disabled={disabled}
          spellCheck={false}
          autoComplete="off"
        />
      )}
    </Field>
  );
  const number = (parameter: CheckParameter, label: string, hint: string, step: string) => (
    <Field label={label} hint={hint} error={problems[parameter]}>
      {(id) => (
        <input
          id={id}
          type="number"
          step={step}
          value={String(draft[parameter as keyof CheckDraft])}
          onChange={(event) => onChange(parameter, event.target.value)}
          disabled={disabled}
        />
      )}
    </Field>
  );
  return (
    <fieldset className="check" data-check={index + 1}>
      <legend>Check {index + 1}</legend>
      <div className="inline">
        <Field label="Type" hint={type?.hint} error={problems.type ?? problems.check}>
          {(id) => (
            <select
              id={id}
              value={draft.type}
              onChange={(event) => onChange('type', event.target.value)}
              disabled={disabled}
            >
              {CHECK_TYPES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {draft.type === 'field_equals' && text('path', 'Path', 'Dot-separated, such as answer.city', true)}
        {(draft.type === 'contains' || draft.type === 'not_contains') && (
          <>
            {text('value', 'Text', '1 to 1000 characters')}
            <label className="checkbox check-case">
              <input
                type="checkbox"
                checked={draft.caseSensitive}
                onChange={(event) => onChange('caseSensitive', event.target.checked)}
                disabled={disabled}
              />
              Case-sensitive
            </label>
          </>
        )}
        {draft.type === 'regex' &&
          text('pattern', 'Pattern', 'JavaScript syntax, Unicode mode, without the slashes', true)}
        {draft.type === 'max_latency_ms' && number('value', 'Milliseconds', 'A whole number from 1 to 600000', '1')}
        {draft.type === 'max_cost_usd' && number('value', 'US dollars', 'Above 0, at most 1000', 'any')}
        {draft.type === 'judge' && number('threshold', 'Threshold', 'The lowest passing score, from 0 to 1', '0.05')}
      </div>
      {draft.type === 'judge' && (
        <>
          <ModelPicker
            models={models}
            value={draft.llmModel}
            onChange={(model) => onChange('llmModel', model)}
            disabled={disabled}
            error={problems.llmModel}
          />
          <Field
            label="Rubric"
            hint="A Liquid template over inputs, output and expected: what the model scores the output on."
            error={problems.rubric}
          >
            {(id) => (
              <textarea
                id={id}
                className="mono"
                rows={4}
                value={draft.rubric}
                onChange={(event) => onChange('rubric', event.target.value)}
                disabled={disabled}
              />
            )}
          </Field>
        </>
      )}
      <div className="form-actions start">
        <Button onClick={onRemove} disabled={disabled}>
          Remove check {index + 1}
        </Button>
      </div>
    </fieldset>
  );
}
