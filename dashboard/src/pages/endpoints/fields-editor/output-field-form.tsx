import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { useWriteBlock } from '../../../session';
import { Button, Field } from '../../../ui/controls';
import { FormProblems, problemsByField, useAction } from '../endpoint-common';
import { focusFirstProblem } from '../endpoint-form';
import {
  checkOutputDraft,
  dataTypeOf,
  FIELD_LIMITS,
  OUTPUT_FORM_FIELDS,
  OUTPUT_TYPES,
  type OutputDraft,
  outputDraftOf,
  type OutputField,
  type OutputFormField,
  type Problems,
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
  const blocked = useWriteBlock();
  const [draft, setDraft] = useState<OutputDraft>(() => outputDraftOf(field));
  const [shown, setShown] = useState<Problems<OutputFormField>>({});
  const save = useAction();
  const server = problemsByField(save.error, OUTPUT_FORM_FIELDS, 'name');
  const problem = (key: OutputFormField) => shown[key] ?? server.byField[key] ?? null;
  const change = <K extends keyof OutputDraft>(key: K, value: OutputDraft[K]) => {
    setDraft((previous) => ({ ...previous, [key]: value }));
    // A problem shown beside the name or the example goes as soon as it is edited.
    if (key === 'name' || key === 'exampleValue') setShown(({ [key]: _dropped, ...rest }) => rest);
  };
  const { dataType } = draft;
  const title = field ? `Edit output field ${field.name}` : 'New output field';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const { problems, body } = checkOutputDraft(draft);
    setShown(problems);
    save.setError(null);
    if (!body) return focusFirstProblem(form);
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
              value={draft.name}
              maxLength={FIELD_LIMITS.name}
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
              value={dataType}
              onChange={(event) => change('dataType', dataTypeOf(OUTPUT_TYPES, event.target.value).value)}
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
