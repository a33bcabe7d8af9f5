import { LRUCache } from 'lru-cache';

/** What changed: a kind of record and its id. `null` means "anything may have changed" (a missed-message window). */
export type InvalidationHandler = (id: string | null) => void | Promise<void>;

/**
 * Tells every instance that a record it may keep in memory changed. `publish` runs this instance's handlers before
 * it resolves (so the instance that made a change answers consistently at once) and sends the change to the others.
 */
export abstract class InvalidationBus {
  abstract publish(topic: string, id: string): Promise<void>;
  abstract subscribe(topic: string, handler: InvalidationHandler): void;
}

export interface InvalidatingCacheOptions {
  /** Entries kept at most (least recently used ones go first). */
  max: number;
  /** A safety net only: the bus invalidates within a second; this bounds staleness if a message were ever lost. */
  ttlMs: number;
}

/**
 * An in-process cache of records identified by `idOf(value)`, emptied of a record when the bus announces a change
 * of that id on `topic` (and entirely after a missed-message window). The lookup key may differ from the id (a key
 * hash, a path); values are looked up by key and dropped by id.
 */
export class InvalidatingCache<V extends object> {
  private readonly entries: LRUCache<string, V>;
  private readonly keysById = new Map<string, Set<string>>();
  /**
   * A load that started before an invalidation of its record must not store its (possibly stale) result; one that
   * raced a change of some other record may. `tick` counts invalidations; while loads are in flight, `changedAt`
   * remembers the tick of each id's latest one and `resetAt` that of the latest "anything may have changed".
   */
  private tick = 0;
  private resetAt = 0;
  private readonly changedAt = new Map<string, number>();
  private loading = 0;
  /** Loads in flight by key: concurrent misses of one key wait for the same load. */
  private readonly inFlight = new Map<string, Promise<V | null>>();

  constructor(
    bus: InvalidationBus,
    topic: string,
    private readonly idOf: (value: V) => string,
    options: InvalidatingCacheOptions,
  ) {
    this.entries = new LRUCache<string, V>({
      max: options.max,
      ttl: options.ttlMs,
      dispose: (value, key) => this.unindex(this.idOf(value), key),
    });
    bus.subscribe(topic, (id) => this.invalidate(id));
  }

  /**
   * The cached value, or `load()`'s (stored unless null, and unless its record was invalidated meanwhile). Concurrent
   * misses of one key share one load, so a burst of requests on a cold cache makes one query rather than one each
   * (hundreds of them could exhaust the database pool); a caller that comes after an invalidation starts its own.
   */
  getOrLoad(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const cached = this.entries.get(key);
    if (cached) return Promise.resolve(cached);
    const shared = this.inFlight.get(key);
    if (shared) return shared;
    const loading = this.loadAndStore(key, load).finally(() => {
      if (this.inFlight.get(key) === loading) this.inFlight.delete(key);
    });
    this.inFlight.set(key, loading);
    return loading;
  }

  private async loadAndStore(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const startedAt = this.tick;
    this.loading++;
    try {
      const loaded = await load();
      if (!loaded) return null;
      const id = this.idOf(loaded);
      if (!this.changedSince(id, startedAt)) {
        this.entries.set(key, loaded);
        const keys = this.keysById.get(id) ?? new Set<string>();
        keys.add(key);
        this.keysById.set(id, keys);
      }
      return loaded;
    } finally {
      if (--this.loading === 0) this.changedAt.clear();
    }
  }

  /** The cached value of `key`, without loading it. */
  peek(key: string): V | undefined {
    return this.entries.get(key);
  }

  invalidate(id: string | null): void {
    this.tick++;
    // Loads already in flight may have read the old record: later callers load afresh.
    this.inFlight.clear();
    if (id === null) {
      this.resetAt = this.tick;
      this.entries.clear();
      return;
    }
    if (this.loading > 0) this.changedAt.set(id, this.tick);
    for (const key of [...(this.keysById.get(id) ?? [])]) this.entries.delete(key);
    this.keysById.delete(id);
  }

  private changedSince(id: string, tick: number): boolean {
    return this.resetAt > tick || (this.changedAt.get(id) ?? 0) > tick;
  }

  get size(): number {
    return this.entries.size;
  }

  private unindex(id: string, key: string): void {
    const keys = this.keysById.get(id);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.keysById.delete(id);
  }
}
