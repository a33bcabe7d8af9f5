import { Fragment, type ReactNode, useState } from 'react';
import { useWriteBlock } from '../../../session';
import { Button, ConfirmDialog } from '../../../ui/controls';
import { useAction } from '../../../ui/use-action';
import { FieldRowActions } from './field-rows';

/**
 * One kind of field of an endpoint: a table of them with Edit and Delete on each row, the form that adds or changes one,
 * and the confirmation before one is deleted.
 */
export function FieldsSection<F extends { id: string; name: string }>({
  kind,
  fields,
  intro,
  empty,
  columns,
  row,
  form,
  remove,
  removeNote,
  onChanged,
}: {
  kind: 'input' | 'output';
  fields: F[];
  intro: ReactNode;
  empty: string;
  /** The column headers, before the actions column. */
  columns: string[];
  row: (field: F, actions: ReactNode) => ReactNode;
  /** The form for a new field (without `field`) or for changing `field`; it calls `onDone` when closed. */
  form: (field: F | undefined, onDone: (saved: boolean) => void) => ReactNode;
  /** Deletes the field through the API. */
  remove: (field: F) => Promise<unknown>;
  /** What deleting the field means, in the confirmation. */
  removeNote: (name: string | undefined) => ReactNode;
  onChanged: () => void;
}) {
  const blocked = useWriteBlock();
  const [editing, setEditing] = useState<F | 'new' | null>(null);
  const [removing, setRemoving] = useState<F | null>(null);
  const removal = useAction();
  const title = kind === 'input' ? 'Input fields' : 'Output fields';
  const titleId = `${kind}-fields-title`;

  async function confirmRemove() {
    if (!removing) return;
    const done = await removal.run(() => remove(removing));
    if (done !== undefined) {
      setRemoving(null);
      onChanged();
    }
  }

  return (
    <section className="panel" aria-labelledby={titleId}>
      <div className="section-header">
        <h2 id={titleId}>{title}</h2>
        <div className="actions">
          <Button blocked={blocked} onClick={() => setEditing('new')} disabled={editing === 'new'}>
            Add {kind} field
          </Button>
        </div>
      </div>
      <p className="muted">{intro}</p>
      {fields.length === 0 ? (
        <p className="empty">{empty}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {fields.map((field) => (
                <Fragment key={field.id}>
                  {row(
                    field,
                    <FieldRowActions
                      kind={kind}
                      name={field.name}
                      blocked={blocked}
                      onEdit={() => setEditing(field)}
                      onRemove={() => setRemoving(field)}
                    />,
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {/* Keyed by the field, so a form opened for another field starts afresh. */}
      {editing && (
        <Fragment key={editing === 'new' ? 'new' : editing.id}>
          {form(editing === 'new' ? undefined : editing, (saved) => {
            setEditing(null);
            if (saved) onChanged();
          })}
        </Fragment>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Delete ${kind} field ${removing?.name ?? ''}?`}
        actionLabel="Delete field"
        busy={removal.busy}
        error={removal.error}
        onConfirm={confirmRemove}
        onCancel={() => (setRemoving(null), removal.setError(null))}
      >
        {removeNote(removing?.name)}
      </ConfirmDialog>
    </section>
  );
}
