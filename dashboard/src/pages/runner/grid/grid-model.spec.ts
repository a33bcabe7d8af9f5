import type { Schemas } from '../../../api/client';
import type { KeptDraft } from '../../prompts/kept-draft';
import {
  addRows,
  cellKey,
  cellsOf,
  columnsFullReason,
  columnTitle,
  datasetItemsOf,
  type GridColumn,
  type GridRow,
  hasColumn,
  inputLines,
  MAX_COLUMNS,
  MAX_ROWS,
  progressOf,
  progressText,
  rowsFullReason,
  targetOf,
} from './grid-model';

type Prompt = Schemas['PromptResponse'];

const prompt = (overrides: Partial<Prompt> = {}): Prompt =>
  ({
    id: 'p1',
    endpointId: 'e1',
    name: 'Short',
    slug: 'short',
    status: 'Live',
    isDefault: true,
    currentVersion: 3,
    template: 'Summarize {{ inputs.text }}',
    llmModel: 'gpt-4o-mini',
    temperature: 0.2,
    maxTokens: 500,
    customParameters: { top_p: 0.9 },
    retries: 1,
    fallbackModels: [],
    ...overrides,
  }) as Prompt;

let ids = 0;
const makeId = () => `id${++ids}`;
const row = (id: string, inputs: Record<string, unknown> = { text: id }): GridRow => ({
  id,
  inputs,
  source: { kind: 'typed' },
});
const typed = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ inputs: { text: `t${index}` }, source: { kind: 'typed' as const } }));

describe('the grid: rows and columns', () => {
  it('adds rows in order up to 20 and counts those left out', () => {
    const first = addRows([], typed(15), makeId);
    expect(first).toMatchObject({ added: 15, leftOut: 0 });
    expect(first.rows.map((one) => one.inputs.text)).toEqual(typed(15).map((one) => one.inputs.text));
    const second = addRows(first.rows, typed(8), makeId);
    expect(second).toMatchObject({ added: 5, leftOut: 3 });
    expect(second.rows).toHaveLength(MAX_ROWS);
    expect(second.rows.slice(15).map((one) => one.inputs.text)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(new Set(second.rows.map((one) => one.id)).size).toBe(MAX_ROWS);
    expect(addRows(second.rows, typed(1), makeId)).toMatchObject({ added: 0, leftOut: 1 });
  });

  it('says why no row or column can be added once the grid is full, and nothing before', () => {
    expect(rowsFullReason(addRows([], typed(19), makeId).rows)).toBeNull();
    expect(rowsFullReason(addRows([], typed(20), makeId).rows)).toBe(
      'The grid holds at most 20 rows: remove one to add another.',
    );
    const columns: GridColumn[] = [
      { id: 'a', kind: 'draft', promptId: 'p1' },
      { id: 'b', kind: 'version', promptId: 'p1', version: 2 },
    ];
    expect(columnsFullReason(columns)).toBeNull();
    expect(columnsFullReason([...columns, { id: 'c', kind: 'prompt', promptId: 'p2' }])).toBe(
      `The grid compares at most ${MAX_COLUMNS} columns: remove one to add another.`,
    );
  });

  it('knows a column it has: the same kind of the same prompt, at the same version for a saved version', () => {
    const columns: GridColumn[] = [
      { id: 'a', kind: 'draft', promptId: 'p1' },
      { id: 'b', kind: 'version', promptId: 'p1', version: 2 },
    ];
    expect(hasColumn(columns, { kind: 'draft', promptId: 'p1' })).toBe(true);
    expect(hasColumn(columns, { kind: 'draft', promptId: 'p2' })).toBe(false);
    expect(hasColumn(columns, { kind: 'version', promptId: 'p1', version: 2 })).toBe(true);
    expect(hasColumn(columns, { kind: 'version', promptId: 'p1', version: 1 })).toBe(false);
    expect(hasColumn(columns, { kind: 'prompt', promptId: 'p1' })).toBe(false);
  });

  it('keeps only the cells of rows and columns still in the grid', () => {
    const cells = {
      [cellKey('r1', 'a')]: { status: 'pending' as const },
      [cellKey('r2', 'a')]: { status: 'pending' as const },
      [cellKey('r1', 'b')]: { status: 'pending' as const },
    };
    expect(Object.keys(cellsOf(cells, [row('r1')], [{ id: 'a', kind: 'draft', promptId: 'p1' }]))).toEqual([
      cellKey('r1', 'a'),
    ]);
  });

  it('titles a column by its prompt and what of it runs', () => {
    const prompts = [prompt()];
    expect(columnTitle({ id: 'a', kind: 'draft', promptId: 'p1' }, prompts)).toBe('Short, unsaved draft');
    expect(columnTitle({ id: 'b', kind: 'version', promptId: 'p1', version: 2 }, prompts)).toBe('Short v2');
    expect(columnTitle({ id: 'c', kind: 'prompt', promptId: 'p1' }, prompts)).toBe('Short, current version (v3)');
    expect(columnTitle({ id: 'd', kind: 'prompt', promptId: 'gone' }, prompts)).toBe(
      'A deleted prompt, current version',
    );
  });

  it('shows a row’s inputs one per line, an image as a mention and other values as JSON', () => {
    expect(inputLines({ text: 'hi', n: 2, tags: ['a'], picture: 'data:image/png;base64,AAAA' })).toEqual([
      { name: 'text', value: 'hi' },
      { name: 'n', value: '2' },
      { name: 'tags', value: '["a"]' },
      { name: 'picture', value: '(an image)' },
    ]);
  });
});

describe('the grid: what a column runs', () => {
  const kept: KeptDraft = {
    baseVersion: 2,
    draft: {
      name: 'Short',
      template: 'Edited {{ inputs.text }}',
      llmModel: 'gpt-4o',
      temperature: 0.5,
      maxTokens: '256',
      customParameters: '{}',
      retries: 0,
      fallbackModels: [],
    },
  };
  const edited = { template: 'Edited {{ inputs.text }}', llmModel: 'gpt-4o' };
  const fromKept = () => ({ prompt: edited });

  it('a draft column runs the kept changes as unsaved text', () => {
    expect(targetOf({ id: 'a', kind: 'draft', promptId: 'p1' }, prompt(), kept, fromKept)).toEqual({
      target: { prompt: edited },
    });
  });

  it('a draft column without kept changes runs the saved text, as unsaved text', () => {
    expect(targetOf({ id: 'a', kind: 'draft', promptId: 'p1' }, prompt(), null, fromKept)).toEqual({
      target: {
        prompt: {
          template: 'Summarize {{ inputs.text }}',
          llmModel: 'gpt-4o-mini',
          temperature: 0.2,
          maxTokens: 500,
          customParameters: { top_p: 0.9 },
          retries: 1,
          fallbackModels: [],
        },
      },
    });
  });

  it('a draft whose changes do not parse cannot run, and says why', () => {
    expect(
      targetOf({ id: 'a', kind: 'draft', promptId: 'p1' }, prompt(), kept, () => ({ problem: 'Pick a model' })),
    ).toEqual({ problem: 'The unsaved draft cannot run as it stands: Pick a model' });
  });

  it('a saved version runs the prompt at that version; another prompt runs at its current version', () => {
    expect(targetOf({ id: 'b', kind: 'version', promptId: 'p1', version: 2 }, prompt(), null, fromKept)).toEqual({
      target: { promptId: 'p1', version: 2 },
    });
    expect(targetOf({ id: 'c', kind: 'prompt', promptId: 'p1' }, prompt(), null, fromKept)).toEqual({
      target: { promptId: 'p1' },
    });
  });

  it('an archived prompt runs only as a draft, and a deleted one not at all', () => {
    const archived = prompt({ status: 'Archived' });
    expect(targetOf({ id: 'c', kind: 'prompt', promptId: 'p1' }, archived, null, fromKept)).toEqual({
      problem: 'Short is Archived, so it cannot run: unarchive it on its page first.',
    });
    expect(targetOf({ id: 'a', kind: 'draft', promptId: 'p1' }, archived, kept, fromKept)).toEqual({
      target: { prompt: edited },
    });
    expect(targetOf({ id: 'c', kind: 'prompt', promptId: 'p1' }, undefined, null, fromKept)).toEqual({
      problem: 'The prompt of this column no longer exists: remove the column.',
    });
  });
});

describe('the grid: progress and datasets', () => {
  const rows = [row('r1'), row('r2')];
  const columns: GridColumn[] = [
    { id: 'a', kind: 'draft', promptId: 'p1' },
    { id: 'b', kind: 'prompt', promptId: 'p1' },
  ];
  const answered = (output: unknown) => ({
    status: 'answered' as const,
    output,
    costUsd: 0.001,
    latencyMs: 120,
    logId: 'l1',
    llmModel: 'gpt-4o-mini',
    promptVersion: null,
  });

  it('counts the cells in each state and says how the run goes', () => {
    const cells = {
      [cellKey('r1', 'a')]: answered('one'),
      [cellKey('r1', 'b')]: { status: 'failed' as const, messages: ['No'], logId: null },
      [cellKey('r2', 'a')]: { status: 'running' as const, piece: { text: 'tw' } },
    };
    const progress = progressOf(cells, rows, columns);
    expect(progress).toEqual({ total: 4, idle: 1, pending: 0, running: 1, answered: 1, failed: 1 });
    expect(progressText(progress, 'running')).toBe('Running 4 cells, 3 at a time: 1 answered, 1 failed.');
    expect(progressText(progressOf({}, rows, columns), 'idle')).toBe('');
    expect(progressText(progressOf({}, rows, columns), 'stopped')).toBe('Stopped: 0 answered, 0 failed, 4 not run.');
    const done = { ...cells, [cellKey('r2', 'a')]: answered('two'), [cellKey('r2', 'b')]: answered('three') };
    expect(progressText(progressOf(done, rows, columns), 'idle')).toBe('Done: 3 answered, 1 failed.');
    expect(progressText(progressOf(cells, rows, columns), 'idle')).toBe('Done: 1 answered, 1 failed, 2 not run.');
  });

  it('makes one item per row, with the chosen column’s answers as expected outputs where it answered', () => {
    const cells = { [cellKey('r1', 'a')]: answered({ summary: 'One' }) };
    expect(datasetItemsOf(rows, cells, null)).toEqual({
      items: [{ inputs: { text: 'r1' } }, { inputs: { text: 'r2' } }],
      withoutExpected: 0,
    });
    expect(datasetItemsOf(rows, cells, 'a')).toEqual({
      items: [{ inputs: { text: 'r1' }, expectedOutput: { summary: 'One' } }, { inputs: { text: 'r2' } }],
      withoutExpected: 1,
    });
    expect(datasetItemsOf(rows, cells, 'b').withoutExpected).toBe(2);
  });
});
