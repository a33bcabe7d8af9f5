// The side-by-side grid, free of React: its rows (inputs) and columns (prompts to run), their limits, the state of
// each cell, what a column runs, and the dataset items the grid becomes.
import type { Schemas } from '../../../api/client';
import type { KeptDraft } from '../../prompts/kept-draft';

type Prompt = Schemas['PromptResponse'];
type UnsavedPrompt = Schemas['UnsavedPromptDto'];

/** A grid holds at most this many rows of inputs. */
export const MAX_ROWS = 20;
/** A grid holds at most this many columns (prompts to compare). */
export const MAX_COLUMNS = 3;
/** How many cells run at once: more would mostly queue behind the key's limit of model calls in flight. */
export const RUNS_AT_ONCE = 3;

/** Where a row's inputs came from. */
export type RowSource = { kind: 'typed' } | { kind: 'dataset'; datasetName: string } | { kind: 'log'; logId: string };

/** One row: an execution body to run in every column. */
export interface GridRow {
  id: string;
  inputs: Record<string, unknown>;
  source: RowSource;
}

/**
 * One column: the unsaved draft of a prompt (the editor's changes kept in this browser, else its saved text), a saved
 * version of a prompt, or a prompt at its current version.
 */
export type GridColumn =
  | { id: string; kind: 'draft'; promptId: string }
  | { id: string; kind: 'version'; promptId: string; version: number }
  | { id: string; kind: 'prompt'; promptId: string };

export type ColumnKind = GridColumn['kind'];

/** A column as it is chosen, before it has an id. */
export type ColumnChoice =
  | { kind: 'draft'; promptId: string }
  | { kind: 'version'; promptId: string; version: number }
  | { kind: 'prompt'; promptId: string };

/** What a test run of a column takes: a saved prompt (at a version, else its current one), or unsaved text. */
export type GridTarget = { promptId: string; version?: number } | { prompt: UnsavedPrompt };

/** A finished run of a cell, as the grid shows it. */
export interface CellAnswer {
  output: unknown;
  costUsd: number | null;
  latencyMs: number;
  logId: string;
  llmModel: string;
  promptVersion: number | null;
}

/** What the answer so far holds while it streams: its text, or the object of its output fields so far. */
export type CellPiece = { text: string } | { output: unknown };

/** A cell that has not run is absent from the grid's cells. */
export type CellState =
  | { status: 'pending' }
  | { status: 'running'; piece: CellPiece | null }
  | ({ status: 'answered' } & CellAnswer)
  | { status: 'failed'; messages: string[]; logId: string | null };

export type Cells = Record<string, CellState>;

export function cellKey(rowId: string, columnId: string): string {
  return `${rowId}:${columnId}`;
}

/** A fresh id for a row or a column, unique within the tab. */
export function newId(): string {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
}

/**
 * The rows with `inputs` added at the end, as many as fit under MAX_ROWS, in order; `leftOut` counts those that did
 * not fit.
 */
export function addRows(
  rows: GridRow[],
  additions: { inputs: Record<string, unknown>; source: RowSource }[],
  makeId: () => string = newId,
): { rows: GridRow[]; added: number; leftOut: number } {
  const room = Math.max(0, MAX_ROWS - rows.length);
  const taken = additions.slice(0, room).map((addition) => ({ id: makeId(), ...addition }));
  return { rows: [...rows, ...taken], added: taken.length, leftOut: additions.length - taken.length };
}

/** Why no row can be added now, or null. */
export function rowsFullReason(rows: GridRow[]): string | null {
  return rows.length >= MAX_ROWS ? `The grid holds at most ${MAX_ROWS} rows: remove one to add another.` : null;
}

/** Why no column can be added now, or null. */
export function columnsFullReason(columns: GridColumn[]): string | null {
  return columns.length >= MAX_COLUMNS
    ? `The grid compares at most ${MAX_COLUMNS} columns: remove one to add another.`
    : null;
}

/** Whether the grid already has this column (the same prompt, as the same kind, at the same version). */
export function hasColumn(columns: GridColumn[], choice: ColumnChoice): boolean {
  return columns.some(
    (column) =>
      column.kind === choice.kind &&
      column.promptId === choice.promptId &&
      (column.kind !== 'version' || (choice.kind === 'version' && column.version === choice.version)),
  );
}

/** The cells of the rows and columns still in the grid (a removed row or column takes its cells with it). */
export function cellsOf(cells: Cells, rows: GridRow[], columns: GridColumn[]): Cells {
  const kept: Cells = {};
  for (const row of rows) {
    for (const column of columns) {
      const key = cellKey(row.id, column.id);
      if (cells[key]) kept[key] = cells[key];
    }
  }
  return kept;
}

/** A column's heading: the prompt and what of it runs. */
export function columnTitle(column: GridColumn, prompts: Prompt[]): string {
  const prompt = prompts.find((one) => one.id === column.promptId);
  const name = prompt?.name ?? 'A deleted prompt';
  switch (column.kind) {
    case 'draft':
      return `${name}, unsaved draft`;
    case 'version':
      return `${name} v${column.version}`;
    case 'prompt':
      return `${name}, current version${prompt ? ` (v${prompt.currentVersion})` : ''}`;
  }
}

/** The saved prompt's content as a test run of unsaved text takes it. */
export function unsavedOfSaved(prompt: Prompt): UnsavedPrompt {
  return {
    template: prompt.template,
    llmModel: prompt.llmModel,
    temperature: prompt.temperature,
    maxTokens: prompt.maxTokens,
    customParameters: prompt.customParameters,
    retries: prompt.retries,
    fallbackModels: prompt.fallbackModels,
  };
}

/**
 * What a column runs, or why it cannot run. A draft column runs the editor's changes kept in this browser for the
 * prompt (`unsavedOfKept` turns them into a prompt, or says what in them does not parse), else the prompt's saved
 * text, always as unsaved text; the other kinds run the saved prompt. An archived prompt cannot run.
 */
export function targetOf(
  column: GridColumn,
  prompt: Prompt | undefined,
  kept: KeptDraft | null,
  unsavedOfKept: (kept: KeptDraft) => { prompt: UnsavedPrompt } | { problem: string },
): { target: GridTarget } | { problem: string } {
  if (!prompt) return { problem: 'The prompt of this column no longer exists: remove the column.' };
  if (column.kind === 'draft') {
    if (!kept) return { target: { prompt: unsavedOfSaved(prompt) } };
    const unsaved = unsavedOfKept(kept);
    return 'problem' in unsaved
      ? { problem: `The unsaved draft cannot run as it stands: ${unsaved.problem}` }
      : { target: { prompt: unsaved.prompt } };
  }
  if (prompt.status === 'Archived')
    return { problem: `${prompt.name} is Archived, so it cannot run: unarchive it on its page first.` };
  return column.kind === 'version'
    ? { target: { promptId: prompt.id, version: column.version } }
    : { target: { promptId: prompt.id } };
}

/** How many cells are in each state, and how many have not run. */
export interface Progress {
  total: number;
  idle: number;
  pending: number;
  running: number;
  answered: number;
  failed: number;
}

export function progressOf(cells: Cells, rows: GridRow[], columns: GridColumn[]): Progress {
  const progress: Progress = { total: 0, idle: 0, pending: 0, running: 0, answered: 0, failed: 0 };
  for (const row of rows) {
    for (const column of columns) {
      progress.total += 1;
      const cell = cells[cellKey(row.id, column.id)];
      progress[cell ? cell.status : 'idle'] += 1;
    }
  }
  return progress;
}

/** Where the grid's runs stand: one going on, the last one stopped, or none going on. */
export type RunState = 'running' | 'stopped' | 'idle';

/** The run's progress in words, for the live region: empty before any cell finished. */
export function progressText(progress: Progress, state: RunState): string {
  const { total, answered, failed } = progress;
  const counts = `${answered} answered, ${failed} failed`;
  if (state === 'running')
    return `Running ${total} ${total === 1 ? 'cell' : 'cells'}, ${RUNS_AT_ONCE} at a time: ${counts}.`;
  const left = total - answered - failed;
  if (state === 'stopped') return `Stopped: ${counts}, ${left} not run.`;
  if (answered + failed === 0) return '';
  return `Done: ${counts}${left > 0 ? `, ${left} not run` : ''}.`;
}

/** An item as the datasets API takes it. */
export interface GridItem {
  inputs: Record<string, unknown>;
  expectedOutput?: unknown;
}

/**
 * One dataset item per row, its inputs as they are; with `expectedFrom`, a column whose answered cells give the items'
 * expected outputs (a row whose cell there did not answer gets none, and is counted in `withoutExpected`).
 */
export function datasetItemsOf(
  rows: GridRow[],
  cells: Cells,
  expectedFrom: string | null,
): { items: GridItem[]; withoutExpected: number } {
  let withoutExpected = 0;
  const items = rows.map((row) => {
    if (expectedFrom === null) return { inputs: row.inputs };
    const cell = cells[cellKey(row.id, expectedFrom)];
    if (cell?.status === 'answered') return { inputs: row.inputs, expectedOutput: cell.output };
    withoutExpected += 1;
    return { inputs: row.inputs };
  });
  return { items, withoutExpected };
}

/** A row's inputs as one line per field, for its heading. */
export function inputLines(inputs: Record<string, unknown>): { name: string; value: string }[] {
  return Object.entries(inputs).map(([name, value]) => ({ name, value: valueText(value) }));
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value.startsWith('data:image/') ? '(an image)' : value;
  return JSON.stringify(value);
}
