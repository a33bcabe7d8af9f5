import { type ChangeEvent, useState } from 'react';
import { Button, Field, messageOf } from '../../ui/controls';
import { type InputField, isRecord } from './test-run';

/** The form's text of each field (an image field holds its data URI), keyed by field name. */
export type InputValues = Record<string, string>;

const IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

/** The form's first values: the given inputs (a log row's "Run again"), else each field's default value. */
export function initialValues(fields: InputField[], given?: Record<string, unknown> | null): InputValues {
  const values: InputValues = {};
  for (const field of fields) {
    const defaultValue: unknown = field.defaultValue;
    const value = given && field.name in given ? given[field.name] : defaultValue;
    values[field.name] = textOf(field, value);
  }
  return values;
}

/** What the form could not take from the given inputs: an image a log recorded only as a summary. */
export function initialNotes(fields: InputField[], given?: Record<string, unknown> | null): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const field of fields) {
    const value = given?.[field.name];
    if (field.dataType === 'image' && typeof value === 'string' && value !== '' && !value.startsWith('data:')) {
      notes[field.name] = 'The log keeps no image bytes: choose the file again.';
    }
  }
  return notes;
}

function textOf(field: InputField, value: unknown): string {
  if (value === null || value === undefined) return '';
  // A log keeps a summary of an image, not its bytes: only a data URI can be sent again.
  if (field.dataType === 'image') return typeof value === 'string' && value.startsWith('data:') ? value : '';
  if (field.dataType === 'object' || field.dataType === 'array') return JSON.stringify(value, null, 2);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The request body the form describes: empty fields are left out (the service applies defaults and says which
 * required field is missing); numbers and JSON are parsed, and what does not parse is an error of its field.
 */
export function inputsOf(
  fields: InputField[],
  values: InputValues,
): { inputs: Record<string, unknown>; errors: Record<string, string> } {
  const inputs: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const text = values[field.name] ?? '';
    if (text.trim() === '' && field.dataType !== 'string') continue;
    if (text === '') continue;
    switch (field.dataType) {
      case 'integer':
      case 'number': {
        const number = Number(text);
        if (!Number.isFinite(number) || (field.dataType === 'integer' && !Number.isInteger(number))) {
          errors[field.name] = `${field.name} must be ${field.dataType === 'integer' ? 'a whole number' : 'a number'}`;
        } else inputs[field.name] = number;
        break;
      }
      case 'boolean':
        inputs[field.name] = text === 'true';
        break;
      case 'object':
      case 'array':
        try {
          const parsed: unknown = JSON.parse(text);
          const fits = field.dataType === 'array' ? Array.isArray(parsed) : isRecord(parsed);
          if (fits) inputs[field.name] = parsed;
          else errors[field.name] = `${field.name} must be a JSON ${field.dataType}`;
        } catch (error) {
          errors[field.name] = `${field.name} is not valid JSON: ${messageOf(error)}`;
        }
        break;
      default:
        inputs[field.name] = text;
    }
  }
  return { inputs, errors };
}

/** One control per input field of the endpoint, built from its type and rules. */
export function RunnerInputs({
  fields,
  values,
  errors,
  notes = {},
  onChange,
}: {
  fields: InputField[];
  values: InputValues;
  errors: Record<string, string>;
  /** A line to add to a field's hint. */
  notes?: Record<string, string>;
  onChange: (name: string, value: string) => void;
}) {
  if (fields.length === 0)
    return <p className="muted">This endpoint has no input fields: a run sends an empty body.</p>;
  return (
    <>
      {fields.map((field) => (
        <Field
          key={field.id}
          label={`${field.name}${field.isRequired ? ' (required)' : ''}`}
          hint={[hintOf(field), notes[field.name]].filter(Boolean).join(' ') || undefined}
          error={errors[field.name]}
        >
          {(id) => (
            <InputControl
              id={id}
              field={field}
              value={values[field.name] ?? ''}
              onChange={(value) => onChange(field.name, value)}
            />
          )}
        </Field>
      ))}
    </>
  );
}

function hintOf(field: InputField): string | undefined {
  const parts: string[] = [];
  if (field.description) parts.push(/[.!?]$/.test(field.description) ? field.description : `${field.description}.`);
  if (field.dataType === 'string' && field.maxLength !== null) parts.push(`At most ${field.maxLength} characters.`);
  if (field.dataType === 'integer' || field.dataType === 'number') {
    const kind = field.dataType === 'integer' ? 'A whole number' : 'A number';
    if (field.minimum !== null && field.maximum !== null)
      parts.push(`${kind} from ${field.minimum} to ${field.maximum}.`);
    else if (field.minimum !== null) parts.push(`${kind}, at least ${field.minimum}.`);
    else if (field.maximum !== null) parts.push(`${kind}, at most ${field.maximum}.`);
    else parts.push(`${kind}.`);
  }
  if (field.dataType === 'object' || field.dataType === 'array') parts.push(`A JSON ${field.dataType}.`);
  if (field.dataType === 'image') parts.push('A PNG, JPEG, WebP or GIF file, sent as a data URI.');
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function InputControl({
  id,
  field,
  value,
  onChange,
}: {
  id: string;
  field: InputField;
  value: string;
  onChange: (value: string) => void;
}) {
  const required = field.isRequired;
  switch (field.dataType) {
    case 'integer':
    case 'number':
      return (
        <input
          id={id}
          type="number"
          inputMode={field.dataType === 'integer' ? 'numeric' : 'decimal'}
          step={field.dataType === 'integer' ? 1 : 'any'}
          min={field.minimum ?? undefined}
          max={field.maximum ?? undefined}
          required={required}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case 'boolean':
      return (
        <select id={id} required={required} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{required ? 'Choose…' : '(not sent)'}</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case 'object':
    case 'array':
      return (
        <textarea
          id={id}
          rows={4}
          required={required}
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case 'image':
      return <ImageInput id={id} required={required} value={value} onChange={onChange} />;
    default: {
      const short = field.maxLength !== null && field.maxLength <= 120;
      return short ? (
        <input
          id={id}
          type="text"
          maxLength={field.maxLength ?? undefined}
          required={required}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <textarea
          id={id}
          rows={3}
          maxLength={field.maxLength ?? undefined}
          required={required}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    }
  }
}

/** A file picker that reads the chosen image as a data URI (FileReader), with a preview and a way to clear it. */
function ImageInput({
  id,
  required,
  value,
  onChange,
}: {
  id: string;
  required: boolean;
  value: string;
  onChange: (value: string) => void;
}) {
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A new key empties the file input when the image is removed.
  const [picker, setPicker] = useState(0);
  function read(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setError(null);
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') {
        setName(`${file.name} (${Math.ceil(file.size / 1024)} KB)`);
        onChange(reader.result);
      }
    };
    reader.onerror = () => setError(`${file.name} could not be read`);
    reader.readAsDataURL(file);
  }
  return (
    <div className="image-input">
      <input
        key={picker}
        id={id}
        type="file"
        accept={IMAGE_TYPES}
        required={required && value === ''}
        onChange={read}
      />
      {error && <small className="field-error">{error}</small>}
      {value !== '' && (
        <div className="image-input-preview">
          <img src={value} alt={name ? `Chosen image ${name}` : 'Chosen image'} />
          <span className="muted">{name ?? 'Image from the inputs'}</span>
          <Button
            onClick={() => {
              setName(null);
              setPicker((n) => n + 1);
              onChange('');
            }}
          >
            Remove image
          </Button>
        </div>
      )}
    </div>
  );
}
