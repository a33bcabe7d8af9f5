import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../../api/client';
import { bounds } from '../../../api/bounds';
import { useWriteBlock } from '../../../session';
import { Button, Field, Problems } from '../../../ui/controls';
import { formatNumber } from '../../../ui/format';
import { useAction } from '../../../ui/use-action';
import type { Loaded } from '../../../ui/use-load';
import { datasetHref } from '../../datasets/evaluate-tab';
import type { Dataset } from '../../datasets/rules';
import { DatasetSelect } from '../../datasets/dataset-select';
import type { Prompt } from '../test-run';
import { type Cells, columnTitle, datasetItemsOf, type GridColumn, type GridRow } from './grid-model';

const NAME_MAX_LENGTH = bounds.CreateDatasetDto.name.maxLength;

/**
 * The grid's rows saved as dataset items, in a new dataset of the endpoint or added to one of its datasets: each row's
 * inputs, and, when a column is chosen, that column's answers as the expected outputs.
 */
export function SaveGridAsDataset({
  endpointId,
  rows,
  columns,
  cells,
  prompts,
  datasets,
}: {
  endpointId: string;
  rows: GridRow[];
  columns: GridColumn[];
  cells: Cells;
  prompts: Prompt[];
  datasets: Loaded<Dataset[]>;
}) {
  const writeBlock = useWriteBlock();
  const titleId = useId();
  const [where, setWhere] = useState<'new' | 'existing'>('new');
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [datasetId, setDatasetId] = useState('');
  const [expectedFrom, setExpectedFrom] = useState('');
  const [saved, setSaved] = useState<{ dataset: Dataset; added: number; itemCount: number } | null>(null);
  const saving = useAction();
  const list = datasets.data ?? [];
  const existing = list.find((dataset) => dataset.id === datasetId) ?? list[0];
  const target = where === 'existing' && existing ? 'existing' : 'new';
  const expectedColumn = columns.find((column) => column.id === expectedFrom) ?? null;
  const { items, withoutExpected } = datasetItemsOf(rows, cells, expectedColumn?.id ?? null);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (writeBlock || rows.length === 0) return;
    if (target === 'new' && name.trim() === '') return setNameProblem('A name is required');
    setNameProblem(null);
    setSaved(null);
    const done = await saving.run(async () => {
      const dataset =
        target === 'existing' && existing
          ? existing
          : await unwrap(
              api.POST('/admin/v1/endpoints/{id}/datasets', {
                params: { path: { id: endpointId } },
                body: { name: name.trim() },
              }),
            );
      // A new dataset is listed even when its items are refused next.
      if (target === 'new') datasets.reload();
      const added = await unwrap(
        api.POST('/admin/v1/datasets/{id}/items', { params: { path: { id: dataset.id } }, body: { items } }),
      );
      return { dataset, added: added.itemIds.length, itemCount: added.itemCount };
    });
    if (!done) return;
    setSaved(done);
    if (target === 'new') setName('');
    datasets.reload();
  }

  const rowsWord = `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`;
  return (
    <section className="panel grid-save" aria-labelledby={titleId}>
      <h2 id={titleId}>Save as a dataset</h2>
      <form onSubmit={save} noValidate aria-labelledby={titleId}>
        <p className="muted">
          Each row becomes an item of the dataset with its inputs; the answers of a column can become the items'
          expected outputs.
        </p>
        <fieldset className="grid-save-where">
          <legend>Save the rows to</legend>
          <label className="checkbox">
            <input type="radio" name="grid-save-where" checked={target === 'new'} onChange={() => setWhere('new')} />A
            new dataset
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="grid-save-where"
              checked={target === 'existing'}
              disabled={list.length === 0}
              onChange={() => setWhere('existing')}
            />
            An existing dataset{list.length === 0 ? ' (this endpoint has none yet)' : ''}
          </label>
        </fieldset>
        <div className="inline">
          {target === 'new' ? (
            <Field label="Name of the new dataset" error={nameProblem}>
              {(id) => (
                <input
                  id={id}
                  type="text"
                  maxLength={NAME_MAX_LENGTH}
                  value={name}
                  onChange={(event) => setName(event.target.value)}
                />
              )}
            </Field>
          ) : (
            <Field label="Dataset">
              {(id) => <DatasetSelect id={id} datasets={list} value={existing?.id ?? ''} onChange={setDatasetId} />}
            </Field>
          )}
          <Field
            label="Expected outputs"
            hint={
              expectedColumn && withoutExpected > 0
                ? `${withoutExpected} of the rows have no answer in this column: their items get no expected output.`
                : undefined
            }
          >
            {(id) => (
              <select
                id={id}
                value={expectedColumn?.id ?? ''}
                onChange={(event) => setExpectedFrom(event.target.value)}
              >
                <option value="">None</option>
                {columns.map((column) => (
                  <option key={column.id} value={column.id}>
                    The answers of {columnTitle(column, prompts)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Button
          type="submit"
          kind="primary"
          blocked={writeBlock ?? (rows.length === 0 ? 'Add rows to the grid first.' : null)}
          disabled={saving.busy}
        >
          {saving.busy
            ? 'Saving…'
            : target === 'new'
              ? `Save ${rowsWord} as a dataset`
              : `Add ${rowsWord} to the dataset`}
        </Button>
        <Problems error={saving.error} />
        <p role="status" className={saved ? 'notice' : 'visually-hidden'}>
          {saved && (
            <>
              Saved {saved.added} {saved.added === 1 ? 'row' : 'rows'} to{' '}
              <Link href={datasetHref(saved.dataset)}>{saved.dataset.name}</Link>: it holds{' '}
              {formatNumber(saved.itemCount)} {saved.itemCount === 1 ? 'item' : 'items'}.
            </>
          )}
        </p>
      </form>
    </section>
  );
}
