/**
 * One budget in one period, as the ledger keeps it: `key` names the budget, its scope and the period's start (a new
 * period, or a budget whose scope changed, starts a fresh entry), `limit` is its limit in units.
 */
export interface LedgerLine {
  key: string;
  limit: number;
}

/** An entry's spent total (settled attempts) and live reservations (attempts in flight), in units. */
export interface LedgerTotals {
  spent: number;
  reserved: number;
}

/**
 * `reserved`: made against every line, with each line's totals after it. `refused`: made against none, because the
 * line at `index` would go over its limit (its totals as they were). `unseeded`: made against none, because these
 * lines have no spent total yet (a new period, or a ledger that lost its entries): seed them, then try again.
 */
export type ReserveResult =
  | { outcome: 'reserved'; totals: LedgerTotals[] }
  | { outcome: 'refused'; index: number; totals: LedgerTotals }
  | { outcome: 'unseeded'; indexes: number[] };

/**
 * The spent totals and reservations of budgets. A reservation holds `units` against each of its lines until it is
 * settled or its lease ends, whichever comes first, so an instance that dies mid-call leaks nothing. Two
 * implementations: in Redis, shared by every instance (each method one atomic script), and in process.
 */
export abstract class BudgetLedger {
  /**
   * Reserves `units` against every line or none: refused when, on any line, spent + live reservations + units would
   * exceed its limit. A reservation of 0 units is refused only by a line already over its limit.
   */
  abstract reserve(lines: LedgerLine[], reservationId: string, units: number, leaseMs: number): Promise<ReserveResult>;
  /** Replaces the reservation by the actual cost on each line (added even when the lease had ended: it was spent). */
  abstract settle(keys: string[], reservationId: string, actualUnits: number): Promise<void>;
  /** Sets a line's spent total when it has none (from the execution logs), kept until `expiresAt`. */
  abstract seed(key: string, spent: number, expiresAt: Date): Promise<void>;
  /** Raises a line's spent total to `spent` when it is lower (the logs show more than the ledger counted). */
  abstract raise(key: string, spent: number): Promise<void>;
  /** Each line's totals, or null for a line with no spent total yet. */
  abstract totals(keys: string[]): Promise<(LedgerTotals | null)[]>;
  /** Sends what this instance queued and waits for it (at shutdown: settlements are not left to their leases). */
  abstract flush(): Promise<void>;
}

interface MemoryEntry {
  spent: number;
  expiresAtMs: number;
  /** Reservation id → its units and when its lease ends. */
  reservations: Map<string, { units: number; untilMs: number }>;
}

/** The ledger of one instance (no REDIS_URL): the same rules, in a map; `now` is the clock leases are read by. */
export class MemoryBudgetLedger extends BudgetLedger {
  private readonly entries = new Map<string, MemoryEntry>();

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  reserve(lines: LedgerLine[], reservationId: string, units: number, leaseMs: number): Promise<ReserveResult> {
    const nowMs = this.now();
    const entries = lines.map((line) => this.live(line.key, nowMs));
    const unseeded = entries.flatMap((entry, index) => (entry ? [] : [index]));
    if (unseeded.length > 0) return Promise.resolve({ outcome: 'unseeded', indexes: unseeded });
    const totals = entries.map((entry) => totalsOf(entry!));
    const index = totals.findIndex(({ spent, reserved }, i) => spent + reserved + units > lines[i].limit);
    if (index >= 0) return Promise.resolve({ outcome: 'refused', index, totals: totals[index] });
    for (const entry of entries) entry!.reservations.set(reservationId, { units, untilMs: nowMs + leaseMs });
    return Promise.resolve({
      outcome: 'reserved',
      totals: totals.map(({ spent, reserved }) => ({ spent, reserved: reserved + units })),
    });
  }

  settle(keys: string[], reservationId: string, actualUnits: number): Promise<void> {
    const nowMs = this.now();
    for (const key of keys) {
      const entry = this.live(key, nowMs);
      if (!entry) continue;
      entry.reservations.delete(reservationId);
      entry.spent += actualUnits;
    }
    return Promise.resolve();
  }

  seed(key: string, spent: number, expiresAt: Date): Promise<void> {
    const nowMs = this.now();
    // Entries of ended periods go when a new one is seeded (a period starts rarely).
    for (const [other, entry] of this.entries) if (entry.expiresAtMs <= nowMs) this.entries.delete(other);
    if (!this.live(key, nowMs))
      this.entries.set(key, { spent, expiresAtMs: expiresAt.getTime(), reservations: new Map() });
    return Promise.resolve();
  }

  raise(key: string, spent: number): Promise<void> {
    const entry = this.live(key, this.now());
    if (entry && entry.spent < spent) entry.spent = spent;
    return Promise.resolve();
  }

  totals(keys: string[]): Promise<(LedgerTotals | null)[]> {
    const nowMs = this.now();
    return Promise.resolve(
      keys.map((key) => {
        const entry = this.live(key, nowMs);
        return entry ? totalsOf(entry) : null;
      }),
    );
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  /** The entry of a key, its ended leases dropped; an expired entry is removed (its period is long over). */
  private live(key: string, nowMs: number): MemoryEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    for (const [id, reservation] of entry.reservations) if (reservation.untilMs <= nowMs) entry.reservations.delete(id);
    return entry;
  }
}

function totalsOf(entry: MemoryEntry): LedgerTotals {
  let reserved = 0;
  for (const { units } of entry.reservations.values()) reserved += units;
  return { spent: entry.spent, reserved };
}
