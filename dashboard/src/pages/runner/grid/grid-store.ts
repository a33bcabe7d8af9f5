import { type Cells, type CellState, type GridColumn, type GridRow, MAX_COLUMNS, MAX_ROWS } from './grid-model';

/**
 * An endpoint's grid is kept in this tab (sessionStorage) as it changes, so following a cell's log link and coming
 * back, or a reload, finds it as it was: its rows, its columns and the cells that finished (a cell still running when
 * the page was left is shown as not run).
 */
const PREFIX = 'promptgate:grid:';

export interface KeptGrid {
  rows: GridRow[];
  columns: GridColumn[];
  cells: Cells;
}

export function keptGridOf(endpointId: string, storage: Storage = sessionStorage): KeptGrid | null {
  try {
    const kept = JSON.parse(storage.getItem(PREFIX + endpointId) ?? 'null') as unknown;
    return gridOf(kept);
  } catch {
    return null;
  }
}

export function keepGrid(endpointId: string, grid: KeptGrid, storage: Storage = sessionStorage): void {
  const cells: Cells = {};
  for (const [key, cell] of Object.entries(grid.cells)) {
    if (cell.status === 'answered' || cell.status === 'failed') cells[key] = cell;
  }
  try {
    if (grid.rows.length === 0 && grid.columns.length === 0) storage.removeItem(PREFIX + endpointId);
    else storage.setItem(PREFIX + endpointId, JSON.stringify({ rows: grid.rows, columns: grid.columns, cells }));
  } catch {
    // A full storage keeps nothing: the grid stays on the page until it is left.
  }
}

/** The grid in `value`, or null when it is not one this dashboard wrote. */
function gridOf(value: unknown): KeptGrid | null {
  if (!isObject(value)) return null;
  const { rows, columns, cells } = value;
  if (!Array.isArray(rows) || !Array.isArray(columns) || !isObject(cells)) return null;
  if (rows.length > MAX_ROWS || columns.length > MAX_COLUMNS) return null;
  if (!rows.every(isRow) || !columns.every(isColumn)) return null;
  const kept: Cells = {};
  for (const [key, cell] of Object.entries(cells)) if (isFinishedCell(cell)) kept[key] = cell;
  return { rows, columns, cells: kept };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRow(value: unknown): value is GridRow {
  if (!isObject(value) || typeof value.id !== 'string' || !isObject(value.inputs) || !isObject(value.source))
    return false;
  const source = value.source;
  return (
    source.kind === 'typed' ||
    (source.kind === 'dataset' && typeof source.datasetName === 'string') ||
    (source.kind === 'log' && typeof source.logId === 'string')
  );
}

function isColumn(value: unknown): value is GridColumn {
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.promptId !== 'string') return false;
  if (value.kind === 'version') return Number.isInteger(value.version);
  return value.kind === 'draft' || value.kind === 'prompt';
}

function isFinishedCell(value: unknown): value is CellState {
  if (!isObject(value)) return false;
  if (value.status === 'answered')
    return typeof value.logId === 'string' && typeof value.latencyMs === 'number' && 'output' in value;
  if (value.status === 'failed')
    return Array.isArray(value.messages) && (value.logId === null || typeof value.logId === 'string');
  return false;
}
