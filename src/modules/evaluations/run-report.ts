import type { CheckResult } from '../datasets/dataset-check';
import type { EvalRun, EvalRunItemRow, EvalRunSummary, EvalSide } from './eval-run';
import { type ItemVerdict as Verdict, itemPasses, verdictOf } from './run-rules/item-verdict';
import { summarize } from './run-rules/run-summary';

/** One side's answer to one repeat of an item. */
export interface SideAnswer {
  repeat: number;
  /** Null until the row has run. */
  passed: boolean | null;
  output: unknown;
  checks: CheckResult[];
  errorMessage: string | null;
  latencyMs: number | null;
  costUsd: number | null;
  cached: boolean | null;
  logId: string | null;
}

/** One side of an item: the first repeat's answer, whether the side passes over its repeats, and every repeat. */
export interface SideReport extends Omit<SideAnswer, 'repeat'> {
  repeats: SideAnswer[];
}

export interface ItemReport {
  itemId: string;
  position: number;
  inputs: unknown;
  expectedOutput: unknown;
  /** Null until every row of the item has run. */
  verdict: Verdict | null;
  candidate: SideReport;
  baseline: SideReport | null;
}

/** The items of a run, in dataset order, each with its sides and verdict. */
export function itemReports(rows: EvalRunItemRow[]): ItemReport[] {
  const byPosition = new Map<number, EvalRunItemRow[]>();
  for (const row of rows) {
    const list = byPosition.get(row.position) ?? [];
    list.push(row);
    byPosition.set(row.position, list);
  }
  return [...byPosition.entries()]
    .sort(([a], [b]) => a - b)
    .map(([position, itemRows]) => {
      const candidate = sideOf(itemRows, 'candidate')!;
      const baseline = sideOf(itemRows, 'baseline');
      const done = itemRows.every((row) => row.status === 'done');
      return {
        itemId: itemRows[0].itemId,
        position,
        inputs: itemRows[0].inputs,
        expectedOutput: itemRows[0].expectedOutput,
        verdict: done ? verdictOf(candidate.passed === true, baseline ? baseline.passed === true : null) : null,
        candidate,
        baseline,
      };
    });
}

/**
 * The run's summary from its rows: a row not run yet counts as not passing. What the run spent is what its calls cost
 * (an answer from the store cost nothing this time) and its judges' calls.
 */
export function summaryOf(run: EvalRun, rows: EvalRunItemRow[], now: Date): EvalRunSummary {
  const costs = new Map<number, number>();
  for (const row of rows) {
    const cost = (row.cached ? 0 : (row.costUsd ?? 0)) + (row.judgeCostUsd ?? 0);
    costs.set(row.position, (costs.get(row.position) ?? 0) + cost);
  }
  const end = run.finishedAt ?? now;
  const durationMs = run.startedAt ? new Date(end).getTime() - new Date(run.startedAt).getTime() : 0;
  const summary = summarize(
    itemReports(rows).map((report) => ({
      candidatePass: report.candidate.passed === true,
      baselinePass: report.baseline ? report.baseline.passed === true : null,
      costUsd: costs.get(report.position) ?? 0,
    })),
    { hasBaseline: run.baselinePromptId !== null, durationMs },
  );
  return { ...summary, durationMs: run.startedAt ? summary.durationMs : null };
}

function sideOf(rows: EvalRunItemRow[], side: EvalSide): SideReport | null {
  const answers = rows
    .filter((row) => row.side === side)
    .sort((a, b) => a.repeat - b.repeat)
    .map((row): SideAnswer => ({
      repeat: row.repeat,
      passed: row.status === 'done' ? row.passed === true : null,
      output: row.output ?? null,
      checks: row.checks ?? [],
      errorMessage: row.errorMessage,
      latencyMs: row.latencyMs,
      costUsd: row.costUsd,
      cached: row.cached,
      logId: row.logId,
    }));
  if (answers.length === 0) return null;
  const done = answers.every((answer) => answer.passed !== null);
  const { repeat: _first, ...first } = answers[0];
  return {
    ...first,
    passed: done ? itemPasses(answers.map((answer) => answer.passed === true)) : null,
    repeats: answers,
  };
}
