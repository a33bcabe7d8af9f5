import { api, unwrap } from '../../api/client';
import { ConfirmDialog } from '../../ui/controls';
import { useAction } from '../../ui/use-action';
import type { Endpoint } from './endpoint-common';

/**
 * Deleting an endpoint for good, after its name is typed: the dialog says everything that goes with it, since none of
 * it can be brought back.
 */
export function PermanentDeleteDialog({
  open,
  endpoint,
  promptCount,
  onCancel,
  onDeleted,
}: {
  open: boolean;
  endpoint: Pick<Endpoint, 'id' | 'name' | 'path'>;
  /** How many prompts go with it, when known. */
  promptCount?: number;
  onCancel: () => void;
  onDeleted: () => void;
}) {
  const remove = useAction();
  async function confirm() {
    const done = await remove.run(() =>
      unwrap(
        api.DELETE('/admin/v1/endpoints/{id}', { params: { path: { id: endpoint.id }, query: { permanent: true } } }),
      ),
    );
    if (done !== undefined) onDeleted();
  }
  const prompts =
    promptCount === undefined || promptCount === 0
      ? 'all its prompts'
      : promptCount === 1
        ? 'its prompt, any archived ones,'
        : `its ${promptCount} prompts, any archived ones,`;
  return (
    <ConfirmDialog
      open={open}
      title={`Delete ${endpoint.name} for good?`}
      actionLabel="Delete for good"
      confirmText={endpoint.name}
      busy={remove.busy}
      error={remove.error}
      onConfirm={confirm}
      onCancel={() => (remove.setError(null), onCancel())}
    >
      <p>
        This removes the endpoint <code>{endpoint.path}</code> and everything that belongs to it:
      </p>
      <ul>
        <li>its input and output fields,</li>
        <li>{prompts} and every version of them,</li>
        <li>its execution logs (its calls disappear from Logs and Stats),</li>
        <li>its cached responses.</li>
      </ul>
      <p>
        <strong>This cannot be undone.</strong>
      </p>
    </ConfirmDialog>
  );
}
