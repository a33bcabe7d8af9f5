import type { RunSummary } from './run-summary';

/** A prompt at one of its versions: a run's candidate or baseline, or the endpoint's default. */
export interface PromptVersionRef {
  promptId: string;
  versionNumber: number;
}

/** An endpoint's promotion gate: the dataset a prompt must be evaluated on, and the thresholds the run must meet. */
export interface PromotionGate {
  datasetId: string;
  minPassRate: number;
  maxRegressions: number;
}

/** A completed run as the gate reads it. */
export interface GateRun {
  id: string;
  datasetVersion: number;
  candidate: PromptVersionRef;
  baseline: PromptVersionRef | null;
  summary: Pick<RunSummary, 'passRate' | 'regressions'>;
}

export interface GateInput {
  gate: PromotionGate;
  /** The gate's dataset: its name (for messages) and current version. */
  datasetName: string;
  datasetVersion: number;
  /** The prompt being promoted and its current version. */
  promptId: string;
  promptVersion: number;
  /** The endpoint's default prompt at its current version; null when the endpoint has none. */
  defaultPrompt: PromptVersionRef | null;
  /** The latest completed run of the gate's dataset for the prompt's current version; null when there is none. */
  run: GateRun | null;
}

export type GateDecision = { open: true; runId: string } | { open: false; reasons: string[] };

/**
 * Whether a prompt may be promoted past its endpoint's gate. The gate opens on a completed run of the gate's dataset
 * for the prompt's current version that:
 * - ran on the dataset's current version (items changed since make it stale);
 * - compared with the endpoint's current default prompt version, or with no baseline when the endpoint has no default
 *   (a run against another baseline says nothing about what the promotion replaces);
 * - has a pass rate of at least `minPassRate` and at most `maxRegressions` regressions.
 * Otherwise it stays closed, with one sentence per unmet condition (every one that applies, so that one new run can
 * fix them all).
 */
export function gateDecision(input: GateInput): GateDecision {
  const { gate, run } = input;
  const isForThisVersion =
    run !== null && run.candidate.promptId === input.promptId && run.candidate.versionNumber === input.promptVersion;
  if (!isForThisVersion) {
    return {
      open: false,
      reasons: [
        `No completed evaluation run of dataset "${input.datasetName}" for version ${input.promptVersion} of this ` +
          'prompt: run the dataset on that version first.',
      ],
    };
  }
  const reasons: string[] = [];
  if (run.datasetVersion !== input.datasetVersion) {
    reasons.push(
      `The run used dataset version ${run.datasetVersion} and it is now ${input.datasetVersion}: run it again.`,
    );
  }
  if (!sameVersion(run.baseline, input.defaultPrompt)) {
    reasons.push(
      `The default prompt changed since the run: the run compared with ${describe(run.baseline, 'no baseline')}, ` +
        `and the default is now ${describe(input.defaultPrompt, 'none')}.`,
    );
  }
  if (run.summary.passRate < gate.minPassRate) {
    reasons.push(`The pass rate ${rateText(run.summary.passRate)} is below the required ${gate.minPassRate}.`);
  }
  if (run.summary.regressions > gate.maxRegressions) {
    const count = run.summary.regressions;
    reasons.push(
      `The run has ${count} ${count === 1 ? 'regression' : 'regressions'} (at most ${gate.maxRegressions} allowed).`,
    );
  }
  return reasons.length === 0 ? { open: true, runId: run.id } : { open: false, reasons };
}

function sameVersion(a: PromptVersionRef | null, b: PromptVersionRef | null): boolean {
  if (a === null || b === null) return a === b;
  return a.promptId === b.promptId && a.versionNumber === b.versionNumber;
}

function describe(ref: PromptVersionRef | null, none: string): string {
  return ref === null ? none : `version ${ref.versionNumber} of prompt ${ref.promptId}`;
}

/**
 * A pass rate as messages show it: cut (not rounded) to four decimals, so a rate just under its threshold never
 * shows as equal to it (0.89996 shows as 0.8999, not 0.9). The small allowance keeps a rate whose product falls a hair
 * under a whole number (0.57 × 10,000 is 5699.999999999999) from showing one step lower.
 */
function rateText(rate: number): string {
  return String(Math.floor(rate * 10_000 + 1e-6) / 10_000);
}
