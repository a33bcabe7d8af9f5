import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { bounds } from '../../api/bounds';
import { api, type Schemas, unwrap } from '../../api/client';
import { Button, Field, Problems } from '../../ui/controls';
import type { CreatedKey, EndpointChoice } from './keys-page';

type KeyType = Schemas['CreateKeyDto']['type'];
type Environment = NonNullable<Schemas['CreateKeyDto']['environment']>;
type Permission = NonNullable<Schemas['CreateKeyDto']['permission']>;

/** The defaults the API applies when a key sets no limit of its own. */
const LIMITS = [
  { name: 'rateLimitPerMinute', label: 'Requests per minute', fallback: 60 },
  { name: 'rateLimitPerHour', label: 'Requests per hour', fallback: 1000 },
  { name: 'rateLimitPerDay', label: 'Requests per day', fallback: 10000 },
] as const;
type LimitName = (typeof LIMITS)[number]['name'];

const LIMIT_BOUNDS = bounds.CreateKeyDto.rateLimitPerMinute;

interface Form {
  name: string;
  type: KeyType;
  environment: Environment;
  permission: Permission;
  restricted: boolean;
  endpointIds: string[];
  limits: Record<LimitName, string>;
}

const EMPTY: Form = {
  name: '',
  type: 'endpoint',
  environment: 'live',
  permission: 'ReadWrite',
  restricted: false,
  endpointIds: [],
  limits: { rateLimitPerMinute: '', rateLimitPerHour: '', rateLimitPerDay: '' },
};

/** Every option of a new key: name, type, then the permission (admin) or environment and endpoints (endpoint), and limits. */
export function CreateKeyDialog({
  open,
  endpoints,
  moreEndpoints,
  onCancel,
  onCreated,
}: {
  open: boolean;
  endpoints: EndpointChoice[];
  moreEndpoints: boolean;
  onCancel: () => void;
  onCreated: (key: CreatedKey) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [form, setForm] = useState<Form>(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [restrictionError, setRestrictionError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setForm(EMPTY);
      setError(null);
      setRestrictionError(null);
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  const update = (changes: Partial<Form>) => setForm((previous) => ({ ...previous, ...changes }));
  const limitError = (name: LimitName): string | null => {
    const text = form.limits[name].trim();
    if (text === '') return null;
    const value = Number(text);
    const { minimum, maximum } = LIMIT_BOUNDS;
    return Number.isInteger(value) && value >= minimum && value <= maximum
      ? null
      : `A whole number from ${minimum} to ${maximum.toLocaleString()}.`;
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (form.type === 'endpoint' && form.restricted && form.endpointIds.length === 0) {
      setRestrictionError('Pick at least one endpoint, or allow every endpoint.');
      return;
    }
    if (LIMITS.some((limit) => limitError(limit.name))) return;
    setRestrictionError(null);
    setBusy(true);
    setError(null);
    const limits: Partial<Record<LimitName, number>> = {};
    for (const { name } of LIMITS) if (form.limits[name].trim() !== '') limits[name] = Number(form.limits[name]);
    const body: Schemas['CreateKeyDto'] =
      form.type === 'admin'
        ? { name: form.name.trim(), type: 'admin', permission: form.permission, ...limits }
        : {
            name: form.name.trim(),
            type: 'endpoint',
            environment: form.environment,
            endpointIds: form.restricted ? form.endpointIds : null,
            ...limits,
          };
    try {
      onCreated(await unwrap(api.POST('/admin/v1/keys', { body })));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      className="dialog key-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => (event.preventDefault(), onCancel())}
    >
      <form onSubmit={submit} noValidate>
        <h2 id={titleId}>Create a key</h2>
        <Field label="Name" hint="What the key is for, e.g. “Checkout service (production)”.">
          {(id) => (
            <input
              id={id}
              value={form.name}
              onChange={(event) => update({ name: event.target.value })}
              maxLength={bounds.CreateKeyDto.name.maxLength}
              required
              autoComplete="off"
            />
          )}
        </Field>

        <fieldset>
          <legend>Type</legend>
          <label className="checkbox">
            <input
              type="radio"
              name="key-type"
              checked={form.type === 'endpoint'}
              onChange={() => update({ type: 'endpoint' })}
            />
            <span>Endpoint key: calls your endpoints</span>
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="key-type"
              checked={form.type === 'admin'}
              onChange={() => update({ type: 'admin' })}
            />
            <span>Admin key: manages endpoints, prompts and keys (this dashboard, the admin API)</span>
          </label>
        </fieldset>

        {form.type === 'admin' ? (
          <fieldset>
            <legend>Permission</legend>
            <label className="checkbox">
              <input
                type="radio"
                name="key-permission"
                checked={form.permission === 'ReadWrite'}
                onChange={() => update({ permission: 'ReadWrite' })}
              />
              <span>ReadWrite: can change everything</span>
            </label>
            <label className="checkbox">
              <input
                type="radio"
                name="key-permission"
                checked={form.permission === 'ReadOnly'}
                onChange={() => update({ permission: 'ReadOnly' })}
              />
              <span>ReadOnly: can look at everything, change nothing</span>
            </label>
          </fieldset>
        ) : (
          <>
            <fieldset>
              <legend>Environment</legend>
              <label className="checkbox">
                <input
                  type="radio"
                  name="key-environment"
                  checked={form.environment === 'live'}
                  onChange={() => update({ environment: 'live' })}
                />
                <span>
                  live (<code>ep_live_…</code>): for production
                </span>
              </label>
              <label className="checkbox">
                <input
                  type="radio"
                  name="key-environment"
                  checked={form.environment === 'test'}
                  onChange={() => update({ environment: 'test' })}
                />
                <span>
                  test (<code>ep_test_…</code>): for development and staging; the logs tell its calls apart
                </span>
              </label>
            </fieldset>
            <fieldset aria-describedby={restrictionError ? `${titleId}-restriction` : undefined}>
              <legend>Endpoints it may call</legend>
              <label className="checkbox">
                <input
                  type="radio"
                  name="key-scope"
                  checked={!form.restricted}
                  onChange={() => (setRestrictionError(null), update({ restricted: false }))}
                />
                <span>Every endpoint of the tenant, including ones created later</span>
              </label>
              <label className="checkbox">
                <input
                  type="radio"
                  name="key-scope"
                  checked={form.restricted}
                  onChange={() => update({ restricted: true })}
                />
                <span>Only the endpoints picked below</span>
              </label>
              {form.restricted &&
                (endpoints.length === 0 ? (
                  <p className="muted">This tenant has no endpoints yet.</p>
                ) : (
                  <ul className="endpoint-choices" aria-label="Endpoints">
                    {endpoints.map((endpoint) => (
                      <li key={endpoint.id}>
                        <label className="checkbox">
                          <input
                            type="checkbox"
                            checked={form.endpointIds.includes(endpoint.id)}
                            onChange={(event) => {
                              setRestrictionError(null);
                              update({
                                endpointIds: event.target.checked
                                  ? [...form.endpointIds, endpoint.id]
                                  : form.endpointIds.filter((id) => id !== endpoint.id),
                              });
                            }}
                          />
                          <span>
                            {endpoint.name} <code className="muted">{endpoint.path}</code>
                          </span>
                        </label>
                      </li>
                    ))}
                  </ul>
                ))}
              {form.restricted && moreEndpoints && (
                <p className="muted">Only the first {endpoints.length} endpoints are listed.</p>
              )}
              {restrictionError && (
                <p id={`${titleId}-restriction`} className="field-error" role="alert">
                  {restrictionError}
                </p>
              )}
            </fieldset>
          </>
        )}

        <fieldset>
          <legend>Rate limits (optional)</legend>
          <p className="hint muted">Leave a box empty for the default.</p>
          <div className="inline">
            {LIMITS.map((limit) => (
              <Field
                key={limit.name}
                label={limit.label}
                hint={`Default ${limit.fallback.toLocaleString()}`}
                error={limitError(limit.name)}
              >
                {(id) => (
                  <input
                    id={id}
                    type="number"
                    inputMode="numeric"
                    min={LIMIT_BOUNDS.minimum}
                    max={LIMIT_BOUNDS.maximum}
                    step={1}
                    className="limit-input"
                    value={form.limits[limit.name]}
                    placeholder={String(limit.fallback)}
                    onChange={(event) => update({ limits: { ...form.limits, [limit.name]: event.target.value } })}
                  />
                )}
              </Field>
            ))}
          </div>
        </fieldset>

        <Problems error={error} />
        <div className="dialog-actions">
          <Button onClick={onCancel}>Cancel</Button>
          <Button type="submit" kind="primary" disabled={busy || form.name.trim() === ''}>
            {busy ? 'Creating…' : 'Create key'}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
