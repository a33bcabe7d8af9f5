import { Inject, Injectable, OnApplicationShutdown, OnModuleDestroy, Optional } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { BudgetExceededError, ServiceUnavailableError } from '../../common/errors/app-error';
import { AppLogger } from '../../common/logging/app-logger';
import { type BudgetGauges, Metrics } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import { InvalidationBus } from '../invalidation/invalidation-bus';
import { TENANT_BUDGETS_TOPIC } from '../invalidation/topics';
import { ExecutionLogReadsService } from '../logs/execution-log-reads.service';
import { ExecutionLogsService } from '../logs/execution-logs.service';
import type { ModelInfo } from '../models/model';
import { type ActiveBudget, ledgerLineOf, toActiveBudget } from './active-budget';
import { BudgetLedger, type LedgerLine, type LedgerTotals } from './budget-ledger';
import { type PeriodWindow, secondsToPeriodEnd } from './budget-period';
import { BUDGET_SCOPE_TYPES, type BudgetScopeType, type SpendingParty, spendScopeOf } from './budget-scope';
import { BudgetsRepository } from './budgets.repository';
import { CoveringBudgets } from './covering-budgets';
import { inputTokensOf } from './input-tokens';
import { type AttemptShape, unitsToUsd, usdToUnits, worstCaseUnits } from './worst-case-cost';

/** How long a tenant's budget list is kept before it is read again (changes reach every instance at once anyway). */
const BUDGETS_TTL_MS = 30_000;
/** How often the spent totals this instance used are compared with the execution logs. */
const RECONCILE_EVERY_MS = 60_000;
/** How long a seed waits for this instance's queued log rows to be written, so the sum it reads includes them. */
const SEED_FLUSH_WAIT_MS = 1_000;
/** A ledger entry outlives its period by this much: settlements of calls that started just before its end still land. */
const ENTRY_GRACE_MS = 24 * 3600_000;

/** One attempt about to start, as budgets see it. */
export interface AttemptSpend {
  tenantId: string;
  party: SpendingParty;
  /** When the execution started: the period it is counted in (its log row's createdAt). */
  startedAt: Date;
  model: ModelInfo;
  /** What the attempt sends: asked for only when a budget covers the call. */
  attempt: () => AttemptShape;
  /** The endpoint's timeout: the reservation's lease is that plus 30 s. */
  timeoutSeconds: number;
}

/** A tenant's budgets as this instance keeps them: the load under way or done, and the last list it got. */
interface CachedBudgets {
  loadedAt: number;
  list: Promise<CoveringBudgets>;
  loaded?: CoveringBudgets;
}

/** A reservation held by an attempt until it is settled. */
export interface SpendReservation {
  id: string;
  keys: string[];
  units: number;
}

/** A budget's figures in its current period, in dollars. */
export interface BudgetFigures {
  window: PeriodWindow;
  spentUsd: number;
  reservedUsd: number;
  remainingUsd: number;
}

/** The lease beyond the endpoint's timeout: a reservation of an instance that died is released this long after it. */
const LEASE_MARGIN_MS = 30_000;

/**
 * Reserves each attempt's worst-case cost against every enabled budget that covers the call, before the attempt
 * starts, and settles it with the attempt's actual cost after (see BudgetLedger). Spent totals start from the
 * execution logs (a new period, a ledger that lost its entries) and are raised to the logs' sums when they drift
 * below them. The ledger unreachable: calls that a budget covers are refused with 503 rather than spend unchecked.
 */
@Injectable()
export class BudgetSpendingService implements OnModuleDestroy, OnApplicationShutdown {
  private readonly budgets = new Map<string, CachedBudgets>();
  /** Entries this instance used in their period, with their totals as last seen (the gauges). */
  private readonly used = new Map<string, { budget: ActiveBudget; window: PeriodWindow; totals: LedgerTotals }>();
  /** Entries used since the last drift check. */
  private readonly touched = new Set<string>();
  /** Seeds under way: the calls that find an entry unseeded at once (a period's first burst) share one read of the logs. */
  private readonly seeding = new Map<string, Promise<void>>();
  private readonly refusals: Record<BudgetScopeType, number> = { key: 0, endpoint: 0, tenant: 0, tag: 0 };
  private readonly reconcileTimer: NodeJS.Timeout;
  /** Reservation ids: this instance's random prefix (unique among instances) and a count. */
  private readonly reservationPrefix = `${randomBytes(12).toString('base64url')}.`;
  private reservationCount = 0;

  constructor(
    private readonly repository: BudgetsRepository,
    private readonly ledger: BudgetLedger,
    private readonly logReads: ExecutionLogReadsService,
    private readonly logs: ExecutionLogsService,
    private readonly clock: Clock,
    private readonly logger: AppLogger,
    bus: InvalidationBus,
    @Optional() @Inject(Metrics) metrics?: Metrics,
  ) {
    bus.subscribe(TENANT_BUDGETS_TOPIC, (tenantId) => {
      if (tenantId) this.budgets.delete(tenantId);
      else this.budgets.clear();
    });
    if (metrics?.enabled) metrics.watchBudgets(() => this.gauges());
    this.reconcileTimer = setInterval(() => void this.reconcile(), RECONCILE_EVERY_MS);
    this.reconcileTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.reconcileTimer);
  }

  /**
   * Once the last requests have answered, their queued settlements are sent (before the Redis connection closes: Nest
   * shuts the modules that import it down first), so a restart leaves no reservation to its lease.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.ledger.flush().catch(() => undefined);
  }

  /**
   * The tenant's enabled budgets by what they cover, from a short-lived cache. A reload that fails (the database away)
   * keeps the list this instance had, so calls go on being checked against it; with none, the failure is the call's.
   */
  private budgetsOf(tenantId: string): Promise<CoveringBudgets> {
    const cached = this.budgets.get(tenantId);
    const nowMs = this.clock.now();
    if (cached && nowMs - cached.loadedAt < BUDGETS_TTL_MS) return cached.list;
    const list = this.repository
      .listAll(tenantId)
      .then((rows) => new CoveringBudgets(rows.map(toActiveBudget)))
      .catch(async (error: unknown) => {
        if (cached?.loaded) return cached.loaded;
        this.budgets.delete(tenantId);
        throw error;
      });
    const entry: CachedBudgets = { loadedAt: nowMs, list, loaded: cached?.loaded };
    void list.then((loaded) => (entry.loaded = loaded)).catch(() => undefined);
    this.budgets.set(tenantId, entry);
    return list;
  }

  /**
   * Reserves the attempt's worst-case cost against each enabled budget that covers the call, all or none; null when
   * none covers it. Refused (429 budget_exceeded, Retry-After to the end of that budget's period) when one would go
   * over its limit.
   */
  async reserve(spend: AttemptSpend): Promise<SpendReservation | null> {
    const budgets = await this.budgetsOf(spend.tenantId);
    if (budgets.isEmpty) return null;
    const covering = budgets.of(spend.party);
    if (covering.length === 0) return null;
    const units = worstCaseUnits(spend.model, spend.attempt(), inputTokensOf);
    const entries = covering.map((budget) => ({ budget, ...ledgerLineOf(budget, spend.startedAt) }));
    const lines = entries.map((entry) => entry.line);
    const id = this.reservationPrefix + (this.reservationCount++).toString(36);
    const leaseMs = spend.timeoutSeconds * 1000 + LEASE_MARGIN_MS;
    try {
      let result = await this.ledger.reserve(lines, id, units, leaseMs);
      if (result.outcome === 'unseeded') {
        await Promise.all(
          result.indexes.map((index) => this.seed(entries[index].budget, lines[index], entries[index].window)),
        );
        result = await this.ledger.reserve(lines, id, units, leaseMs);
      }
      if (result.outcome === 'reserved') {
        entries.forEach(({ budget, window, line }, i) => {
          const used = this.used.get(line.key);
          if (used?.budget === budget) used.totals = result.totals[i];
          else this.used.set(line.key, { budget, window, totals: result.totals[i] });
          this.touched.add(line.key);
        });
        return { id, keys: lines.map((line) => line.key), units };
      }
      if (result.outcome === 'refused') {
        const { budget, window } = entries[result.index];
        this.refusals[budget.scopeType]++;
        throw refusal(budget, result.totals, units, secondsToPeriodEnd(window, new Date(this.clock.epochNow())));
      }
      throw new Error('The budget ledger has no spent total right after it was seeded');
    } catch (error) {
      if (error instanceof BudgetExceededError) throw error;
      this.logger.write('warn', `Spend budgets could not be checked: ${(error as Error).message}`, {
        context: 'Budgets',
      });
      throw new ServiceUnavailableError('The spend budgets of this call cannot be checked right now: retry shortly', 1);
    }
  }

  /**
   * Replaces the reservation by the attempt's actual cost (null: nothing known to be spent). Never throws: a ledger
   * away leaves the reservation to its lease, and the drift check adds the cost from the logs.
   */
  async settle(reservation: SpendReservation, costUsd: number | null): Promise<void> {
    const actual = costUsd ? usdToUnits(costUsd) : 0;
    for (const key of reservation.keys) {
      const totals = this.used.get(key)?.totals;
      if (totals) {
        totals.reserved = Math.max(0, totals.reserved - reservation.units);
        totals.spent += actual;
      }
    }
    try {
      await this.ledger.settle(reservation.keys, reservation.id, actual);
    } catch (error) {
      this.logger.write('warn', `A spend reservation could not be settled: ${(error as Error).message}`, {
        context: 'Budgets',
      });
    }
  }

  /**
   * Each budget's figures in its period around `at`. The ledger away: the spent total from the logs, nothing
   * reserved (a read never fails for it).
   */
  async figuresOf(budgets: ActiveBudget[], at: Date): Promise<BudgetFigures[]> {
    const entries = budgets.map((budget) => ({ budget, ...ledgerLineOf(budget, at) }));
    try {
      const keys = entries.map((entry) => entry.line.key);
      let totals = await this.ledger.totals(keys);
      const missing = entries.filter((_, i) => totals[i] === null);
      if (missing.length > 0) {
        await Promise.all(missing.map(({ budget, line, window }) => this.seed(budget, line, window)));
        totals = await this.ledger.totals(keys);
      }
      return entries.map(({ budget, window }, i) => figures(budget, window, totals[i] ?? { spent: 0, reserved: 0 }));
    } catch {
      return Promise.all(
        entries.map(async ({ budget, window }) =>
          figures(budget, window, { spent: await this.spentFromLogs(budget, window), reserved: 0 }),
        ),
      );
    }
  }

  /** Starts a ledger entry from the logs: the cost of the scope's executions in the period so far. */
  private seed(budget: ActiveBudget, line: LedgerLine, window: PeriodWindow): Promise<void> {
    let seeding = this.seeding.get(line.key);
    if (!seeding) {
      seeding = (async () => {
        await this.logs.flushWithin(SEED_FLUSH_WAIT_MS);
        const spent = await this.spentFromLogs(budget, window);
        await this.ledger.seed(line.key, spent, new Date(window.end.getTime() + ENTRY_GRACE_MS));
      })().finally(() => this.seeding.delete(line.key));
      this.seeding.set(line.key, seeding);
    }
    return seeding;
  }

  private async spentFromLogs(budget: ActiveBudget, window: PeriodWindow): Promise<number> {
    const scope = spendScopeOf(budget.scopeType, budget.scopeRef);
    return usdToUnits(await this.logReads.spentUsd(budget.tenantId, scope, window.start, window.end));
  }

  /**
   * The drift check: each entry used since the last check is compared with its logs, and raised to their sum when it
   * counts less (a settlement lost while the ledger was away). Never lowered: rows still queued on other instances
   * are in the ledger, not yet in the logs.
   */
  private async reconcile(): Promise<void> {
    const touched = [...this.touched];
    this.touched.clear();
    const nowMs = this.clock.epochNow();
    for (const [key, entry] of this.used) if (entry.window.end.getTime() <= nowMs) this.used.delete(key);
    for (const key of touched) {
      const entry = this.used.get(key);
      if (!entry) continue;
      const { budget, window } = entry;
      try {
        await this.ledger.raise(key, await this.spentFromLogs(budget, window));
      } catch {
        // The next check tries again.
      }
    }
  }

  /** Refusals by scope type, and the spent and reserved dollars of the entries used lately, by scope type. */
  private gauges(): BudgetGauges {
    const spent = zeroes();
    const reserved = zeroes();
    for (const { budget, totals } of this.used.values()) {
      spent[budget.scopeType] += unitsToUsd(totals.spent);
      reserved[budget.scopeType] += unitsToUsd(totals.reserved);
    }
    return { refusals: { ...this.refusals }, spent, reserved };
  }
}

function zeroes(): Record<BudgetScopeType, number> {
  return Object.fromEntries(BUDGET_SCOPE_TYPES.map((type) => [type, 0])) as Record<BudgetScopeType, number>;
}

/** What a budget has left: its limit minus what it spent and what is reserved against it, never below 0 (units). */
function unitsLeft(budget: ActiveBudget, { spent, reserved }: LedgerTotals): number {
  return Math.max(0, budget.limitUnits - spent - reserved);
}

function figures(budget: ActiveBudget, window: PeriodWindow, totals: LedgerTotals): BudgetFigures {
  return {
    window,
    spentUsd: unitsToUsd(totals.spent),
    reservedUsd: unitsToUsd(totals.reserved),
    remainingUsd: unitsToUsd(unitsLeft(budget, totals)),
  };
}

function refusal(budget: ActiveBudget, totals: LedgerTotals, units: number, retryAfter: number): BudgetExceededError {
  const left = unitsLeft(budget, totals);
  const dollars = (value: number) =>
    `$${unitsToUsd(value)
      .toFixed(6)
      .replace(/0{1,4}$/, '')}`;
  return new BudgetExceededError(
    `The ${budget.period === 'day' ? 'daily' : 'monthly'} budget '${budget.name}' has ${dollars(left)} left of ` +
      `${dollars(budget.limitUnits)}; this call may cost up to ${dollars(units)}: retry in ${retryAfter} seconds`,
    retryAfter,
  );
}
