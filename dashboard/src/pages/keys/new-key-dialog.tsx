import { useEffect, useId, useRef } from 'react';
import { Button, CopyButton } from '../../ui/controls';
import type { CreatedKey } from './keys-page';

/**
 * The new key's full value, shown this once with a copy button. The value exists only in the caller's state: closing
 * the dialog drops it, and nothing writes it to a URL, storage or the console.
 */
export function NewKeyDialog({ created, onClose }: { created: CreatedKey | null; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const warningId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (created && !dialog.open) dialog.showModal();
    else if (!created && dialog.open) dialog.close();
  }, [created]);

  return (
    <dialog
      ref={ref}
      className="dialog key-dialog"
      aria-labelledby={titleId}
      aria-describedby={warningId}
      onCancel={(event) => (event.preventDefault(), onClose())}
    >
      {created && (
        <>
          <h2 id={titleId}>Key “{created.name}” created</h2>
          <p id={warningId} className="once-warning" role="alert">
            <strong>Copy this key now: it will never be shown again.</strong> Promptgate stores only a hash of it, so
            once you close this dialog the value is gone. If it is lost, revoke the key and create a new one.
          </p>
          <div className="secret">
            <span className="secret-label">
              {created.type === 'admin' ? `Admin key (${created.permission})` : `Endpoint key (${created.environment})`}
            </span>
            <code className="secret-value">{created.key}</code>
            <CopyButton text={created.key} label="Copy key" />
          </div>
          <p className="muted">
            {created.type === 'admin'
              ? 'Send it in the x-api-key header (or as a Bearer token) of admin API requests, or sign in to this dashboard with it.'
              : 'Send it in the x-api-key header of requests to your endpoints.'}
          </p>
          <div className="dialog-actions">
            <Button kind="primary" onClick={onClose}>
              I have stored it: close
            </Button>
          </div>
        </>
      )}
    </dialog>
  );
}
