import { OverloadedError } from '../../../common/errors/app-error';

/** Gives back the slot a caller was admitted to; calling it again does nothing. */
export type ReleaseSlot = () => void;

/** What a refused caller is told to wait before trying again, in seconds. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

interface Waiter {
  tenant: string;
  grant: (release: ReleaseSlot) => void;
  refuse: (error: unknown) => void;
  /** Detaches the waiter from its abort signal once it is granted, refused or evicted. */
  detach: () => void;
}

/**
 * Admits callers to a fixed number of slots (the render threads) fairly between tenants:
 * - each tenant waits in its own queue, and a freed slot goes to the next tenant in turn (round robin), so a tenant
 *   with a thousand renders waiting does not make another's one render wait behind them;
 * - while another tenant waits, a tenant holds at most half the slots (rounded up, so no slot stays idle while
 *   someone waits); alone, it may use them all;
 * - at most `maxQueued` callers wait in all. When the queue is full, the caller refused is one of the tenant holding
 *   the most places in it: the newcomer if that is its own tenant, otherwise that tenant's newest waiter, whose place
 *   the newcomer takes. A refusal is an OverloadedError (503 with Retry-After);
 * - a waiter whose signal aborts leaves the queue, and its admission fails with the signal's reason.
 * The order is decided here alone, in memory and per process: no I/O, no timers.
 */
export class FairAdmission {
  /** Tenants with waiters, in turn order: the next slot goes to the first one that may take it. */
  private readonly queues = new Map<string, Waiter[]>();
  private readonly holding = new Map<string, number>();
  private inUse = 0;
  private waiting = 0;
  /** Most slots one tenant may hold while another waits. */
  private readonly shareWhileOthersWait: number;

  constructor(
    private readonly slots: number,
    private readonly maxQueued: number,
  ) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError('FairAdmission needs at least one slot');
    this.shareWhileOthersWait = Math.ceil(slots / 2);
  }

  /** Slots in use and callers waiting, in all and for `tenant`. */
  usage(tenant?: string): { inUse: number; waiting: number } {
    if (tenant === undefined) return { inUse: this.inUse, waiting: this.waiting };
    return { inUse: this.holding.get(tenant) ?? 0, waiting: this.queues.get(tenant)?.length ?? 0 };
  }

  /** Resolves once `tenant` may use a slot, with the function that gives it back (call it whatever happens). */
  admit(tenant: string, signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.inUse < this.slots && this.mayTake(tenant)) return Promise.resolve(this.take(tenant));
    if (this.waiting >= this.maxQueued && !this.madeRoomFor(tenant)) return Promise.reject(overloaded());
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const onAbort = () => {
        this.remove(waiter);
        reject(signal!.reason as Error);
        this.dispatch();
      };
      const waiter: Waiter = {
        tenant,
        grant: resolve,
        refuse: reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.queues.get(tenant);
      if (queue) queue.push(waiter);
      else this.queues.set(tenant, [waiter]);
      this.waiting++;
    });
  }

  /** Whether `tenant` may take a free slot now: all of them when no other tenant waits, half of them otherwise. */
  private mayTake(tenant: string): boolean {
    const held = this.holding.get(tenant) ?? 0;
    const othersWait = this.queues.size > (this.queues.has(tenant) ? 1 : 0);
    return held < (othersWait ? this.shareWhileOthersWait : this.slots);
  }

  private take(tenant: string): ReleaseSlot {
    this.inUse++;
    this.holding.set(tenant, (this.holding.get(tenant) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse--;
      const held = this.holding.get(tenant)! - 1;
      if (held === 0) this.holding.delete(tenant);
      else this.holding.set(tenant, held);
      this.dispatch();
    };
  }

  /** Hands free slots to waiters, tenant by tenant in turn; a tenant served goes to the end of the turn. */
  private dispatch(): void {
    while (this.inUse < this.slots) {
      let next: string | undefined;
      for (const tenant of this.queues.keys()) {
        if (this.mayTake(tenant)) {
          next = tenant;
          break;
        }
      }
      if (next === undefined) return;
      const queue = this.queues.get(next)!;
      const waiter = queue.shift()!;
      this.queues.delete(next);
      if (queue.length > 0) this.queues.set(next, queue);
      this.waiting--;
      waiter.detach();
      waiter.grant(this.take(next));
    }
  }

  /**
   * The queue is full: evicts the newest waiter of the tenant holding the most places, unless the newcomer's own
   * tenant holds as many (then the newcomer is the one refused, and this answers false).
   */
  private madeRoomFor(tenant: string): boolean {
    const own = this.queues.get(tenant)?.length ?? 0;
    let largest: string | undefined;
    let largestLength = own;
    for (const [other, queue] of this.queues) {
      if (queue.length > largestLength) {
        largest = other;
        largestLength = queue.length;
      }
    }
    if (largest === undefined) return false;
    const queue = this.queues.get(largest)!;
    const evicted = queue.pop()!;
    if (queue.length === 0) this.queues.delete(largest);
    this.waiting--;
    evicted.detach();
    evicted.refuse(overloaded());
    return true;
  }

  private remove(waiter: Waiter): void {
    const queue = this.queues.get(waiter.tenant);
    const index = queue?.indexOf(waiter) ?? -1;
    if (!queue || index === -1) return;
    queue.splice(index, 1);
    if (queue.length === 0) this.queues.delete(waiter.tenant);
    this.waiting--;
  }
}

function overloaded(): OverloadedError {
  return new OverloadedError(
    `Too many template renders of this tenant are waiting: retry after ${OVERLOADED_RETRY_AFTER_SECONDS} second`,
    OVERLOADED_RETRY_AFTER_SECONDS,
  );
}
