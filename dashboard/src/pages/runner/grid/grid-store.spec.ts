import { cellKey, type GridColumn, type GridRow } from './grid-model';
import { keepGrid, keptGridOf } from './grid-store';

/** A Storage over a Map, as the browser's sessionStorage behaves. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const rows: GridRow[] = [
  { id: 'r1', inputs: { text: 'a' }, source: { kind: 'typed' } },
  { id: 'r2', inputs: { text: 'b' }, source: { kind: 'dataset', datasetName: 'Cases' } },
  { id: 'r3', inputs: { text: 'c' }, source: { kind: 'log', logId: 'l1' } },
];
const columns: GridColumn[] = [
  { id: 'a', kind: 'draft', promptId: 'p1' },
  { id: 'b', kind: 'version', promptId: 'p1', version: 2 },
];
const answered = {
  status: 'answered' as const,
  output: { summary: 'A' },
  costUsd: null,
  latencyMs: 80,
  logId: 'l9',
  llmModel: 'gpt-4o-mini',
  promptVersion: 2,
};

describe('the grid kept in the tab', () => {
  it('keeps rows, columns and finished cells by endpoint; cells still running come back as not run', () => {
    const storage = memoryStorage();
    const failed = { status: 'failed' as const, messages: ['Field text is required'], logId: null };
    keepGrid(
      'e1',
      {
        rows,
        columns,
        cells: {
          [cellKey('r1', 'a')]: answered,
          [cellKey('r1', 'b')]: failed,
          [cellKey('r2', 'a')]: { status: 'running', piece: { text: 'so far' } },
          [cellKey('r2', 'b')]: { status: 'pending' },
        },
      },
      storage,
    );
    expect(keptGridOf('e1', storage)).toEqual({
      rows,
      columns,
      cells: { [cellKey('r1', 'a')]: answered, [cellKey('r1', 'b')]: failed },
    });
    expect(keptGridOf('e2', storage)).toBeNull();
  });

  it('forgets an emptied grid', () => {
    const storage = memoryStorage();
    keepGrid('e1', { rows, columns, cells: {} }, storage);
    keepGrid('e1', { rows: [], columns: [], cells: {} }, storage);
    expect(storage.length).toBe(0);
  });

  it('reads nothing from an entry it did not write', () => {
    const storage = memoryStorage();
    for (const text of [
      'not json',
      '[]',
      JSON.stringify({ rows: [{ id: 'r1', inputs: 'text', source: { kind: 'typed' } }], columns: [], cells: {} }),
      JSON.stringify({ rows: [], columns: [{ id: 'a', kind: 'version', promptId: 'p1' }], cells: {} }),
      JSON.stringify({ rows: [], columns: [{ id: 'a', kind: 'other', promptId: 'p1' }], cells: {} }),
      JSON.stringify({ rows: Array.from({ length: 21 }, (_, i) => ({ ...rows[0], id: `r${i}` })), columns, cells: {} }),
    ]) {
      storage.setItem('promptgate:grid:e1', text);
      expect(keptGridOf('e1', storage)).toBeNull();
    }
    storage.setItem(
      'promptgate:grid:e1',
      JSON.stringify({ rows, columns, cells: { 'r1:a': answered, 'r1:b': { status: 'answered' } } }),
    );
    expect(keptGridOf('e1', storage)?.cells).toEqual({ 'r1:a': answered });
  });

  it('a storage that refuses the grid keeps nothing and does not throw', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(() => keepGrid('e1', { rows, columns, cells: {} }, storage)).not.toThrow();
  });
});
