import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { api, type Schemas, unwrap } from '../../api/client';
import { useWriteBlock } from '../../session';
import { Button, Field } from '../../ui/controls';
import { useAction } from '../../ui/use-action';
import {
  type Endpoint,
  ENDPOINT_LIMITS,
  FormProblems,
  PATH_PATTERN,
  PATH_RULE,
  problemsByField,
  slugOf,
  useCategories,
  type Visibility,
  VISIBILITY_HINT,
  VISIBILITY_LABEL,
} from './endpoint-common';

const FIELDS = [
  'name',
  'path',
  'description',
  'category',
  'visibility',
  'cacheEnabled',
  'cacheDurationSeconds',
  'rateLimitPerMinute',
  'rateLimitPerHour',
  'rateLimitPerDay',
  'timeoutSeconds',
] as const;
type FormField = (typeof FIELDS)[number];

/** The form's values as typed: numbers stay text until they are checked. */
interface Draft {
  name: string;
  path: string;
  description: string;
  category: string;
  visibility: Visibility;
  cacheEnabled: boolean;
  cacheDurationSeconds: string;
  rateLimitPerMinute: string;
  rateLimitPerHour: string;
  rateLimitPerDay: string;
  timeoutSeconds: string;
}

const text = (value: number | null) => (value === null ? '' : String(value));

function draftOf(endpoint?: Endpoint): Draft {
  return {
    name: endpoint?.name ?? '',
    path: endpoint?.path ?? '/api/v1/',
    description: endpoint?.description ?? '',
    category: endpoint?.category ?? '',
    visibility: endpoint?.visibility ?? 'Public',
    cacheEnabled: endpoint?.cacheEnabled ?? false,
    cacheDurationSeconds: String(endpoint?.cacheDurationSeconds ?? ENDPOINT_LIMITS.cacheDurationSeconds.default),
    rateLimitPerMinute: text(endpoint?.rateLimitPerMinute ?? null),
    rateLimitPerHour: text(endpoint?.rateLimitPerHour ?? null),
    rateLimitPerDay: text(endpoint?.rateLimitPerDay ?? null),
    timeoutSeconds: String(endpoint?.timeoutSeconds ?? ENDPOINT_LIMITS.timeoutSeconds.default),
  };
}

/** A whole number typed in a field, within bounds; the message shows beside the field, so it does not name it. */
function integerProblem(value: string, bounds: { min: number; max: number }, optional = false): string | undefined {
  const range = `from ${bounds.min.toLocaleString()} to ${bounds.max.toLocaleString()}`;
  if (value.trim() === '') return optional ? undefined : `Required: a whole number ${range}`;
  if (!/^-?\d+$/.test(value.trim())) return `Must be a whole number ${range}`;
  const number = Number(value);
  if (number < bounds.min || number > bounds.max) return `Must be ${range}`;
  return undefined;
}

function checkDraft(draft: Draft): Partial<Record<FormField, string>> {
  const problems: Partial<Record<FormField, string>> = {};
  if (draft.name.trim() === '') problems.name = 'Required: give the endpoint a name';
  else if (draft.name.length > ENDPOINT_LIMITS.name) problems.name = `At most ${ENDPOINT_LIMITS.name} characters`;
  if (!PATH_PATTERN.test(draft.path)) problems.path = PATH_RULE;
  else if (draft.path.length > ENDPOINT_LIMITS.path) problems.path = `At most ${ENDPOINT_LIMITS.path} characters`;
  if (draft.description.length > ENDPOINT_LIMITS.description)
    problems.description = `At most ${ENDPOINT_LIMITS.description} characters`;
  if (draft.category.length > ENDPOINT_LIMITS.category)
    problems.category = `At most ${ENDPOINT_LIMITS.category} characters`;
  problems.cacheDurationSeconds = integerProblem(draft.cacheDurationSeconds, ENDPOINT_LIMITS.cacheDurationSeconds);
  for (const limit of ['rateLimitPerMinute', 'rateLimitPerHour', 'rateLimitPerDay'] as const) {
    problems[limit] = integerProblem(draft[limit], ENDPOINT_LIMITS.rateLimit, true);
  }
  problems.timeoutSeconds = integerProblem(draft.timeoutSeconds, ENDPOINT_LIMITS.timeoutSeconds);
  for (const key of FIELDS) if (problems[key] === undefined) delete problems[key];
  return problems;
}

function bodyOf(draft: Draft): Schemas['CreateEndpointDto'] {
  const optional = (value: string) => (value.trim() === '' ? null : Number(value));
  return {
    name: draft.name.trim(),
    path: draft.path,
    description: draft.description,
    category: draft.category.trim() === '' ? null : draft.category.trim(),
    visibility: draft.visibility,
    cacheEnabled: draft.cacheEnabled,
    cacheDurationSeconds: Number(draft.cacheDurationSeconds),
    rateLimitPerMinute: optional(draft.rateLimitPerMinute),
    rateLimitPerHour: optional(draft.rateLimitPerHour),
    rateLimitPerDay: optional(draft.rateLimitPerDay),
    timeoutSeconds: Number(draft.timeoutSeconds),
  };
}

/**
 * Creates an endpoint (without `endpoint`) or changes one: every setting of the API with its bounds checked before
 * sending, and the API's own refusals shown beside the field they name.
 */
export function EndpointForm({
  endpoint,
  onSaved,
  onCancel,
}: {
  endpoint?: Endpoint;
  onSaved: (endpoint: Endpoint) => void;
  onCancel?: () => void;
}) {
  const blocked = useWriteBlock();
  const categories = useCategories();
  const [draft, setDraft] = useState<Draft>(() => draftOf(endpoint));
  // A new endpoint's path follows its name until the path is edited by hand.
  const [pathFollowsName, setPathFollowsName] = useState(!endpoint);
  const [shown, setShown] = useState<Partial<Record<FormField, string>>>({});
  const save = useAction();
  const categoryListId = useId();
  const server = problemsByField(save.error, FIELDS, 'path');
  const problem = (field: FormField) => shown[field] ?? server.byField[field] ?? null;

  const change = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((previous) => {
      const next = { ...previous, [key]: value };
      if (key === 'name' && pathFollowsName) next.path = `/api/v1/${slugOf(String(value))}`;
      return next;
    });
    if (shown[key]) setShown(({ [key]: _dropped, ...rest }) => rest);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const problems = checkDraft(draft);
    setShown(problems);
    save.setError(null);
    if (Object.keys(problems).length > 0) {
      focusFirstProblem(form);
      return;
    }
    const body = bodyOf(draft);
    const saved = await save.run(() =>
      endpoint
        ? unwrap(api.PUT('/admin/v1/endpoints/{id}', { params: { path: { id: endpoint.id } }, body }))
        : unwrap(api.POST('/admin/v1/endpoints', { body })),
    );
    if (saved) onSaved(saved);
    else focusFirstProblem(form);
  }

  const numberInput = (
    field: FormField & keyof Draft,
    id: string,
    bounds: { min: number; max: number },
    placeholder?: string,
  ) => (
    <input
      id={id}
      type="number"
      inputMode="numeric"
      min={bounds.min}
      max={bounds.max}
      step={1}
      placeholder={placeholder}
      value={String(draft[field])}
      aria-invalid={problem(field) ? true : undefined}
      onChange={(event) => change(field, event.target.value)}
    />
  );

  return (
    <form
      className="endpoint-form"
      onSubmit={submit}
      noValidate
      aria-label={endpoint ? `Edit ${endpoint.name}` : 'New endpoint'}
    >
      <fieldset>
        <legend>What it is</legend>
        <Field
          label="Name"
          hint={`Shown in the dashboard; up to ${ENDPOINT_LIMITS.name} characters.`}
          error={problem('name')}
        >
          {(id) => (
            <input
              id={id}
              value={draft.name}
              maxLength={ENDPOINT_LIMITS.name}
              required
              autoComplete="off"
              aria-invalid={problem('name') ? true : undefined}
              onChange={(event) => change('name', event.target.value)}
            />
          )}
        </Field>
        <Field
          label="Path"
          hint={
            <>
              Applications call <code>POST {draft.path || '/api/v1/…'}</code>. Lower-case letters, digits,{' '}
              <code>-</code>, <code>_</code> and <code>/</code> after <code>/api/v1/</code>
              {pathFollowsName ? '; it follows the name until you edit it.' : '.'}
            </>
          }
          error={problem('path')}
        >
          {(id) => (
            <input
              id={id}
              className="mono"
              value={draft.path}
              maxLength={ENDPOINT_LIMITS.path}
              required
              spellCheck={false}
              autoComplete="off"
              aria-invalid={problem('path') ? true : undefined}
              onChange={(event) => {
                setPathFollowsName(false);
                change('path', event.target.value);
              }}
            />
          )}
        </Field>
        <Field
          label="Description"
          hint="Optional: what the endpoint does, for the people who call it."
          error={problem('description')}
        >
          {(id) => (
            <textarea
              id={id}
              className="prose"
              rows={3}
              value={draft.description}
              maxLength={ENDPOINT_LIMITS.description}
              aria-invalid={problem('description') ? true : undefined}
              onChange={(event) => change('description', event.target.value)}
            />
          )}
        </Field>
        <Field
          label="Category"
          hint={
            categories.length > 0
              ? 'Pick one of your categories, or type a new one. Empty for none.'
              : 'Type a category to group endpoints by; empty for none.'
          }
          error={problem('category')}
        >
          {(id) => (
            <>
              <input
                id={id}
                list={categoryListId}
                value={draft.category}
                maxLength={ENDPOINT_LIMITS.category}
                autoComplete="off"
                aria-invalid={problem('category') ? true : undefined}
                onChange={(event) => change('category', event.target.value)}
              />
              <datalist id={categoryListId}>
                {categories.map((category) => (
                  <option key={category} value={category} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <fieldset
          className="radio-group"
          aria-describedby={problem('visibility') ? `${categoryListId}-visibility-error` : undefined}
        >
          <legend>Visibility</legend>
          {(['Public', 'Private'] as const).map((visibility) => (
            <label key={visibility} className="radio">
              <input
                type="radio"
                name={`${categoryListId}-visibility`}
                value={visibility}
                checked={draft.visibility === visibility}
                onChange={() => change('visibility', visibility)}
              />
              <span>
                <strong>{VISIBILITY_LABEL[visibility]}</strong>{' '}
                <span className="muted">— {VISIBILITY_HINT[visibility]}</span>
              </span>
            </label>
          ))}
          {problem('visibility') && (
            <small id={`${categoryListId}-visibility-error`} className="field-error" role="alert">
              {problem('visibility')}
            </small>
          )}
        </fieldset>
      </fieldset>

      <fieldset>
        <legend>Cache</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.cacheEnabled}
            onChange={(event) => change('cacheEnabled', event.target.checked)}
          />
          Answer identical requests from the cache
        </label>
        <Field
          label="Cache duration (seconds)"
          hint={`How long a cached answer is served: ${ENDPOINT_LIMITS.cacheDurationSeconds.min} to ${ENDPOINT_LIMITS.cacheDurationSeconds.max.toLocaleString()} seconds (30 days).${draft.cacheEnabled ? '' : ' Used once the cache is on.'}`}
          error={problem('cacheDurationSeconds')}
        >
          {(id) => numberInput('cacheDurationSeconds', id, ENDPOINT_LIMITS.cacheDurationSeconds)}
        </Field>
      </fieldset>

      <fieldset>
        <legend>Limits</legend>
        <p className="muted fieldset-hint">
          Requests each key may make to this endpoint; empty for no limit of the endpoint (the key's own limits still
          apply).
        </p>
        <div className="inline">
          <Field label="Per minute" error={problem('rateLimitPerMinute')}>
            {(id) => numberInput('rateLimitPerMinute', id, ENDPOINT_LIMITS.rateLimit, 'No limit')}
          </Field>
          <Field label="Per hour" error={problem('rateLimitPerHour')}>
            {(id) => numberInput('rateLimitPerHour', id, ENDPOINT_LIMITS.rateLimit, 'No limit')}
          </Field>
          <Field label="Per day" error={problem('rateLimitPerDay')}>
            {(id) => numberInput('rateLimitPerDay', id, ENDPOINT_LIMITS.rateLimit, 'No limit')}
          </Field>
        </div>
        <Field
          label="Timeout (seconds)"
          hint={`The longest the whole model call may take: ${ENDPOINT_LIMITS.timeoutSeconds.min} to ${ENDPOINT_LIMITS.timeoutSeconds.max} seconds.`}
          error={problem('timeoutSeconds')}
        >
          {(id) => numberInput('timeoutSeconds', id, ENDPOINT_LIMITS.timeoutSeconds)}
        </Field>
      </fieldset>

      <FormProblems messages={server.others} />
      <FormActions>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
        <Button type="submit" kind="primary" blocked={blocked} disabled={save.busy}>
          {save.busy ? 'Saving…' : endpoint ? 'Save changes' : 'Create endpoint'}
        </Button>
      </FormActions>
    </form>
  );
}

function FormActions({ children }: { children: ReactNode }) {
  return <div className="form-actions">{children}</div>;
}

/** Moves focus to the first field marked invalid, once React has marked it. */
export function focusFirstProblem(form: HTMLFormElement): void {
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
