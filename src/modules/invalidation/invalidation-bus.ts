import { LRUCache } from 'lru-cache';

/** What changed: a kind of record and its id. `null` means "anything may have changed" (a missed-message window). */
export type InvalidationHandler = (id: string | null) => void | Promise<void>;

/**
 * Tells every instance that a record it may keep in memory changed. `publish` runs this instance's handlers before
 * it resolves (so the instance that made a change answers consistently at once) and sends the change to the others.
 */
export abstract class InvalidationBus {
  abstract publish(topic: string, id: string): Promise<void>;
  abstract subscribe(topic: string, handler: InvalidationHandler): () => void;
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
  /** Bumped on every invalidation: a load that started before it must not store its (possibly stale) result. */
  private generation = 0;

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

  /** The cached value, or `load()`'s (stored unless null, and unless an invalidation arrived meanwhile). */
  async getOrLoad(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const cached = this.entries.get(key);
    if (cached) return cached;
    const generation = this.generation;
    const loaded = await load();
    if (loaded && generation === this.generation) {
      this.entries.set(key, loaded);
      const keys = this.keysById.get(this.idOf(loaded)) ?? new Set<string>();
      keys.add(key);
      this.keysById.set(this.idOf(loaded), keys);
    }
    return loaded;
  }

  invalidate(id: string | null): void {
    this.generation++;
    if (id === null) {
      this.entries.clear();
      return;
    }
    for (const key of [...(this.keysById.get(id) ?? [])]) this.entries.delete(key);
    this.keysById.delete(id);
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
