import { LRUCache } from 'lru-cache';

/** A cached answer as the in-process store keeps it: its JSON text, and the endpoint it belongs to. */
interface StoredAnswer {
  endpointId: string;
  text: string;
}

export interface MemoryStoreBounds {
  /** Bytes of JSON held at most, over every tenant. */
  maxBytes: number;
  /** Bytes of JSON one tenant's answers may hold. */
  maxTenantBytes: number;
}

/** The clock entries expire by (milliseconds, monotonic); tests pass their own. */
export interface StoreClock {
  now(): number;
}

/**
 * The in-process response cache, bounded by bytes rather than entries: each tenant's answers live in an LRU of their
 * own, capped at `maxTenantBytes`, so a tenant that fills its share pushes out its own least recently used answers,
 * never another tenant's. When all tenants together pass `maxBytes`, the tenant holding the most gives up its least
 * recently used answers until they fit. Each entry also expires at its TTL (checked when read: until then an expired
 * entry still counts toward the bounds).
 */
export class MemoryResponseStore {
  private readonly tenants = new Map<string, LRUCache<string, StoredAnswer>>();
  /** Which tenant's LRU holds each key. */
  private readonly tenantOf = new Map<string, string>();

  constructor(
    private readonly bounds: MemoryStoreBounds,
    private readonly clock: StoreClock = performance,
  ) {}

  /** The JSON text stored under `key`, unless it expired or was pushed out. */
  get(key: string): string | undefined {
    const tenantId = this.tenantOf.get(key);
    return tenantId === undefined ? undefined : this.tenants.get(tenantId)?.get(key)?.text;
  }

  /** Stores `text` for `ttlMs`; a text larger than the tenant's share is not stored. */
  set(owner: { tenantId: string; endpointId: string }, key: string, text: string, ttlMs: number): void {
    const size = Buffer.byteLength(text, 'utf8');
    if (size > this.bounds.maxTenantBytes) return;
    const previous = this.tenantOf.get(key);
    if (previous !== undefined && previous !== owner.tenantId) this.tenants.get(previous)?.delete(key);
    // The tenant's LRU pushes out its own least recently used answers to stay within its share.
    this.lruOf(owner.tenantId).set(key, { endpointId: owner.endpointId, text }, { ttl: ttlMs, size });
    this.tenantOf.set(key, owner.tenantId);
    for (let total = this.bytes(); total > this.bounds.maxBytes; total = this.bytes()) this.largestTenant().pop();
    for (const [tenantId, lru] of this.tenants) if (lru.size === 0) this.tenants.delete(tenantId);
  }

  /** Removes every answer of the endpoint (a rare operation: it scans the keys). */
  removeEndpoint(endpointId: string): void {
    for (const [key, tenantId] of [...this.tenantOf]) {
      const lru = this.tenants.get(tenantId);
      if (lru?.peek(key, { allowStale: true })?.endpointId === endpointId) lru.delete(key);
    }
  }

  /** Bytes held, by every tenant or by one. */
  bytes(tenantId?: string): number {
    if (tenantId !== undefined) return this.tenants.get(tenantId)?.calculatedSize ?? 0;
    let total = 0;
    for (const lru of this.tenants.values()) total += lru.calculatedSize;
    return total;
  }

  private lruOf(tenantId: string): LRUCache<string, StoredAnswer> {
    let lru = this.tenants.get(tenantId);
    if (!lru) {
      lru = new LRUCache<string, StoredAnswer>({
        maxSize: this.bounds.maxTenantBytes,
        perf: this.clock,
        // Read the clock on every check rather than a value cached for a millisecond by a timer.
        ttlResolution: 0,
        // An entry that leaves (pushed out, expired, deleted; not one replaced by a newer answer) is forgotten.
        dispose: (_value, key, reason) => {
          if (reason !== 'set' && this.tenantOf.get(key) === tenantId) this.tenantOf.delete(key);
        },
      });
      this.tenants.set(tenantId, lru);
    }
    return lru;
  }

  /** The tenant holding the most bytes (there is one whenever the total is above zero). */
  private largestTenant(): LRUCache<string, StoredAnswer> {
    let largest: LRUCache<string, StoredAnswer> | undefined;
    for (const lru of this.tenants.values()) if (!largest || lru.calculatedSize > largest.calculatedSize) largest = lru;
    return largest!;
  }
}
