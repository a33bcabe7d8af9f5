import {
  type ItemView,
  percent,
  regressedTable,
  runReport,
  type RunView,
  thresholdsFor,
  unmetThresholds,
} from './eval-report';

const DATASET = '11111111-1111-4111-8111-111111111111';

const summary = (changes: Partial<RunView['summary']> = {}): RunView['summary'] => ({
  items: 10,
  passed: 9,
  failed: 1,
  passRate: 0.9,
  baselinePassRate: 1,
  regressions: 1,
  improvements: 0,
  costUsd: 0.0123,
  durationMs: 4200,
  ...changes,
});

describe('eval run thresholds', () => {
  it("takes the endpoint's gate when it names the dataset, else every item passing and none regressing", () => {
    const gate = { datasetId: DATASET, minPassRate: 0.8, maxRegressions: 2 };
    expect(thresholdsFor(gate, DATASET)).toEqual({ minPassRate: 0.8, maxRegressions: 2, source: 'gate' });
    const other = '22222222-2222-4222-8222-222222222222';
    expect(thresholdsFor(gate, other)).toEqual({ minPassRate: 1, maxRegressions: 0, source: 'default' });
    expect(thresholdsFor(null, DATASET)).toEqual({ minPassRate: 1, maxRegressions: 0, source: 'default' });
  });

  it('names each threshold the run misses, and none at the bounds', () => {
    const thresholds = { minPassRate: 0.9, maxRegressions: 1, source: 'gate' as const };
    expect(unmetThresholds(summary(), thresholds)).toEqual([]);
    expect(unmetThresholds(summary({ passRate: 0.8999, regressions: 2 }), thresholds)).toEqual([
      'The pass rate 89.99 % is below the required 90 %.',
      'The run has 2 regressions (at most 1 allowed).',
    ]);
    expect(unmetThresholds(summary({ regressions: 1 }), { ...thresholds, maxRegressions: 0 })).toEqual([
      'The run has 1 regression (at most 0 allowed).',
    ]);
  });

  it('shows rates cut, never rounded up to a threshold', () => {
    expect(percent(0.99999)).toBe('99.99 %');
    expect(percent(0.57)).toBe('57 %');
    expect(percent(1)).toBe('100 %');
    expect(percent(0)).toBe('0 %');
  });
});

describe('eval run report', () => {
  const item = (itemId: string, candidate: ItemView['candidate']): ItemView => ({
    itemId,
    position: 0,
    verdict: 'regressed',
    candidate,
    baseline: { checks: [{ type: 'contains', pass: true, reason: null }], errorMessage: null },
  });

  it('tabulates the regressed items: the checks each side failed and why the candidate failed', () => {
    const table = regressedTable([
      item('item-a', {
        checks: [
          { type: 'contains', pass: false, reason: 'The output does not contain "ok".' },
          { type: 'regex', pass: false, reason: 'No match.' },
        ],
        errorMessage: null,
      }),
      item('item-b', { checks: [], errorMessage: 'The provider timed out' }),
    ]);
    expect(table).toEqual([
      'ITEM    CANDIDATE FAILED  BASELINE FAILED  REASON',
      'item-a  contains, regex   -                The output does not contain "ok".',
      'item-b  call failed       -                The provider timed out',
    ]);
  });

  it('cuts a long reason to one line', () => {
    const [, row] = regressedTable([
      item('item-a', {
        checks: [{ type: 'judge', pass: false, reason: `Too\nlong ${'x'.repeat(200)}` }],
        errorMessage: null,
      }),
    ]);
    expect(row).toMatch(/ Too long x+…$/);
    expect(row.length).toBeLessThan(160);
  });

  it('reports the summary, the thresholds and the unmet ones', () => {
    const run: RunView = {
      id: 'run-1',
      status: 'completed',
      datasetVersion: 3,
      candidate: { promptId: 'p-1', versionNumber: 2 },
      baseline: null,
      summary: summary({ baselinePassRate: null, regressions: 0 }),
      errorMessage: null,
    };
    const lines = runReport({
      run,
      datasetName: 'smoke',
      thresholds: { minPassRate: 1, maxRegressions: 0, source: 'default' },
      regressed: [],
    });
    expect(lines).toEqual([
      'Run run-1 completed: dataset "smoke" at version 3, version 2 of prompt p-1 against no baseline',
      'Items: 10, passed 9, failed 1 (pass rate 90 %)',
      'Baseline pass rate: none; regressions 0, improvements 0',
      'Cost: $0.012300; duration 4.2 s',
      'Thresholds (no promotion gate on this dataset): pass rate at least 100 %, at most 0 regressions: NOT met',
      '  The pass rate 90 % is below the required 100 %.',
    ]);
  });
});
