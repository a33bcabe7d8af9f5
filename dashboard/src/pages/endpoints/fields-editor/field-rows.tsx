import type { ReactNode } from 'react';
import { Button } from '../../../ui/controls';
import { type InputField, type OutputField, outputRulesOf, rulesOf, showValue, typeLabel } from './rules';

/** A dash for a value the field does not have. */
const none = <span className="muted">—</span>;

/** A row of the input fields table; `actions` is its last cell's content. */
export function InputFieldRow({ field, actions }: { field: InputField; actions: ReactNode }) {
  return (
    <tr>
      <th scope="row">
        <code>{field.name}</code>{' '}
        {field.isRequired ? (
          <span className="badge required">Required</span>
        ) : (
          <span className="muted small">optional</span>
        )}
      </th>
      <td>{typeLabel(field.dataType)}</td>
      <td>{rulesOf(field) || none}</td>
      <td>
        {field.defaultValue === null || field.defaultValue === undefined ? (
          none
        ) : (
          <code>{showValue(field.defaultValue)}</code>
        )}
      </td>
      <td>{field.description || none}</td>
      <td className="row-actions">{actions}</td>
    </tr>
  );
}

/** A row of the output fields table; `actions` is its last cell's content. */
export function OutputFieldRow({ field, actions }: { field: OutputField; actions: ReactNode }) {
  return (
    <tr>
      <th scope="row">
        <code>{field.name}</code>
      </th>
      <td>{typeLabel(field.dataType)}</td>
      <td>{outputRulesOf(field) || none}</td>
      <td>{field.description || none}</td>
      <td>{field.exampleValue ? <code className="clamp">{field.exampleValue}</code> : none}</td>
      <td className="row-actions">{actions}</td>
    </tr>
  );
}

/** A row's Edit and Delete buttons, named after the field for screen readers. */
export function FieldRowActions({
  kind,
  name,
  blocked,
  onEdit,
  onRemove,
}: {
  kind: 'input' | 'output';
  name: string;
  blocked: string | null;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <>
      <Button onClick={onEdit} aria-label={`Edit ${kind} field ${name}`} blocked={blocked}>
        Edit
      </Button>
      <Button kind="danger" onClick={onRemove} aria-label={`Delete ${kind} field ${name}`} blocked={blocked}>
        Delete
      </Button>
    </>
  );
}
