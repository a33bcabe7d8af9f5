import { type FormEvent, type ReactNode, useState } from 'react';
import { bounds } from '../../api/bounds';
import { api, type Schemas, unwrap } from '../../api/client';
import { useWriteBlock } from '../../session';
import { Button, ConfirmDialog, Field } from '../../ui/controls';
import {
  type Endpoint,
  FormProblems,
  type InputField,
  type OutputField,
  problemsByField,
  useAction,
} from './endpoint-common';
import { focusFirstProblem } from './endpoint-form';

type InputDataType = InputField['dataType'];
type OutputDataType = OutputField['dataType'];

/** The bounds the API puts on fields. */
const MAX_INTEGER = 2_147_483_647;
const MIN_INTEGER = -MAX_INTEGER - 1;
const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME_RULE = 'Letters, digits and _ only, not starting with a digit';
const LIMITS = {
  name: bounds.CreateInputFieldDto.name.maxLength,
  description: bounds.CreateInputFieldDto.description.maxLength,
  exampleValue: bounds.CreateOutputFieldDto.exampleValue.maxLength,
} as const;

/** Each data type: its name in the type picker, in the tables, and what it takes. */
const INPUT_TYPES: { value: InputDataType; label: string; short: string; hint: string }[] = [
  { value: 'string', label: 'Text (string)', short: 'Text', hint: 'Any text; a maximum length may bound it.' },
  {
    value: 'integer',
    label: 'Integer (whole number)',
    short: 'Integer',
    hint: 'A whole number such as 3; it may have a minimum and a maximum.',
  },
  {
    value: 'number',
    label: 'Number',
    short: 'Number',
    hint: 'Any number such as 0.5; it may have a minimum and a maximum.',
  },
  { value: 'boolean', label: 'Yes / no (boolean)', short: 'Yes / no', hint: 'true or false.' },
  {
    value: 'image',
    label: 'Image',
    short: 'Image',
    hint: 'A data URI (data:image/png;base64,…) of a PNG, JPEG, WebP or GIF image, sent to the model as an image.',
  },
  { value: 'object', label: 'JSON object', short: 'JSON object', hint: 'Any JSON object, such as {"tone": "formal"}.' },
  { value: 'array', label: 'JSON array', short: 'JSON array', hint: 'Any JSON array, such as ["a", "b"].' },
];
const OUTPUT_TYPES: { value: OutputDataType; label: string; short: string; hint: string }[] = [
  { value: 'string', label: 'Text (string)', short: 'Text', hint: 'The model answers a text for it.' },
  { value: 'integer', label: 'Integer (whole number)', short: 'Integer', hint: 'The model answers a whole number.' },
  { value: 'number', label: 'Number', short: 'Number', hint: 'The model answers a number.' },
  { value: 'boolean', label: 'Yes / no (boolean)', short: 'Yes / no', hint: 'The model answers true or false.' },
  { value: 'object', label: 'JSON object', short: 'JSON object', hint: 'The model answers a JSON object.' },
  { value: 'array', label: 'JSON array', short: 'JSON array', hint: 'The model answers a JSON array.' },
  {
    value: 'image',
    label: 'Image',
    short: 'Image',
    hint: 'Makes the endpoint generate images; the example holds the default generation settings.',
  },
];
const typeLabel = (value: string) =>
  [...INPUT_TYPES, ...OUTPUT_TYPES].find((type) => type.value === value)?.short ?? value;

const isNumeric = (type: InputDataType) => type === 'integer' || type === 'number';

/** A field's rules in words: "at most 500 characters", "from 1 to 10". */
function rulesOf(field: InputField): string {
  const rules: string[] = [];
  if (field.maxLength !== null) rules.push(`at most ${field.maxLength.toLocaleString()} characters`);
  if (field.minimum !== null && field.maximum !== null) rules.push(`from ${field.minimum} to ${field.maximum}`);
  else if (field.minimum !== null) rules.push(`at least ${field.minimum}`);
  else if (field.maximum !== null) rules.push(`at most ${field.maximum}`);
  return rules.join('; ');
}

/** A default value as JSON, so a text shows its quotes and a number does not. */
const showValue = (value: unknown): string => JSON.stringify(value);

/** The endpoint's input fields: the JSON body its callers send, each field added, changed and removed here. */
export function InputFieldsSection({ endpoint, onChanged }: { endpoint: Endpoint; onChanged: () => void }) {
  const blocked = useWriteBlock();
  const [editing, setEditing] = useState<InputField | 'new' | null>(null);
  const [removing, setRemoving] = useState<InputField | null>(null);
  const remove = useAction();

  async function confirmRemove() {
    if (!removing) return;
    const done = await remove.run(() =>
      unwrap(
        api.DELETE('/admin/v1/endpoints/{id}/input-fields/{fieldId}', {
          params: { path: { id: endpoint.id, fieldId: removing.id } },
        }),
      ),
    );
    if (done !== undefined) {
      setRemoving(null);
      onChanged();
    }
  }

  return (
    <section className="panel" aria-labelledby="input-fields-title">
      <SectionHeader id="input-fields-title" title="Input fields">
        <Button blocked={blocked} onClick={() => setEditing('new')} disabled={editing === 'new'}>
          Add input field
        </Button>
      </SectionHeader>
      <p className="muted">
        What callers send as the JSON body; prompts read each one as <code>{'{{ inputs.<name> }}'}</code>. Fields not
        listed here are ignored.
      </p>
      {endpoint.inputFields.length === 0 ? (
        <p className="empty">No input fields yet: add the first one, such as a text to summarize.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Input fields</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Rules</th>
                <th scope="col">Default</th>
                <th scope="col">Description</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoint.inputFields.map((field) => (
                <tr key={field.id}>
                  <th scope="row">
                    <code>{field.name}</code>{' '}
                    {field.isRequired ? (
                      <span className="badge required">Required</span>
                    ) : (
                      <span className="muted small">optional</span>
                    )}
                  </th>
                  <td>{typeLabel(field.dataType)}</td>
                  <td>{rulesOf(field) || <span className="muted">—</span>}</td>
                  <td>
                    {field.defaultValue === null || field.defaultValue === undefined ? (
                      <span className="muted">—</span>
                    ) : (
                      <code>{showValue(field.defaultValue)}</code>
                    )}
                  </td>
                  <td>{field.description || <span className="muted">—</span>}</td>
                  <td className="row-actions">
                    <Button
                      onClick={() => setEditing(field)}
                      aria-label={`Edit input field ${field.name}`}
                      blocked={blocked}
                    >
                      Edit
                    </Button>
                    <Button
                      kind="danger"
                      onClick={() => setRemoving(field)}
                      aria-label={`Delete input field ${field.name}`}
                      blocked={blocked}
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <InputFieldForm
          key={editing === 'new' ? 'new' : editing.id}
          endpointId={endpoint.id}
          field={editing === 'new' ? undefined : editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) onChanged();
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Delete input field ${removing?.name ?? ''}?`}
        actionLabel="Delete field"
        busy={remove.busy}
        error={remove.error}
        onConfirm={confirmRemove}
        onCancel={() => (setRemoving(null), remove.setError(null))}
      >
        <p>
          Callers that still send <code>{removing?.name}</code> are not refused: the value is ignored, and prompts
          reading <code>inputs.{removing?.name}</code> get nothing.
        </p>
      </ConfirmDialog>
    </section>
  );
}

/** The endpoint's output fields: the JSON object the model is asked to answer. */
export function OutputFieldsSection({ endpoint, onChanged }: { endpoint: Endpoint; onChanged: () => void }) {
  const blocked = useWriteBlock();
  const [editing, setEditing] = useState<OutputField | 'new' | null>(null);
  const [removing, setRemoving] = useState<OutputField | null>(null);
  const remove = useAction();

  async function confirmRemove() {
    if (!removing) return;
    const done = await remove.run(() =>
      unwrap(
        api.DELETE('/admin/v1/endpoints/{id}/output-fields/{fieldId}', {
          params: { path: { id: endpoint.id, fieldId: removing.id } },
        }),
      ),
    );
    if (done !== undefined) {
      setRemoving(null);
      onChanged();
    }
  }

  return (
    <section className="panel" aria-labelledby="output-fields-title">
      <SectionHeader id="output-fields-title" title="Output fields">
        <Button blocked={blocked} onClick={() => setEditing('new')} disabled={editing === 'new'}>
          Add output field
        </Button>
      </SectionHeader>
      <p className="muted">
        With output fields, the model is asked for a JSON object with exactly these fields, and callers get that object.
        Without any, callers get the model's answer as it is.
      </p>
      {endpoint.outputFields.length === 0 ? (
        <p className="empty">No output fields: callers get the model's raw answer.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Output fields</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Description</th>
                <th scope="col">Example</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoint.outputFields.map((field) => (
                <tr key={field.id}>
                  <th scope="row">
                    <code>{field.name}</code>
                  </th>
                  <td>{typeLabel(field.dataType)}</td>
                  <td>{field.description || <span className="muted">—</span>}</td>
                  <td>
                    {field.exampleValue ? (
                      <code className="clamp">{field.exampleValue}</code>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td className="row-actions">
                    <Button
                      onClick={() => setEditing(field)}
                      aria-label={`Edit output field ${field.name}`}
                      blocked={blocked}
                    >
                      Edit
                    </Button>
                    <Button
                      kind="danger"
                      onClick={() => setRemoving(field)}
                      aria-label={`Delete output field ${field.name}`}
                      blocked={blocked}
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <OutputFieldForm
          key={editing === 'new' ? 'new' : editing.id}
          endpointId={endpoint.id}
          field={editing === 'new' ? undefined : editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) onChanged();
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Delete output field ${removing?.name ?? ''}?`}
        actionLabel="Delete field"
        busy={remove.busy}
        error={remove.error}
        onConfirm={confirmRemove}
        onCancel={() => (setRemoving(null), remove.setError(null))}
      >
        <p>
          Answers will no longer hold <code>{removing?.name}</code>.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function SectionHeader({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <div className="section-header">
      <h2 id={id}>{title}</h2>
      <div className="actions">{children}</div>
    </div>
  );
}

const INPUT_FORM_FIELDS = [
  'name',
  'dataType',
  'isRequired',
  'description',
  'maxLength',
  'minimum',
  'maximum',
  'defaultValue',
] as const;
type InputFormField = (typeof INPUT_FORM_FIELDS)[number];

interface InputDraft {
  name: string;
  dataType: InputDataType;
  isRequired: boolean;
  description: string;
  maxLength: string;
  minimum: string;
  maximum: string;
  /** As typed: text, a number, `true`/`false`, or JSON for objects and arrays; empty for none. */
  defaultValue: string;
}

function inputDraftOf(field?: InputField): InputDraft {
  const value = field?.defaultValue;
  return {
    name: field?.name ?? '',
    dataType: field?.dataType ?? 'string',
    isRequired: field?.isRequired ?? false,
    description: field?.description ?? '',
    maxLength: field?.maxLength == null ? '' : String(field.maxLength),
    minimum: field?.minimum == null ? '' : String(field.minimum),
    maximum: field?.maximum == null ? '' : String(field.maximum),
    defaultValue:
      value === null || value === undefined
        ? ''
        : typeof value === 'string'
          ? value
          : typeof value === 'object'
            ? JSON.stringify(value, null, 2)
            : JSON.stringify(value),
  };
}

/** The checked values of an input field draft, or the problems that keep it from being sent. */
function checkInputDraft(draft: InputDraft): {
  problems: Partial<Record<InputFormField, string>>;
  body?: Schemas['CreateInputFieldDto'];
} {
  const problems: Partial<Record<InputFormField, string>> = {};
  const type = draft.dataType;
  const name = draft.name.trim();
  if (name === '') problems.name = 'Required: the key callers send';
  else if (name.length > LIMITS.name) problems.name = `At most ${LIMITS.name} characters`;
  else if (!FIELD_NAME_PATTERN.test(name)) problems.name = NAME_RULE;
  if (draft.description.length > LIMITS.description) problems.description = `At most ${LIMITS.description} characters`;

  let maxLength: number | null = null;
  if (type === 'string' && draft.maxLength.trim() !== '') {
    maxLength = Number(draft.maxLength);
    if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > MAX_INTEGER) {
      problems.maxLength = `Must be a whole number from 1 to ${MAX_INTEGER.toLocaleString()}`;
    }
  }
  const bound = (key: 'minimum' | 'maximum'): number | null => {
    const typed = draft[key].trim();
    if (!isNumeric(type) || typed === '') return null;
    const value = Number(typed);
    if (!Number.isFinite(value)) problems[key] = 'Must be a number';
    else if (type === 'integer' && !Number.isInteger(value)) problems[key] = 'Must be a whole number';
    else if (type === 'integer' && (value < MIN_INTEGER || value > MAX_INTEGER)) {
      problems[key] = `Must be from ${MIN_INTEGER.toLocaleString()} to ${MAX_INTEGER.toLocaleString()}`;
    }
    return value;
  };
  const minimum = bound('minimum');
  const maximum = bound('maximum');
  if (minimum !== null && maximum !== null && !problems.minimum && !problems.maximum && minimum > maximum) {
    problems.maximum = 'Must not be less than the minimum';
  }

  let defaultValue: unknown = null;
  const typed = draft.defaultValue;
  if (type !== 'image' && typed.trim() !== '') {
    switch (type) {
      case 'string':
        defaultValue = typed;
        if (maxLength !== null && typed.length > maxLength)
          problems.defaultValue = `At most ${maxLength} characters (the maximum length)`;
        break;
      case 'integer':
      case 'number': {
        const value = Number(typed);
        defaultValue = value;
        if (!Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value))) {
          problems.defaultValue = `Must be ${type === 'integer' ? 'a whole number' : 'a number'}`;
        } else if ((minimum !== null && value < minimum) || (maximum !== null && value > maximum)) {
          problems.defaultValue = `Must be between ${minimum ?? '-∞'} and ${maximum ?? '∞'} (the minimum and maximum)`;
        }
        break;
      }
      case 'boolean':
        defaultValue = typed === 'true';
        break;
      case 'object':
      case 'array':
        try {
          defaultValue = JSON.parse(typed);
          const isArray = Array.isArray(defaultValue);
          if (typeof defaultValue !== 'object' || defaultValue === null || isArray !== (type === 'array')) {
            problems.defaultValue = `Must be a JSON ${type}`;
          }
        } catch {
          problems.defaultValue = `Must be valid JSON: ${type === 'array' ? '[…]' : '{…}'}`;
        }
        break;
    }
  }
  if (Object.keys(problems).length > 0) return { problems };
  return {
    problems,
    body: {
      name,
      dataType: type,
      isRequired: draft.isRequired,
      description: draft.description,
      maxLength,
      minimum,
      maximum,
      defaultValue,
    },
  };
}

/** Adds an input field (without `field`) or changes one; the options shown follow the data type. */
function InputFieldForm({
  endpointId,
  field,
  onDone,
}: {
  endpointId: string;
  field?: InputField;
  onDone: (saved: boolean) => void;
}) {
  const blocked = useWriteBlock();
  const [draft, setDraft] = useState<InputDraft>(() => inputDraftOf(field));
  const [shown, setShown] = useState<Partial<Record<InputFormField, string>>>({});
  const save = useAction();
  const server = problemsByField(save.error, INPUT_FORM_FIELDS, 'name');
  const problem = (key: InputFormField) => shown[key] ?? server.byField[key] ?? null;
  const change = <K extends keyof InputDraft>(key: K, value: InputDraft[K]) => {
    setDraft((previous) => ({
      ...previous,
      [key]: value,
      ...(key === 'dataType' && previous.dataType !== value ? { defaultValue: '' } : {}),
    }));
    if (shown[key]) setShown(({ [key]: _dropped, ...rest }) => rest);
  };
  const type = draft.dataType;
  const title = field ? `Edit input field ${field.name}` : 'New input field';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const { problems, body } = checkInputDraft(draft);
    setShown(problems);
    save.setError(null);
    if (!body) return focusFirstProblem(form);
    const saved = await save.run(() =>
      field
        ? unwrap(
            api.PUT('/admin/v1/endpoints/{id}/input-fields/{fieldId}', {
              params: { path: { id: endpointId, fieldId: field.id } },
              body,
            }),
          )
        : unwrap(api.POST('/admin/v1/endpoints/{id}/input-fields', { params: { path: { id: endpointId } }, body })),
    );
    if (saved) onDone(true);
    else focusFirstProblem(form);
  }

  return (
    <form className="field-form" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      <div className="inline">
        <Field label="Name" hint="Letters, digits and _, not starting with a digit." error={problem('name')}>
          {(id) => (
            <input
              id={id}
              className="mono"
              value={draft.name}
              maxLength={LIMITS.name}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={problem('name') ? true : undefined}
              onChange={(event) => change('name', event.target.value)}
            />
          )}
        </Field>
        <Field label="Data type" error={problem('dataType')}>
          {(id) => (
            <select
              id={id}
              value={type}
              onChange={(event) =>
                change('dataType', INPUT_TYPES.find((option) => option.value === event.target.value)?.value ?? 'string')
              }
            >
              {INPUT_TYPES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="checkbox field-checkbox">
          <input
            type="checkbox"
            checked={draft.isRequired}
            onChange={(event) => change('isRequired', event.target.checked)}
          />
          Required
        </label>
      </div>
      <p className="muted type-hint">{INPUT_TYPES.find((option) => option.value === type)?.hint}</p>
      {type === 'string' && (
        <Field
          label="Maximum length"
          hint="The longest text accepted, in characters; empty for no limit."
          error={problem('maxLength')}
        >
          {(id) => (
            <input
              id={id}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_INTEGER}
              step={1}
              value={draft.maxLength}
              aria-invalid={problem('maxLength') ? true : undefined}
              onChange={(event) => change('maxLength', event.target.value)}
            />
          )}
        </Field>
      )}
      {isNumeric(type) && (
        <div className="inline">
          {(['minimum', 'maximum'] as const).map((key) => (
            <Field
              key={key}
              label={key === 'minimum' ? 'Minimum' : 'Maximum'}
              hint="Empty for no bound."
              error={problem(key)}
            >
              {(id) => (
                <input
                  id={id}
                  type="number"
                  inputMode={type === 'integer' ? 'numeric' : 'decimal'}
                  step={type === 'integer' ? 1 : 'any'}
                  value={draft[key]}
                  aria-invalid={problem(key) ? true : undefined}
                  onChange={(event) => change(key, event.target.value)}
                />
              )}
            </Field>
          ))}
        </div>
      )}
      {type === 'image' ? (
        <p className="muted">Image fields take no default value.</p>
      ) : (
        <Field
          label="Default value"
          hint={`Used when a request leaves the field out; empty for none.${type === 'object' || type === 'array' ? ' JSON.' : ''}`}
          error={problem('defaultValue')}
        >
          {(id) =>
            type === 'boolean' ? (
              <select
                id={id}
                value={draft.defaultValue}
                onChange={(event) => change('defaultValue', event.target.value)}
              >
                <option value="">No default</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : type === 'object' || type === 'array' ? (
              <textarea
                id={id}
                rows={3}
                spellCheck={false}
                value={draft.defaultValue}
                placeholder={type === 'object' ? '{"tone": "formal"}' : '["a", "b"]'}
                aria-invalid={problem('defaultValue') ? true : undefined}
                onChange={(event) => change('defaultValue', event.target.value)}
              />
            ) : (
              <input
                id={id}
                type={isNumeric(type) ? 'number' : 'text'}
                inputMode={type === 'integer' ? 'numeric' : type === 'number' ? 'decimal' : undefined}
                step={type === 'integer' ? 1 : isNumeric(type) ? 'any' : undefined}
                min={isNumeric(type) && draft.minimum !== '' ? draft.minimum : undefined}
                max={isNumeric(type) && draft.maximum !== '' ? draft.maximum : undefined}
                maxLength={
                  type === 'string' && draft.maxLength !== '' ? Number(draft.maxLength) || undefined : undefined
                }
                value={draft.defaultValue}
                aria-invalid={problem('defaultValue') ? true : undefined}
                onChange={(event) => change('defaultValue', event.target.value)}
              />
            )
          }
        </Field>
      )}
      <Field
        label="Description"
        hint="For the people who call the endpoint: what to send."
        error={problem('description')}
      >
        {(id) => (
          <textarea
            id={id}
            className="prose"
            rows={2}
            maxLength={LIMITS.description}
            value={draft.description}
            aria-invalid={problem('description') ? true : undefined}
            onChange={(event) => change('description', event.target.value)}
          />
        )}
      </Field>
      <FormProblems messages={server.others} />
      <div className="form-actions">
        <Button onClick={() => onDone(false)}>Cancel</Button>
        <Button type="submit" kind="primary" blocked={blocked} disabled={save.busy}>
          {save.busy ? 'Saving…' : field ? 'Save field' : 'Add field'}
        </Button>
      </div>
    </form>
  );
}

const OUTPUT_FORM_FIELDS = ['name', 'dataType', 'description', 'exampleValue'] as const;
type OutputFormField = (typeof OUTPUT_FORM_FIELDS)[number];

/** Adds an output field (without `field`) or changes one. */
function OutputFieldForm({
  endpointId,
  field,
  onDone,
}: {
  endpointId: string;
  field?: OutputField;
  onDone: (saved: boolean) => void;
}) {
  const blocked = useWriteBlock();
  const [name, setName] = useState(field?.name ?? '');
  const [dataType, setDataType] = useState<OutputDataType>(field?.dataType ?? 'string');
  const [description, setDescription] = useState(field?.description ?? '');
  const [exampleValue, setExampleValue] = useState(field?.exampleValue ?? '');
  const [shown, setShown] = useState<Partial<Record<OutputFormField, string>>>({});
  const save = useAction();
  const server = problemsByField(save.error, OUTPUT_FORM_FIELDS, 'name');
  const problem = (key: OutputFormField) => shown[key] ?? server.byField[key] ?? null;
  const title = field ? `Edit output field ${field.name}` : 'New output field';

  function check(): Partial<Record<OutputFormField, string>> {
    const problems: Partial<Record<OutputFormField, string>> = {};
    const trimmed = name.trim();
    if (trimmed === '') problems.name = 'Required: the key in the answer';
    else if (trimmed.length > LIMITS.name) problems.name = `At most ${LIMITS.name} characters`;
    else if (!FIELD_NAME_PATTERN.test(trimmed)) problems.name = NAME_RULE;
    if (description.length > LIMITS.description) problems.description = `At most ${LIMITS.description} characters`;
    if (exampleValue.length > LIMITS.exampleValue)
      problems.exampleValue = `At most ${LIMITS.exampleValue.toLocaleString()} characters`;
    else if (dataType === 'image' && exampleValue.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(exampleValue);
      } catch {
        parsed = undefined;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        problems.exampleValue = 'Must be a JSON object such as {"size": "1024x1024", "quality": "high"}';
      }
    }
    return problems;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const problems = check();
    setShown(problems);
    save.setError(null);
    if (Object.keys(problems).length > 0) return focusFirstProblem(form);
    const body: Schemas['CreateOutputFieldDto'] = {
      name: name.trim(),
      dataType,
      description,
      exampleValue: exampleValue.trim() === '' ? null : exampleValue,
    };
    const saved = await save.run(() =>
      field
        ? unwrap(
            api.PUT('/admin/v1/endpoints/{id}/output-fields/{fieldId}', {
              params: { path: { id: endpointId, fieldId: field.id } },
              body,
            }),
          )
        : unwrap(api.POST('/admin/v1/endpoints/{id}/output-fields', { params: { path: { id: endpointId } }, body })),
    );
    if (saved) onDone(true);
    else focusFirstProblem(form);
  }

  return (
    <form className="field-form" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      <div className="inline">
        <Field label="Name" hint="Letters, digits and _, not starting with a digit." error={problem('name')}>
          {(id) => (
            <input
              id={id}
              className="mono"
              value={name}
              maxLength={LIMITS.name}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={problem('name') ? true : undefined}
              onChange={(event) => (setName(event.target.value), setShown(({ name: _dropped, ...rest }) => rest))}
            />
          )}
        </Field>
        <Field label="Data type" error={problem('dataType')}>
          {(id) => (
            <select
              id={id}
              value={dataType}
              onChange={(event) =>
                setDataType(OUTPUT_TYPES.find((option) => option.value === event.target.value)?.value ?? 'string')
              }
            >
              {OUTPUT_TYPES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <p className="muted type-hint">{OUTPUT_TYPES.find((option) => option.value === dataType)?.hint}</p>
      <Field label="Description" hint="Tells the model what to put in this field." error={problem('description')}>
        {(id) => (
          <textarea
            id={id}
            className="prose"
            rows={2}
            maxLength={LIMITS.description}
            value={description}
            aria-invalid={problem('description') ? true : undefined}
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </Field>
      <Field
        label={dataType === 'image' ? 'Default generation settings (JSON)' : 'Example'}
        hint={
          dataType === 'image'
            ? 'A JSON object such as {"size": "1024x1024", "quality": "high"}; a prompt\'s custom parameters override it key by key. Empty for none.'
            : 'An example value, for the people who read the endpoint. Optional.'
        }
        error={problem('exampleValue')}
      >
        {(id) => (
          <textarea
            id={id}
            rows={2}
            spellCheck={false}
            maxLength={LIMITS.exampleValue}
            value={exampleValue}
            aria-invalid={problem('exampleValue') ? true : undefined}
            onChange={(event) => (
              setExampleValue(event.target.value),
              setShown(({ exampleValue: _dropped, ...rest }) => rest)
            )}
          />
        )}
      </Field>
      <FormProblems messages={server.others} />
      <div className="form-actions">
        <Button onClick={() => onDone(false)}>Cancel</Button>
        <Button type="submit" kind="primary" blocked={blocked} disabled={save.busy}>
          {save.busy ? 'Saving…' : field ? 'Save field' : 'Add field'}
        </Button>
      </div>
    </form>
  );
}
