import { diffLines } from 'diff';
import type { Schemas } from '../../api/client';

export type EvalRun = Schemas['EvalRunResponse'];
export type EvalRunItem = Schemas['EvalRunItemResponse'];
export type EvalSide = Schemas['EvalSideResponse'];
export type EvalRunStatus = EvalRun['status'];
export type Verdict = NonNullable<EvalRunItem['verdict']>;

/** Where a run's page is. */
export const runHref = (run: Pick<EvalRun, 'id' | 'endpointId'>) => `/endpoints/${run.endpointId}/eval-runs/${run.id}`;

/** Whether the run has ended: nothing about it changes any more, so its page stops asking. */
export function isFinished(status: EvalRunStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

export const STATUS_LABEL: Record<EvalRunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The badge class of a status, from the shared badge styles. */
export const STATUS_BADGE: Record<EvalRunStatus, string> = {
  queued: 'draft',
  running: 'draft',
  completed: 'ok',
  failed: 'error',
  cancelled: 'archived',
};

export const VERDICT_LABEL: Record<Verdict, string> = {
  regressed: 'Regressed',
  improved: 'Improved',
  unchanged_pass: 'Passes on both',
  unchanged_fail: 'Fails on both',
};

/** A rate of 0–1 as a percentage with at most one decimal; a dash for none. */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '—';
  const percent = Math.round(rate * 1000) / 10;
  return `${percent}%`;
}

/** How many of the run's items have an answer on every side (a verdict), of all its items. */
export function progressOf(items: EvalRunItem[]): { done: number; total: number } {
  return { done: items.filter((item) => item.verdict !== null).length, total: items.length };
}

/**
 * The items shown: every item, or only the regressions (the baseline passes, the candidate fails), which a run's page
 * shows first because they are what stands between a candidate and its promotion.
 */
export function itemsShown(items: EvalRunItem[], showAll: boolean): EvalRunItem[] {
  return showAll ? items : items.filter((item) => item.verdict === 'regressed');
}

/** An output as text for reading and diffing: a string as it is, any other JSON pretty-printed, nothing as empty. */
export function outputText(output: unknown): string {
  if (output === null || output === undefined) return '';
  return typeof output === 'string' ? output : JSON.stringify(output, null, 2);
}

/** One line of a diff, numbered in each text it belongs to, as the versions page's diff shows them. */
export interface OutputDiffLine {
  type: 'added' | 'removed' | 'unchanged';
  text: string;
  fromLine: number | null;
  toLine: number | null;
}

/** The lines of `to` against `from`, each marked added, removed or unchanged, with its line numbers. */
export function outputDiff(from: string, to: string): OutputDiffLine[] {
  const lines: OutputDiffLine[] = [];
  let fromLine = 0;
  let toLine = 0;
  // Each text ends in a newline, so a last line is the same line whether or not another follows it.
  const ended = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  for (const part of diffLines(ended(from), ended(to))) {
    const type = part.added ? 'added' : part.removed ? 'removed' : 'unchanged';
    for (const text of part.value.replace(/\n$/, '').split('\n')) {
      if (type !== 'added') fromLine++;
      if (type !== 'removed') toLine++;
      lines.push({
        type,
        text,
        fromLine: type === 'added' ? null : fromLine,
        toLine: type === 'removed' ? null : toLine,
      });
    }
  }
  return lines;
}

/** A prompt version as people say it: the prompt's name (or a short id when unknown) and its version. */
export function versionLabel(
  ref: { promptId: string; versionNumber: number } | null,
  names: ReadonlyMap<string, string>,
): string {
  if (!ref) return 'None';
  return `${names.get(ref.promptId) ?? `Prompt ${ref.promptId.slice(0, 8)}`} v${ref.versionNumber}`;
}

/** What the body of a new run asks for, from the form's values (a bound left to the service to refuse). */
export interface RunChoice {
  promptId: string;
  versionNumber: number | null;
  baseline: 'default' | 'none';
  concurrency: number;
  repeats: number;
  fresh: boolean;
}

export function runBodyOf(choice: RunChoice): Schemas['CreateEvalRunDto'] {
  return {
    promptId: choice.promptId,
    ...(choice.versionNumber !== null ? { versionNumber: choice.versionNumber } : {}),
    baseline: choice.baseline,
    concurrency: choice.concurrency,
    repeats: choice.repeats,
    fresh: choice.fresh,
  };
}
