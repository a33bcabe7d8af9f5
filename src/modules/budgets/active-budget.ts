import { createHash } from 'node:crypto';
import type { BudgetEntity } from './budget.entity';
import { type BudgetPeriod, periodWindow, type PeriodWindow } from './budget-period';
import type { BudgetScopeType } from './budget-scope';
import type { LedgerLine } from './budget-ledger';
import { usdToUnits } from './worst-case-cost';

/** A budget as the request path uses it: its rule, its limit in units, and the prefix of its ledger entries. */
export interface ActiveBudget {
  id: string;
  tenantId: string;
  name: string;
  scopeType: BudgetScopeType;
  scopeRef: string;
  period: BudgetPeriod;
  limitUnits: number;
  enabled: boolean;
  /** Names the budget and its scope: a budget whose scope or period changes starts a fresh ledger entry. */
  entryPrefix: string;
}

export function toActiveBudget(entity: BudgetEntity): ActiveBudget {
  const scope = createHash('sha256').update(`${entity.scopeType}\n${entity.scopeRef}`).digest('hex').slice(0, 16);
  return {
    id: entity.id,
    tenantId: entity.tenantId,
    name: entity.name,
    scopeType: entity.scopeType,
    scopeRef: entity.scopeRef,
    period: entity.period,
    limitUnits: usdToUnits(Number(entity.limitUsd)),
    enabled: entity.enabled,
    // The tenant is the hash tag: every entry a request reserves against lives in one Redis cluster slot.
    entryPrefix: `promptgate:budget:{${entity.tenantId}}:${entity.id}:${scope}:${entity.period}`,
  };
}

/** Each budget's line in the last period asked for: a budget's calls fall in one period for a day or a month. */
const lastLines = new WeakMap<ActiveBudget, { line: LedgerLine; window: PeriodWindow }>();

/** The budget's ledger line in the period around `at`, with that period (the same objects for every call of a period). */
export function ledgerLineOf(budget: ActiveBudget, at: Date): { line: LedgerLine; window: PeriodWindow } {
  const last = lastLines.get(budget);
  const atMs = at.getTime();
  if (last && last.window.start.getTime() <= atMs && atMs < last.window.end.getTime()) return last;
  const window = periodWindow(budget.period, at);
  const entry = { line: { key: `${budget.entryPrefix}:${window.start.getTime()}`, limit: budget.limitUnits }, window };
  lastLines.set(budget, entry);
  return entry;
}
