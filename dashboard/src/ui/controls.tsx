import { type ButtonHTMLAttributes, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../api/client';

/** What a failure says: an Error's message, or a thrown string or value as text. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

/** The messages of a failed call, one per problem, announced to screen readers. */
export function Problems({ error }: { error: unknown }) {
  if (!error) return null;
  const messages = error instanceof ApiError ? error.messages : [messageOf(error)];
  return (
    <div className="problems" role="alert">
      {messages.length === 1 ? (
        <p>{messages[0]}</p>
      ) : (
        <ul>
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** Why the action is not available (a ReadOnly key, a state that forbids it): disables it and says why. */
  blocked?: string | null;
  kind?: 'primary' | 'danger' | 'plain';
};

/** A button that, when blocked, is disabled with its reason as its tooltip and accessible description. */
export function Button({ blocked, kind = 'plain', className, children, ...rest }: ButtonProps) {
  const reasonId = useId();
  return (
    <>
      <button
        type="button"
        {...rest}
        className={`button ${kind} ${className ?? ''}`}
        disabled={Boolean(blocked) || rest.disabled}
        title={blocked ?? rest.title}
        aria-describedby={blocked ? reasonId : rest['aria-describedby']}
      >
        {children}
      </button>
      {blocked && (
        <span id={reasonId} className="visually-hidden">
          {blocked}
        </span>
      )}
    </>
  );
}

/** A labelled form control with an optional hint and error, the label tied to the control. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={`field ${error ? 'invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint && <small className="hint">{hint}</small>}
      {error && (
        <small className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}

/**
 * Copies `text` to the clipboard and says so. Browsers offer the clipboard only on secure pages (HTTPS or localhost):
 * elsewhere, or when the browser refuses, it says to select the text and copy it by hand.
 */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  function copy() {
    const done = (next: 'copied' | 'failed') => {
      setState(next);
      if (next === 'copied') setTimeout(() => setState('idle'), 2000);
    };
    if (!navigator.clipboard) return done('failed');
    navigator.clipboard.writeText(text).then(
      () => done('copied'),
      () => done('failed'),
    );
  }
  return (
    <>
      <Button onClick={copy}>{state === 'copied' ? 'Copied' : label}</Button>
      <span role="status" className={state === 'failed' ? 'copy-failed' : 'visually-hidden'}>
        {state === 'failed'
          ? 'This browser gives no clipboard access here: select the text and copy it with Ctrl+C (⌘+C).'
          : ''}
      </span>
    </>
  );
}

/**
 * A modal confirmation (the native <dialog>: focus moves into it and Escape closes it). `confirmText`, when given,
 * must be typed before the action is allowed.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  actionLabel,
  confirmText,
  onConfirm,
  onCancel,
  busy,
  error,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  actionLabel: string;
  confirmText?: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  error?: unknown;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setTyped('');
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);
  const allowed = confirmText === undefined || typed === confirmText;
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => (event.preventDefault(), onCancel())}
    >
      <h2 id={titleId}>{title}</h2>
      <div className="dialog-body">{children}</div>
      {confirmText !== undefined && (
        <Field label={`Type ${confirmText} to confirm`}>
          {(id) => (
            <input id={id} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
          )}
        </Field>
      )}
      <Problems error={error} />
      <div className="dialog-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button kind="danger" onClick={onConfirm} disabled={!allowed || busy}>
          {actionLabel}
        </Button>
      </div>
    </dialog>
  );
}

/** Previous / next page controls for the API's paged lists. */
export function Pager({
  page,
  hasNextPage,
  onPage,
}: {
  page: number;
  hasNextPage: boolean;
  onPage: (page: number) => void;
}) {
  if (page === 1 && !hasNextPage) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <Button onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </Button>
      <span aria-current="page">Page {page}</span>
      <Button onClick={() => onPage(page + 1)} disabled={!hasNextPage}>
        Next
      </Button>
    </nav>
  );
}

/** A page's heading with its actions on the right. */
export function PageHeader({ title, children, back }: { title: ReactNode; children?: ReactNode; back?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        {back && <div className="back">{back}</div>}
        <h1>{title}</h1>
      </div>
      {children && <div className="actions">{children}</div>}
    </header>
  );
}

/** Any JSON value, pretty-printed, with a copy button. */
export function JsonView({ value, label }: { value: unknown; label?: string }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (
    <div className="json-view">
      <div className="json-view-bar">
        {label && <span>{label}</span>}
        <CopyButton text={text ?? ''} />
      </div>
      <pre tabIndex={0}>{text}</pre>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}
