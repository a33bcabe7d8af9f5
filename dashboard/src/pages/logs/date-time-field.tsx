import { useEffect, useState } from 'react';
import { Field } from '../../ui/controls';
import { fromLocalInput, toLocalInput } from './time-range';
import './date-time-field.css';

/**
 * A `datetime-local` input bound to an ISO instant of the route's query. What is typed is kept while it is incomplete
 * and applied once it is a whole date and time (or cleared).
 */
export function DateTimeField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | undefined;
  onChange: (iso: string | undefined) => void;
}) {
  const [text, setText] = useState(toLocalInput(value));
  useEffect(() => setText(toLocalInput(value)), [value]);
  return (
    <Field label={label}>
      {(id) => (
        <input
          id={id}
          type="datetime-local"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            const iso = fromLocalInput(event.target.value);
            if (event.target.value === '' || iso) onChange(iso);
          }}
        />
      )}
    </Field>
  );
}
