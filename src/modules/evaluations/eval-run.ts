import type { CheckResult } from '../datasets/dataset-check';
import type { RunSummary } from './run-rules/run-summary';

export type EvalRunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export const EVAL_RUN_STATUSES: EvalRunStatus[] = ['queued', 'running', 'completed', 'failed', 'cancelled'];

/** Which prompt version a row runs: the run's candidate, or the baseline it is compared with. */
export type EvalSide = 'candidate' | 'baseline';

/** A prompt version, as a run names its candidate and baseline. */
export interface PromptVersionRef {
  promptId: string;
  versionNumber: number;
}

/** What a run is created with. */
export interface NewEvalRun {
  endpointId: string;
  datasetId: string;
  datasetVersion: number;
  keyId: string;
  candidate: PromptVersionRef;
  baseline: PromptVersionRef | null;
  concurrency: number;
  repeats: number;
  fresh: boolean;
}

/**
 * A run's figures: its items' passes and verdicts, what it spent and how long it took (null while it has not
 * started).
 */
export type EvalRunSummary = Omit<RunSummary, 'durationMs'> & { durationMs: number | null };

/** An eval_runs row. */
export interface EvalRun {
  id: string;
  tenantId: string;
  endpointId: string;
  datasetId: string;
  datasetVersion: number;
  keyId: string | null;
  candidatePromptId: string;
  candidateVersion: number;
  baselinePromptId: string | null;
  baselineVersion: number | null;
  concurrency: number;
  repeats: number;
  fresh: boolean;
  status: EvalRunStatus;
  /** Kept once the run completed; worked out from its rows before. */
  summary: EvalRunSummary | null;
  errorMessage: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** An eval_run_items row: one item, repeat and side. */
export interface EvalRunItemRow {
  id: string;
  runId: string;
  itemId: string;
  position: number;
  repeat: number;
  side: EvalSide;
  inputs: unknown;
  expectedOutput: unknown;
  status: 'pending' | 'claimed' | 'done';
  output: unknown;
  passed: boolean | null;
  checks: CheckResult[] | null;
  errorMessage: string | null;
  latencyMs: number | null;
  costUsd: number | null;
  judgeCostUsd: number | null;
  cached: boolean | null;
  logId: string | null;
}

/** An answer kept in the answer store. */
export interface StoredAnswer {
  output: unknown;
  latencyMs: number;
  costUsd: number | null;
  logId: string | null;
}
