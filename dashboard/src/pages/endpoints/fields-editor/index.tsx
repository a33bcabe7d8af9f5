// The endpoint page's input and output fields: each a table, a form to add or change a field, and a confirmed delete.
// The rules (data types, checks, conversions to the API's shape) are in rules.ts.
import { api, unwrap } from '../../../api/client';
import type { Endpoint } from '../endpoint-common';
import { InputFieldRow, OutputFieldRow } from './field-rows';
import { FieldsSection } from './fields-section';
import { InputFieldForm } from './input-field-form';
import { OutputFieldForm } from './output-field-form';

/** The endpoint's input fields: the JSON body its callers send, each field added, changed and removed here. */
export function InputFieldsSection({ endpoint, onChanged }: { endpoint: Endpoint; onChanged: () => void }) {
  return (
    <FieldsSection
      kind="input"
      fields={endpoint.inputFields}
      intro={
        <>
          What callers send as the JSON body; prompts read each one as <code>{'{{ inputs.<name> }}'}</code>. Fields not
          listed here are ignored.
        </>
      }
      empty="No input fields yet: add the first one, such as a text to summarize."
      columns={['Name', 'Type', 'Rules', 'Default', 'Description']}
      row={(field, actions) => <InputFieldRow field={field} actions={actions} />}
      form={(field, onDone) => <InputFieldForm endpointId={endpoint.id} field={field} onDone={onDone} />}
      remove={(field) =>
        unwrap(
          api.DELETE('/admin/v1/endpoints/{id}/input-fields/{fieldId}', {
            params: { path: { id: endpoint.id, fieldId: field.id } },
          }),
        )
      }
      removeNote={(name) => (
        <p>
          Callers that still send <code>{name}</code> are not refused: the value is ignored, and prompts reading{' '}
          <code>inputs.{name}</code> get nothing.
        </p>
      )}
      onChanged={onChanged}
    />
  );
}

/** The endpoint's output fields: the JSON object the model is asked to answer. */
export function OutputFieldsSection({ endpoint, onChanged }: { endpoint: Endpoint; onChanged: () => void }) {
  return (
    <FieldsSection
      kind="output"
      fields={endpoint.outputFields}
      intro={
        <>
          With output fields, the model is asked for a JSON object with exactly these fields, and callers get that
          object. Without any, callers get the model's answer as it is.
        </>
      }
      empty="No output fields: callers get the model's raw answer."
      columns={['Name', 'Type', 'Rules', 'Description', 'Example']}
      row={(field, actions) => <OutputFieldRow field={field} actions={actions} />}
      form={(field, onDone) => <OutputFieldForm endpointId={endpoint.id} field={field} onDone={onDone} />}
      remove={(field) =>
        unwrap(
          api.DELETE('/admin/v1/endpoints/{id}/output-fields/{fieldId}', {
            params: { path: { id: endpoint.id, fieldId: field.id } },
          }),
        )
      }
      removeNote={(name) => (
        <p>
          Answers will no longer hold <code>{name}</code>.
        </p>
      )}
      onChanged={onChanged}
    />
  );
}
