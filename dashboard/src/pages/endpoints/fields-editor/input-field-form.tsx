import { api, unwrap } from '../../../api/client';
import { Field } from '../../../ui/controls';
import { FieldFormEnd, NameAndType, useFieldForm } from './field-form';
import {
  changeInputDraft,
  checkInputDraft,
  dataTypeOf,
  FIELD_LIMITS,
  INPUT_FORM_FIELDS,
  INPUT_TYPES,
  inputDraftOf,
  type InputField,
  isNumeric,
  MAX_INTEGER,
} from './rules';

/** Adds an input field (without `field`) or changes one; the options shown follow the data type. */
export function InputFieldForm({
  endpointId,
  field,
  onDone,
}: {
  endpointId: string;
  field?: InputField;
  onDone: (saved: boolean) => void;
}) {
  const { draft, change, problem, submit, busy, serverProblems } = useFieldForm({
    initial: () => inputDraftOf(field),
    fields: INPUT_FORM_FIELDS,
    conflictField: 'name',
    apply: changeInputDraft,
    check: checkInputDraft,
    send: (body) =>
      field
        ? unwrap(
            api.PUT('/admin/v1/endpoints/{id}/input-fields/{fieldId}', {
              params: { path: { id: endpointId, fieldId: field.id } },
              body,
            }),
          )
        : unwrap(api.POST('/admin/v1/endpoints/{id}/input-fields', { params: { path: { id: endpointId } }, body })),
    onSaved: () => onDone(true),
  });
  const type = draft.dataType;
  const title = field ? `Edit input field ${field.name}` : 'New input field';

  return (
    <form className="field-form" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      <div className="inline">
        <NameAndType
          name={draft.name}
          type={type}
          types={INPUT_TYPES}
          problem={problem}
          onName={(name) => change('name', name)}
          onType={(picked) => change('dataType', dataTypeOf(INPUT_TYPES, picked).value)}
        />
        <label className="checkbox field-checkbox">
          <input
            type="checkbox"
            checked={draft.isRequired}
            onChange={(event) => change('isRequired', event.target.checked)}
          />
          Required
        </label>
      </div>
      <p className="muted type-hint">{dataTypeOf(INPUT_TYPES, type).hint}</p>
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
            maxLength={FIELD_LIMITS.description}
            value={draft.description}
            aria-invalid={problem('description') ? true : undefined}
            onChange={(event) => change('description', event.target.value)}
          />
        )}
      </Field>
      <FieldFormEnd serverProblems={serverProblems} busy={busy} isNew={!field} onCancel={() => onDone(false)} />
    </form>
  );
}
