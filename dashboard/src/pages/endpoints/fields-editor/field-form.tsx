import { type FormEvent, useState } from 'react';
import { useWriteBlock } from '../../../session';
import { Button, Field } from '../../../ui/controls';
import { useAction } from '../../../ui/use-action';
import { FormProblems, problemsByField } from '../endpoint-common';
import { focusFirstProblem } from '../endpoint-form';
import { FIELD_LIMITS, type Problems } from './rules';

/**
 * The state of a field form: the draft as typed, the problems shown beside its fields (the form's own checks first,
 * then the service's refusals, a conflict going beside the name), and the submit that checks the draft, sends the
 * body, and closes the form once the service took it; otherwise the first field with a problem gets the focus.
 */
export function useFieldForm<D extends object, K extends string, B>({
  initial,
  fields,
  conflictField,
  apply = (draft, key, value) => ({ ...draft, [key]: value }),
  check,
  send,
  onSaved,
}: {
  initial: () => D;
  fields: readonly K[];
  /** Where a conflict (409) goes when its message names no field. */
  conflictField: K;
  /** The draft with one value changed. */
  apply?: <P extends keyof D>(draft: D, key: P, value: D[P]) => D;
  check: (draft: D) => { problems: Problems<K>; body?: B };
  send: (body: B) => Promise<unknown>;
  onSaved: () => void;
}) {
  const [draft, setDraft] = useState<D>(initial);
  const [shown, setShown] = useState<Problems<K>>({});
  const save = useAction();
  const server = problemsByField(save.error, fields, conflictField);
  const problem = (key: K): string | null => shown[key] ?? server.byField[key] ?? null;

  /** Changes one value; a problem shown beside it goes. */
  function change<P extends keyof D>(key: P, value: D[P]): void {
    setDraft((previous) => apply(previous, key, value));
    setShown((previous) => {
      if (!(key in previous)) return previous;
      const { [key as unknown as K]: _dropped, ...rest } = previous;
      return rest as Problems<K>;
    });
  }

  async function submit(event: FormEvent): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const { problems, body } = check(draft);
    setShown(problems);
    save.setError(null);
    if (!body) return focusFirstProblem(form);
    const saved = await save.run(() => send(body));
    if (saved) onSaved();
    else focusFirstProblem(form);
  }

  return { draft, change, problem, submit, busy: save.busy, serverProblems: server.others };
}

/** The Name input and the Data type picker that both field forms start with. */
export function NameAndType<T extends string>({
  name,
  type,
  types,
  problem,
  onName,
  onType,
}: {
  name: string;
  type: T;
  types: { value: T; label: string }[];
  problem: (key: 'name' | 'dataType') => string | null;
  onName: (name: string) => void;
  onType: (picked: string) => void;
}) {
  return (
    <>
      <Field label="Name" hint="Letters, digits and _, not starting with a digit." error={problem('name')}>
        {(id) => (
          <input
            id={id}
            className="mono"
            value={name}
            maxLength={FIELD_LIMITS.name}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problem('name') ? true : undefined}
            onChange={(event) => onName(event.target.value)}
          />
        )}
      </Field>
      <Field label="Data type" error={problem('dataType')}>
        {(id) => (
          <select id={id} value={type} onChange={(event) => onType(event.target.value)}>
            {types.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}

/** The end of a field form: the service's other refusals, Cancel, and Add field or Save field. */
export function FieldFormEnd({
  serverProblems,
  busy,
  isNew,
  onCancel,
}: {
  serverProblems: string[];
  busy: boolean;
  isNew: boolean;
  onCancel: () => void;
}) {
  const blocked = useWriteBlock();
  return (
    <>
      <FormProblems messages={serverProblems} />
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" blocked={blocked} disabled={busy}>
          {busy ? 'Saving…' : isNew ? 'Add field' : 'Save field'}
        </Button>
      </div>
    </>
  );
}
