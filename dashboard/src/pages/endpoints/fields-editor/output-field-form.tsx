import { api, unwrap } from '../../../api/client';
import { Field } from '../../../ui/controls';
import { FieldFormEnd, NameAndType, useFieldForm } from './field-form';
import {
  checkOutputDraft,
  dataTypeOf,
  ENUM_LIMITS,
  FIELD_LIMITS,
  isNumeric,
  MAX_INTEGER,
  OUTPUT_FORM_FIELDS,
  OUTPUT_TYPES,
  outputDraftOf,
  type OutputField,
} from './rules';

/** Adds an output field (without `field`) or changes one. */
export function OutputFieldForm({
  endpointId,
  field,
  onDone,
}: {
  endpointId: string;
  field?: OutputField;
  onDone: (saved: boolean) => void;
}) {
  const { draft, change, problem, submit, busy, serverProblems } = useFieldForm({
    initial: () => outputDraftOf(field),
    fields: OUTPUT_FORM_FIELDS,
    conflictField: 'name',
    check: checkOutputDraft,
    send: (body) =>
      field
        ? unwrap(
            api.PUT('/admin/v1/endpoints/{id}/output-fields/{fieldId}', {
              params: { path: { id: endpointId, fieldId: field.id } },
              body,
            }),
          )
        : unwrap(api.POST('/admin/v1/endpoints/{id}/output-fields', { params: { path: { id: endpointId } }, body })),
    onSaved: () => onDone(true),
  });
  const { dataType } = draft;
  const title = field ? `Edit output field ${field.name}` : 'New output field';

  return (
    <form className="field-form" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      <div className="inline">
        <NameAndType
          name={draft.name}
          type={dataType}
          types={OUTPUT_TYPES}
          problem={problem}
          onName={(name) => change('name', name)}
          onType={(picked) => change('dataType', dataTypeOf(OUTPUT_TYPES, picked).value)}
        />
      </div>
      <p className="muted type-hint">{dataTypeOf(OUTPUT_TYPES, dataType).hint}</p>
      {dataType === 'string' && (
        <div className="inline">
          <Field
            label="Allowed values"
            hint={`One a line, at most ${ENUM_LIMITS.values}; the answer must be one of them. Empty for any text.`}
            error={problem('enum')}
          >
            {(id) => (
              <textarea
                id={id}
                rows={3}
                spellCheck={false}
                value={draft.enum}
                aria-invalid={problem('enum') ? true : undefined}
                onChange={(event) => change('enum', event.target.value)}
              />
            )}
          </Field>
          <Field
            label="Maximum length"
            hint="The longest text the answer may hold, in characters; empty for no limit."
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
        </div>
      )}
      {isNumeric(dataType) && (
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
                  inputMode={dataType === 'integer' ? 'numeric' : 'decimal'}
                  step={dataType === 'integer' ? 1 : 'any'}
                  value={draft[key]}
                  aria-invalid={problem(key) ? true : undefined}
                  onChange={(event) => change(key, event.target.value)}
                />
              )}
            </Field>
          ))}
        </div>
      )}
      {(dataType === 'object' || dataType === 'array') && (
        <NestedDefinitionField
          kind={dataType === 'object' ? 'properties' : 'items'}
          value={dataType === 'object' ? draft.properties : draft.items}
          problem={problem(dataType === 'object' ? 'properties' : 'items')}
          onChange={(value) => change(dataType === 'object' ? 'properties' : 'items', value)}
        />
      )}
      <Field label="Description" hint="Tells the model what to put in this field." error={problem('description')}>
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
            maxLength={FIELD_LIMITS.exampleValue}
            value={draft.exampleValue}
            aria-invalid={problem('exampleValue') ? true : undefined}
            onChange={(event) => change('exampleValue', event.target.value)}
          />
        )}
      </Field>
      <FieldFormEnd serverProblems={serverProblems} busy={busy} isNew={!field} onCancel={() => onDone(false)} />
    </form>
  );
}

/**
 * An object's properties (a JSON array of field definitions) or an array's items (one definition), typed as JSON: each
 * definition takes `name` (properties only), `dataType`, `description` and the constraints of its type, and nests at
 * most 3 levels with the field.
 */
function NestedDefinitionField({
  kind,
  value,
  problem,
  onChange,
}: {
  kind: 'properties' | 'items';
  value: string;
  problem: string | null;
  onChange: (value: string) => void;
}) {
  const isProperties = kind === 'properties';
  return (
    <Field
      label={isProperties ? 'Properties (JSON)' : 'Items (JSON)'}
      hint={
        isProperties
          ? 'The fields of the object, such as [{"name": "city", "dataType": "string", "maxLength": 40}]; each takes a dataType, a description and the constraints of its type, and objects and arrays nest 3 levels at most. Empty for any JSON object.'
          : 'What every element is, such as {"dataType": "string", "enum": ["a", "b"]}. Empty for any JSON array.'
      }
      error={problem}
    >
      {(id) => (
        <textarea
          id={id}
          rows={4}
          spellCheck={false}
          className="mono"
          value={value}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
