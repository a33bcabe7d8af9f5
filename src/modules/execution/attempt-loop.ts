import { setTimeout } from 'node:timers/promises';
import { attemptBudgetMs, nextAttempt, type PlannedAttempt } from './attempt-plan';

/** The time an attempt starts with: what is left of the endpoint's timeout, and its own share of it. */
export interface AttemptTime {
  remainingMs: number;
  budgetMs: number;
}

/** What one attempt ended with: a success, or the failure the loop decides on. */
export type AttemptResult = { ok: true } | { ok: false; error: unknown };

export interface AttemptLoop<R extends AttemptResult> {
  plan: PlannedAttempt[];
  /** The endpoint's timeout, which bounds all attempts together, waits included. */
  deadlineMs: number;
  /** Milliseconds since the execution started. */
  elapsedMs: () => number;
  /** One attempt of `planned` within `time`; it throws only for what must end the loop (the service's own errors). */
  run: (planned: PlannedAttempt, time: AttemptTime) => Promise<R>;
  /** Called with every attempt's result, in order, before the loop decides what follows. */
  onAttempt?: (result: R, planned: PlannedAttempt) => void;
  /** Whether a failed attempt may still be followed by another (by default it may, as the plan says). */
  mayFailOver?: () => boolean;
  /** Waits before a retry (the provider's Retry-After); a timer unless a test supplies its own. */
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Runs the attempts of a plan in order until one succeeds or the plan says to stop (see nextAttempt): the first
 * success is the result, otherwise the last failure; with the planned attempt that produced it. Shared by every way
 * a model is called, so each fails over by the same rules.
 */
export async function runAttempts<R extends AttemptResult>(
  loop: AttemptLoop<R>,
): Promise<{ result: R; planned: PlannedAttempt }> {
  const { plan, deadlineMs, elapsedMs, run, onAttempt, mayFailOver, sleep = (ms: number) => setTimeout(ms) } = loop;
  for (let index = 0; ;) {
    const planned = plan[index];
    const remainingMs = deadlineMs - elapsedMs();
    const result = await run(planned, { remainingMs, budgetMs: attemptBudgetMs(plan, index, remainingMs) });
    onAttempt?.(result, planned);
    if (result.ok || (mayFailOver && !mayFailOver())) return { result, planned };
    const next = nextAttempt(plan, index, result.error, deadlineMs - elapsedMs());
    if (!next) return { result, planned };
    if (next.waitMs > 0) await sleep(next.waitMs);
    index = next.index;
  }
}
