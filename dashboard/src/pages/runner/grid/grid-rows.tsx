import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { Button, Field, Problems } from '../../../ui/controls';
import { formatNumber } from '../../../ui/format';
import { useAction } from '../../../ui/use-action';
import type { Loaded } from '../../../ui/use-load';
import type { Dataset } from '../../datasets/rules';
import { DatasetSelect } from '../../datasets/dataset-select';
import { initialValues, type InputValues, inputsOf, RunnerInputs } from '../runner-inputs';
import type { Endpoint, InputField } from '../test-run';
import { type GridRow, MAX_ROWS, type RowSource, rowsFullReason } from './grid-model';
import { recentCallInputs } from './recent-calls';

type AddRows = (additions: { inputs: Record<string, unknown>; source: RowSource }[]) => {
  added: number;
  leftOut: number;
};

/** The three ways rows come into the grid: typed with the runner's form, a dataset's items, the latest API calls. */
export function RowsPanel({
  endpoint,
  rows,
  datasets,
  onAdd,
}: {
  endpoint: Endpoint;
  rows: GridRow[];
  datasets: Loaded<Dataset[]>;
  onAdd: AddRows;
}) {
  const titleId = useId();
  const full = rowsFullReason(rows);
  return (
    <section className="panel grid-rows-panel" aria-labelledby={titleId}>
      <h2 id={titleId}>
        Rows <span className="muted grid-count">{`${rows.length} of ${MAX_ROWS}`}</span>
      </h2>
      {full && (
        <p className="notice" role="note">
          {full}
        </p>
      )}
      <div className="grid-sources">
        <TypedRowForm fields={endpoint.inputFields} full={full} onAdd={onAdd} />
        <DatasetRowsForm datasets={datasets} full={full} onAdd={onAdd} />
        <RecentRowsForm endpointId={endpoint.id} rows={rows} full={full} onAdd={onAdd} />
      </div>
    </section>
  );
}

/** A form of its own within the rows panel: its heading, its controls, and what its last addition did. */
function Source({
  title,
  onSubmit,
  said,
  error,
  children,
}: {
  title: string;
  onSubmit: (event: FormEvent) => void;
  said: ReactNode;
  error?: unknown;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <form className="grid-source" aria-labelledby={titleId} onSubmit={onSubmit} noValidate>
      <h3 id={titleId}>{title}</h3>
      {children}
      <Problems error={error} />
      <p role="status" className={said ? 'grid-said' : 'visually-hidden'}>
        {said}
      </p>
    </form>
  );
}

function TypedRowForm({ fields, full, onAdd }: { fields: InputField[]; full: string | null; onAdd: AddRows }) {
  const [values, setValues] = useState<InputValues>(() => initialValues(fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [said, setSaid] = useState<string | null>(null);

  function add(event: FormEvent) {
    event.preventDefault();
    if (full) return;
    const { inputs, errors: problems } = inputsOf(fields, values);
    for (const field of fields) {
      if (field.isRequired && (field.defaultValue ?? null) === null && !(field.name in inputs) && !problems[field.name])
        problems[field.name] = `${field.name} is required`;
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0) return setSaid(null);
    onAdd([{ inputs, source: { kind: 'typed' } }]);
    // The form starts again from the fields' defaults for the next row.
    setValues(initialValues(fields));
    setSaid('Row added.');
  }

  return (
    <Source title="Type a row" onSubmit={add} said={said}>
      <fieldset>
        <legend>Inputs</legend>
        <RunnerInputs
          fields={fields}
          values={values}
          errors={errors}
          onChange={(name, value) => {
            setValues((previous) => ({ ...previous, [name]: value }));
            setSaid(null);
          }}
        />
      </fieldset>
      <Button type="submit" blocked={full}>
        Add row
      </Button>
    </Source>
  );
}

function DatasetRowsForm({
  datasets,
  full,
  onAdd,
}: {
  datasets: Loaded<Dataset[]>;
  full: string | null;
  onAdd: AddRows;
}) {
  const [datasetId, setDatasetId] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const loading = useAction();
  const list = datasets.data ?? [];
  const chosen = list.find((dataset) => dataset.id === datasetId) ?? list[0];

  async function add(event: FormEvent) {
    event.preventDefault();
    if (full || !chosen) return;
    setSaid(null);
    const page = await loading.run(() =>
      unwrap(
        api.GET('/admin/v1/datasets/{id}/items', {
          params: { path: { id: chosen.id }, query: { page: 1, pageSize: MAX_ROWS } },
        }),
      ),
    );
    if (!page) return;
    if (page.items.length === 0) return setSaid(`${chosen.name} has no items.`);
    const { added } = onAdd(
      page.items.map((item) => ({ inputs: item.inputs, source: { kind: 'dataset', datasetName: chosen.name } })),
    );
    setSaid(
      added === page.total
        ? `Added ${chosen.name}'s ${added} ${added === 1 ? 'item' : 'items'} as rows.`
        : `Added the first ${added} of ${chosen.name}'s ${formatNumber(page.total)} items: the grid holds at most ${MAX_ROWS} rows.`,
    );
  }

  return (
    <Source title="From a dataset" onSubmit={add} said={said} error={loading.error ?? datasets.error}>
      {datasets.data && list.length === 0 ? (
        <p className="muted">This endpoint has no datasets yet.</p>
      ) : (
        <>
          <Field label="Dataset" hint={`Its items' inputs become rows, the first ${MAX_ROWS} at most.`}>
            {(id) => <DatasetSelect id={id} datasets={list} value={chosen?.id ?? ''} onChange={setDatasetId} />}
          </Field>
          <Button type="submit" blocked={full} disabled={loading.busy || !chosen}>
            {loading.busy ? 'Adding…' : "Add the dataset's rows"}
          </Button>
        </>
      )}
    </Source>
  );
}

function RecentRowsForm({
  endpointId,
  rows,
  full,
  onAdd,
}: {
  endpointId: string;
  rows: GridRow[];
  full: string | null;
  onAdd: AddRows;
}) {
  const room = MAX_ROWS - rows.length;
  const [count, setCount] = useState('5');
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const loading = useAction();

  async function add(event: FormEvent) {
    event.preventDefault();
    if (full) return;
    const wanted = Number(count);
    if (!Number.isInteger(wanted) || wanted < 1 || wanted > room) {
      setError(`A whole number from 1 to ${room}`);
      return;
    }
    setError(null);
    setSaid(null);
    const found = await loading.run(() =>
      recentCallInputs(
        endpointId,
        wanted,
        rows.map((row) => row.inputs),
      ),
    );
    if (!found) return;
    if (found.inputs.length === 0) {
      return setSaid(
        found.scanned === 0
          ? 'This endpoint has no calls through the API yet.'
          : `The latest ${found.scanned} calls through the API hold no inputs that are not in the grid already.`,
      );
    }
    const { added } = onAdd(found.inputs.map(({ inputs, logId }) => ({ inputs, source: { kind: 'log', logId } })));
    setSaid(
      `Added the inputs of ${added} recent ${added === 1 ? 'call' : 'calls'}` +
        (added < wanted ? `: the latest ${found.scanned} calls hold no more that differ.` : '.'),
    );
  }

  return (
    <Source title="From recent calls" onSubmit={add} said={said} error={loading.error}>
      <Field
        label="How many"
        hint="The inputs of the endpoint's latest calls through the API, newest first, each once; inputs already in the grid are left out."
        error={error}
      >
        {(id) => (
          <input
            id={id}
            type="number"
            inputMode="numeric"
            min={1}
            max={Math.max(1, room)}
            step={1}
            value={count}
            onChange={(event) => setCount(event.target.value)}
          />
        )}
      </Field>
      <Button type="submit" blocked={full} disabled={loading.busy}>
        {loading.busy ? 'Reading the logs…' : 'Add recent inputs'}
      </Button>
    </Source>
  );
}
