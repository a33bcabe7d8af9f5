import type { EvalRunSummary, PromptVersionRef } from '../modules/evaluations/eval-run';

/** What `eval run` reads of a run: the admin API's run, in process or over HTTP. */
export interface RunView {
  id: string;
  status: string;
  datasetVersion: number;
  candidate: PromptVersionRef;
  baseline: PromptVersionRef | null;
  summary: EvalRunSummary;
  errorMessage: string | null;
}

/** One check's result on one side of an item. */
export interface CheckView {
  type: string;
  pass: boolean;
  reason: string | null;
}

export interface SideView {
  checks: CheckView[];
  errorMessage: string | null;
}

/** What `eval run` reads of a run's item. */
export interface ItemView {
  itemId: string;
  position: number;
  verdict: string | null;
  candidate: SideView;
  baseline: SideView | null;
}

/** An endpoint's promotion gate as the admin API answers it. */
export interface GateView {
  datasetId: string;
  minPassRate: number;
  maxRegressions: number;
}

/** The thresholds a run is held to, and where they come from. */
export interface Thresholds {
  minPassRate: number;
  maxRegressions: number;
  source: 'gate' | 'default';
}

/** The statuses a run ends in; a run in any other one is still under way. */
export const ENDED_STATUSES = ['completed', 'failed', 'cancelled'];

/** Exit codes of `eval run`: the thresholds hold, they do not, or the run could not be made or finish. */
export const EXIT = { passed: 0, failed: 1, error: 2 } as const;

/**
 * The endpoint's promotion gate when it names the run's dataset (the thresholds a promotion will be held to);
 * otherwise every item must pass and none may regress.
 */
export function thresholdsFor(gate: GateView | null, datasetId: string): Thresholds {
  if (gate !== null && gate.datasetId === datasetId) {
    return { minPassRate: gate.minPassRate, maxRegressions: gate.maxRegressions, source: 'gate' };
  }
  return { minPassRate: 1, maxRegressions: 0, source: 'default' };
}

/** One sentence per threshold the completed run misses; none when both hold. */
export function unmetThresholds(summary: RunView['summary'], thresholds: Thresholds): string[] {
  const unmet: string[] = [];
  if (summary.passRate < thresholds.minPassRate) {
    unmet.push(`The pass rate ${percent(summary.passRate)} is below the required ${percent(thresholds.minPassRate)}.`);
  }
  if (summary.regressions > thresholds.maxRegressions) {
    const count = summary.regressions;
    unmet.push(
      `The run has ${count} ${count === 1 ? 'regression' : 'regressions'} (at most ${thresholds.maxRegressions} allowed).`,
    );
  }
  return unmet;
}

/**
 * A rate as a percentage, cut (not rounded) to two decimals, so a rate just under its threshold never shows as equal
 * to it. The small allowance keeps a rate whose product falls a hair under a whole number from showing one step lower.
 */
export function percent(rate: number): string {
  return `${Math.floor(rate * 10_000 + 1e-6) / 100} %`;
}

/** How long the table's reason column may be; a longer reason is cut with an ellipsis. */
const REASON_WIDTH = 100;

/** The report of a completed run: the summary, the thresholds and how the run fared, and the regressed items. */
export function runReport(input: {
  run: RunView;
  datasetName: string;
  thresholds: Thresholds;
  regressed: ItemView[];
}): string[] {
  const { run, thresholds } = input;
  const { summary } = run;
  const lines = [
    `Run ${run.id} completed: dataset "${input.datasetName}" at version ${run.datasetVersion}, ` +
      `${describe(run.candidate)} against ${run.baseline ? describe(run.baseline) : 'no baseline'}`,
    `Items: ${summary.items}, passed ${summary.passed}, failed ${summary.failed} (pass rate ${percent(summary.passRate)})`,
    `Baseline pass rate: ${summary.baselinePassRate === null ? 'none' : percent(summary.baselinePassRate)}; ` +
      `regressions ${summary.regressions}, improvements ${summary.improvements}`,
    `Cost: $${summary.costUsd.toFixed(6)}; duration ${summary.durationMs === null ? '-' : `${(summary.durationMs / 1000).toFixed(1)} s`}`,
  ];
  const unmet = unmetThresholds(summary, thresholds);
  const from = thresholds.source === 'gate' ? "the endpoint's promotion gate" : 'no promotion gate on this dataset';
  lines.push(
    `Thresholds (${from}): pass rate at least ${percent(thresholds.minPassRate)}, at most ${thresholds.maxRegressions} ` +
      `regressions: ${unmet.length === 0 ? 'met' : 'NOT met'}`,
  );
  for (const sentence of unmet) lines.push(`  ${sentence}`);
  if (input.regressed.length > 0) {
    lines.push('', `Regressed items (${input.regressed.length}):`);
    lines.push(...regressedTable(input.regressed));
  }
  return lines;
}

/** The regressed items as a table: item id, the checks each side failed, and why the candidate failed. */
export function regressedTable(items: ItemView[]): string[] {
  const rows = items.map((item) => [
    item.itemId,
    failedChecks(item.candidate),
    item.baseline ? failedChecks(item.baseline) : '-',
    cut(reasonOf(item.candidate), REASON_WIDTH),
  ]);
  const header = ['ITEM', 'CANDIDATE FAILED', 'BASELINE FAILED', 'REASON'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** The types of the checks a side failed, in order (`call failed` when its call failed and no check ran). */
function failedChecks(side: SideView): string {
  const failed = side.checks.filter((check) => !check.pass).map((check) => check.type);
  if (failed.length > 0) return failed.join(', ');
  return side.errorMessage !== null ? 'call failed' : '-';
}

/** Why a side failed: its call's error, else its first failed check's reason. */
function reasonOf(side: SideView): string {
  if (side.errorMessage !== null) return side.errorMessage;
  const failed = side.checks.find((check) => !check.pass);
  return failed?.reason ?? '-';
}

function cut(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length <= width ? oneLine : `${oneLine.slice(0, width - 1)}…`;
}

function describe(ref: PromptVersionRef): string {
  return `version ${ref.versionNumber} of prompt ${ref.promptId}`;
}
