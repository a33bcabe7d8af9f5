import { api, unwrap } from '../../../api/client';
import { Field } from '../../../ui/controls';
import { FieldFormEnd, NameAndType, useFieldForm } from './field-form';
import {
  checkOutputDraft,
  dataTypeOf,
  FIELD_LIMITS,
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
