import { useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'wouter';
import { api, unwrap } from '../../../api/client';
import { useQuery } from '../../../router';
import { Button, Loading, PageHeader, Problems } from '../../../ui/controls';
import { useLoad } from '../../../ui/use-load';
import { keptDraftOf } from '../../prompts/kept-draft';
import { RunnerTabs } from '../runner-tabs';
import { allPromptsOf, type Endpoint, endpointOf, type Prompt } from '../test-run';
import { runCell, unsavedOfKept } from './cell-run';
import { AddColumnForm } from './grid-columns';
import {
  addRows,
  cellKey,
  cellsOf,
  type CellState,
  type ColumnChoice,
  columnsFullReason,
  type GridColumn,
  type GridRow,
  MAX_COLUMNS,
  MAX_ROWS,
  newId,
  progressOf,
  progressText,
  type RowSource,
  RUNS_AT_ONCE,
  type RunState,
  targetOf,
} from './grid-model';
import { RowsPanel } from './grid-rows';
import { keepGrid, type KeptGrid, keptGridOf } from './grid-store';
import { GridTable } from './grid-table';
import { runPool } from './run-pool';
import { SaveGridAsDataset } from './save-grid';
import '../runner.css';
import './grid.css';

/**
 * The test runner's side-by-side view: rows of inputs (typed, from a dataset, or from the endpoint's recent calls)
 * against up to three prompts (an unsaved draft, a saved version, another prompt), every cell a test run.
 * `?prompt=<id>` is the prompt a new column starts on.
 */
export default function GridPage() {
  const { id } = useParams<{ id: string }>();
  const [query] = useQuery();
  const loaded = useLoad(async () => {
    const [endpoint, prompts] = await Promise.all([endpointOf(id), allPromptsOf(id)]);
    return { endpoint, prompts };
  }, [id]);

  // Until another endpoint's data arrives, the previous one is not shown as this one.
  if (!loaded.data || loaded.data.endpoint.id !== id) {
    return (
      <section>
        <PageHeader title="Compare side by side" back={<Link href={`/endpoints/${id}`}>← Endpoint</Link>} />
        <Problems error={loaded.error} />
        {!loaded.error && <Loading what="the endpoint" />}
      </section>
    );
  }
  const { endpoint, prompts } = loaded.data;
  return (
    <section className="grid-page">
      <PageHeader
        title={`Compare side by side: ${endpoint.name}`}
        back={<Link href={`/endpoints/${id}`}>← {endpoint.name}</Link>}
      />
      <RunnerTabs endpointId={id} view="grid" promptId={query.get('prompt')} />
      <p className="muted">
        Runs every row of inputs with every column's prompt, as the test runner does: each cell is a run of its own,
        logged with source TestPage and never answered from the cache. Up to {MAX_ROWS} rows and {MAX_COLUMNS} columns;
        the grid is kept in this tab until it is emptied.
      </p>
      {prompts.length === 0 ? (
        <div className="empty panel">
          <p>This endpoint has no prompt yet: create one to compare it.</p>
          <Link href={`/endpoints/${id}/prompts/new`}>Create a prompt</Link>
        </div>
      ) : (
        <Grid key={endpoint.id} endpoint={endpoint} prompts={prompts} preferredPromptId={query.get('prompt')} />
      )}
    </section>
  );
}

const EMPTY: KeptGrid = { rows: [], columns: [], cells: {} };

function Grid({
  endpoint,
  prompts,
  preferredPromptId,
}: {
  endpoint: Endpoint;
  prompts: Prompt[];
  preferredPromptId: string | null;
}) {
  const [grid, setGrid] = useState<KeptGrid>(() => keptGridOf(endpoint.id) ?? EMPTY);
  const latest = useRef(grid);
  latest.current = grid;
  const [runState, setRunState] = useState<RunState>('idle');
  const running = runState === 'running';
  // Stopping a run starts no further cell and stops the calls in flight.
  const stopped = useRef(false);
  const calls = useRef<AbortController | null>(null);
  const datasets = useLoad(
    () => unwrap(api.GET('/admin/v1/endpoints/{id}/datasets', { params: { path: { id: endpoint.id } } })),
    [endpoint.id],
  );
  const gridTitle = useId();
  const { rows, columns, cells } = grid;
  const progress = progressOf(cells, rows, columns);

  useEffect(() => keepGrid(endpoint.id, grid), [endpoint.id, grid]);
  // Leaving the page stops the run.
  useEffect(() => stop, []);

  /** Every change goes through here, on the newest grid; a removed row or column takes its cells with it. */
  function update(change: (previous: KeptGrid) => KeptGrid) {
    setGrid((previous) => {
      const next = change(previous);
      latest.current = { ...next, cells: cellsOf(next.cells, next.rows, next.columns) };
      return latest.current;
    });
  }

  function onAddRows(additions: { inputs: Record<string, unknown>; source: RowSource }[]) {
    const before = latest.current.rows;
    const result = addRows(before, additions);
    const added = result.rows.slice(before.length);
    update((previous) => ({ ...previous, rows: [...previous.rows, ...added].slice(0, MAX_ROWS) }));
    return result;
  }

  function onAddColumn(choice: ColumnChoice) {
    const column: GridColumn = { id: newId(), ...choice };
    update((previous) => ({ ...previous, columns: [...previous.columns, column].slice(0, MAX_COLUMNS) }));
  }

  function removeRow(row: GridRow) {
    update((previous) => ({ ...previous, rows: previous.rows.filter((one) => one.id !== row.id) }));
  }

  function removeColumn(column: GridColumn) {
    update((previous) => ({ ...previous, columns: previous.columns.filter((one) => one.id !== column.id) }));
  }

  function setCell(key: string, cell: CellState) {
    update((previous) => {
      // A piece that arrives after the answer is not shown over it.
      const before = previous.cells[key]?.status;
      if (cell.status === 'running' && (before === 'answered' || before === 'failed')) return previous;
      return { ...previous, cells: { ...previous.cells, [key]: cell } };
    });
  }

  function stop() {
    stopped.current = true;
    calls.current?.abort();
  }

  async function runAll() {
    if (running) return;
    const { rows: runRows, columns: runColumns } = latest.current;
    // What each column runs is read once, when the run starts: a draft column takes the changes kept at that moment.
    const targets = new Map(
      runColumns.map((column) => [
        column.id,
        targetOf(
          column,
          prompts.find((prompt) => prompt.id === column.promptId),
          column.kind === 'draft' ? keptDraftOf(column.promptId) : null,
          unsavedOfKept,
        ),
      ]),
    );
    const jobs = runRows.flatMap((row) => runColumns.map((column) => ({ row, column })));
    stopped.current = false;
    const controller = new AbortController();
    calls.current = controller;
    setRunState('running');
    const pending = Object.fromEntries(
      jobs.map(({ row, column }): [string, CellState] => [cellKey(row.id, column.id), { status: 'pending' }]),
    );
    update((previous) => ({ ...previous, cells: { ...previous.cells, ...pending } }));
    const stoppedCells: string[] = [];
    const notStarted = await runPool(
      jobs,
      RUNS_AT_ONCE,
      async ({ row, column }) => {
        const key = cellKey(row.id, column.id);
        const target = targets.get(column.id);
        if (!target || 'problem' in target) {
          setCell(key, { status: 'failed', messages: [target?.problem ?? 'This column cannot run.'], logId: null });
          return;
        }
        setCell(key, { status: 'running', piece: null });
        const answer = await runCell(
          endpoint.id,
          target.target,
          row.inputs,
          (piece) => setCell(key, { status: 'running', piece }),
          controller.signal,
        );
        if (answer) setCell(key, answer);
        else stoppedCells.push(key);
      },
      () => stopped.current,
    );
    // The cells a stop kept from starting, or stopped while they ran, are not run.
    update((previous) => {
      const cells = { ...previous.cells };
      for (const { row, column } of notStarted) delete cells[cellKey(row.id, column.id)];
      for (const key of stoppedCells) delete cells[key];
      return { ...previous, cells };
    });
    calls.current = null;
    setRunState(stopped.current ? 'stopped' : 'idle');
  }

  const busyReason = running ? 'Wait for the run to finish, or stop it.' : null;
  const runBlock =
    rows.length === 0 ? 'Add a row of inputs first.' : columns.length === 0 ? 'Add a column to run first.' : null;
  return (
    <>
      <div className="grid-setup">
        <RowsPanel endpoint={endpoint} rows={rows} datasets={datasets} onAdd={onAddRows} />
        <section className="panel grid-columns-panel" aria-labelledby={`${gridTitle}-columns`}>
          <h2 id={`${gridTitle}-columns`}>
            Columns <span className="muted grid-count">{`${columns.length} of ${MAX_COLUMNS}`}</span>
          </h2>
          <AddColumnForm
            prompts={prompts}
            columns={columns}
            preferredPromptId={preferredPromptId}
            fullReason={columnsFullReason(columns)}
            onAdd={onAddColumn}
          />
        </section>
      </div>
      <section className="panel grid-results" aria-labelledby={gridTitle}>
        <h2 id={gridTitle}>The grid</h2>
        <div className="run-bar">
          <Button kind="primary" onClick={() => void runAll()} disabled={running} blocked={runBlock}>
            {running ? 'Running…' : 'Run all'}
          </Button>
          {running && <Button onClick={stop}>Stop</Button>}
          <p className="grid-progress" role="status">
            {progressText(progress, runState)}
          </p>
        </div>
        {rows.length === 0 && columns.length === 0 ? (
          <p className="muted">Add rows of inputs and the prompts to compare as columns: the answers fill the grid.</p>
        ) : (
          <GridTable
            rows={rows}
            columns={columns}
            cells={cells}
            prompts={prompts}
            removeBlock={busyReason}
            onRemoveRow={removeRow}
            onRemoveColumn={removeColumn}
          />
        )}
      </section>
      <SaveGridAsDataset
        endpointId={endpoint.id}
        rows={rows}
        columns={columns}
        cells={cells}
        prompts={prompts}
        datasets={datasets}
      />
    </>
  );
}
