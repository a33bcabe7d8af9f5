/** A budget's period: a UTC calendar day or a UTC calendar month. */
export type BudgetPeriod = 'day' | 'month';
export const BUDGET_PERIODS: BudgetPeriod[] = ['day', 'month'];

/** The period in force at an instant: its first millisecond (inclusive) and the first of the next one (exclusive). */
export interface PeriodWindow {
  start: Date;
  end: Date;
}

export function periodWindow(period: BudgetPeriod, at: Date): PeriodWindow {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  if (period === 'month')
    return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
  const day = at.getUTCDate();
  return { start: new Date(Date.UTC(year, month, day)), end: new Date(Date.UTC(year, month, day + 1)) };
}

/** Whole seconds from `at` to the end of its period, at least 1: what a refusal's Retry-After says. */
export function secondsToPeriodEnd(window: PeriodWindow, at: Date): number {
  return Math.max(1, Math.ceil((window.end.getTime() - at.getTime()) / 1000));
}
