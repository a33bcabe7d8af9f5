import { type GateInput, type GateRun, gateDecision } from './promotion-gate';

const PROMPT = 'prompt-candidate';
const DEFAULT = { promptId: 'prompt-default', versionNumber: 2 };

function run(overrides: Partial<GateRun> = {}): GateRun {
  return {
    id: 'run-1',
    datasetVersion: 4,
    candidate: { promptId: PROMPT, versionNumber: 7 },
    baseline: DEFAULT,
    summary: { passRate: 1, regressions: 0 },
    ...overrides,
  };
}

function input(overrides: Partial<GateInput> = {}): GateInput {
  return {
    gate: { datasetId: 'dataset-1', minPassRate: 0.9, maxRegressions: 0 },
    datasetName: 'Support tickets',
    datasetVersion: 4,
    promptId: PROMPT,
    promptVersion: 7,
    defaultPrompt: DEFAULT,
    run: run(),
    ...overrides,
  };
}

describe('gateDecision', () => {
  it('opens on a current run against the current default that meets both thresholds', () => {
    expect(gateDecision(input())).toEqual({ open: true, runId: 'run-1' });
  });

  it('opens exactly at the thresholds', () => {
    const summary = { passRate: 0.9, regressions: 2 };
    const gate = { datasetId: 'dataset-1', minPassRate: 0.9, maxRegressions: 2 };
    expect(gateDecision(input({ gate, run: run({ summary }) }))).toEqual({ open: true, runId: 'run-1' });
  });

  it('opens on a run without a baseline when the endpoint has no default', () => {
    expect(gateDecision(input({ defaultPrompt: null, run: run({ baseline: null }) }))).toEqual({
      open: true,
      runId: 'run-1',
    });
  });

  it('stays closed without a run for the current version', () => {
    const closed = {
      open: false,
      reasons: [
        'No completed evaluation run of dataset "Support tickets" for version 7 of this prompt: run the dataset on ' +
          'that version first.',
      ],
    };
    expect(gateDecision(input({ run: null }))).toEqual(closed);
    expect(gateDecision(input({ run: run({ candidate: { promptId: PROMPT, versionNumber: 6 } }) }))).toEqual(closed);
    expect(gateDecision(input({ run: run({ candidate: { promptId: 'other', versionNumber: 7 } }) }))).toEqual(closed);
  });

  it('stays closed on a run of an older dataset version', () => {
    expect(gateDecision(input({ run: run({ datasetVersion: 3 }) }))).toEqual({
      open: false,
      reasons: ['The run used dataset version 3 and it is now 4: run it again.'],
    });
  });

  it('stays closed when the default prompt changed since the run', () => {
    const reasonFor = (baseline: GateRun['baseline'], defaultPrompt: GateInput['defaultPrompt']) =>
      gateDecision(input({ run: run({ baseline }), defaultPrompt }));
    expect(reasonFor(DEFAULT, { ...DEFAULT, versionNumber: 3 })).toEqual({
      open: false,
      reasons: [
        'The default prompt changed since the run: the run compared with version 2 of prompt prompt-default, and ' +
          'the default is now version 3 of prompt prompt-default.',
      ],
    });
    expect(reasonFor(DEFAULT, { promptId: 'another', versionNumber: 2 }).open).toBe(false);
    expect(reasonFor(null, DEFAULT)).toEqual({
      open: false,
      reasons: [
        'The default prompt changed since the run: the run compared with no baseline, and the default is now ' +
          'version 2 of prompt prompt-default.',
      ],
    });
    expect(reasonFor(DEFAULT, null)).toEqual({
      open: false,
      reasons: [
        'The default prompt changed since the run: the run compared with version 2 of prompt prompt-default, and ' +
          'the default is now none.',
      ],
    });
  });

  it('stays closed below the pass rate, showing the rate cut rather than rounded up', () => {
    expect(gateDecision(input({ run: run({ summary: { passRate: 0.82, regressions: 0 } }) }))).toEqual({
      open: false,
      reasons: ['The pass rate 0.82 is below the required 0.9.'],
    });
    const justUnder = gateDecision(input({ run: run({ summary: { passRate: 0.89996, regressions: 0 } }) }));
    expect(justUnder).toEqual({ open: false, reasons: ['The pass rate 0.8999 is below the required 0.9.'] });
    const gate = { datasetId: 'dataset-1', minPassRate: 0.6, maxRegressions: 0 };
    const exact = gateDecision(input({ gate, run: run({ summary: { passRate: 57 / 100, regressions: 0 } }) }));
    expect(exact).toEqual({ open: false, reasons: ['The pass rate 0.57 is below the required 0.6.'] });
  });

  it('stays closed over the regressions allowed', () => {
    expect(gateDecision(input({ run: run({ summary: { passRate: 1, regressions: 3 } }) }))).toEqual({
      open: false,
      reasons: ['The run has 3 regressions (at most 0 allowed).'],
    });
    const gate = { datasetId: 'dataset-1', minPassRate: 0.5, maxRegressions: 0 };
    expect(gateDecision(input({ gate, run: run({ summary: { passRate: 1, regressions: 1 } }) }))).toEqual({
      open: false,
      reasons: ['The run has 1 regression (at most 0 allowed).'],
    });
  });

  it('gives every reason that applies', () => {
    const stale = run({ datasetVersion: 3, baseline: null, summary: { passRate: 0.5, regressions: 1 } });
    const decision = gateDecision(input({ run: stale }));
    expect(decision.open).toBe(false);
    if (!decision.open) expect(decision.reasons).toHaveLength(4);
  });
});
