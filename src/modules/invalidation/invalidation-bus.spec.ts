import { InvalidatingCache, InvalidationBus, type InvalidationHandler } from './invalidation-bus';

/** A bus that only delivers to this process, so each test decides exactly when an invalidation lands. */
class LocalBus extends InvalidationBus {
  private readonly handlers: InvalidationHandler[] = [];
  async publish(_topic: string, id: string): Promise<void> {
    await this.announce(id);
  }
  subscribe(_topic: string, handler: InvalidationHandler): void {
    this.handlers.push(handler);
  }
  async announce(id: string | null): Promise<void> {
    for (const handler of this.handlers) await handler(id);
  }
}

interface Row {
  id: string;
  value: string;
}

/** A load that stays pending until the test resolves it, so invalidations can land while it is in flight. */
function pendingLoad(row: Row): { load: () => Promise<Row>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { load: async () => (await done, row), finish };
}

describe('InvalidatingCache', () => {
  let bus: LocalBus;
  let cache: InvalidatingCache<Row>;
  beforeEach(() => {
    bus = new LocalBus();
    cache = new InvalidatingCache<Row>(bus, 'row', (row) => row.id, { max: 100, ttlMs: 60_000 });
  });

  it('answers from memory after the first load, and loads again once the record is invalidated', async () => {
    const load = jest.fn(async () => ({ id: 'a', value: 'v1' }));
    await cache.getOrLoad('key-a', load);
    await cache.getOrLoad('key-a', load);
    expect(load).toHaveBeenCalledTimes(1);
    await bus.announce('a');
    await cache.getOrLoad('key-a', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shares one load among concurrent misses of a key; a caller after an invalidation loads afresh', async () => {
    const first = pendingLoad({ id: 'a', value: 'old' });
    const load = jest.fn(first.load);
    const waiting = [cache.getOrLoad('key-a', load), cache.getOrLoad('key-a', load), cache.getOrLoad('key-a', load)];
    expect(load).toHaveBeenCalledTimes(1);
    await bus.announce('a');
    const fresh = jest.fn(async () => ({ id: 'a', value: 'new' }));
    const after = cache.getOrLoad('key-a', fresh);
    first.finish();
    expect((await Promise.all(waiting)).map((row) => row?.value)).toEqual(['old', 'old', 'old']);
    expect((await after)?.value).toBe('new');
    expect(fresh).toHaveBeenCalledTimes(1);
    // The shared load is forgotten once settled: the next miss loads again (the old load was not stored).
    expect(cache.size).toBe(1);
  });

  it('does not store a load that an invalidation of its own record overtook', async () => {
    const slow = pendingLoad({ id: 'a', value: 'stale' });
    const loading = cache.getOrLoad('key-a', slow.load);
    await bus.announce('a');
    slow.finish();
    expect((await loading)?.value).toBe('stale');
    expect(cache.size).toBe(0);
  });

  it('stores a load that only raced a change of another record', async () => {
    const slow = pendingLoad({ id: 'a', value: 'fresh' });
    const loading = cache.getOrLoad('key-a', slow.load);
    await bus.announce('b');
    slow.finish();
    await loading;
    expect(cache.size).toBe(1);
    const again = jest.fn(async () => ({ id: 'a', value: 'reloaded' }));
    expect((await cache.getOrLoad('key-a', again))?.value).toBe('fresh');
    expect(again).not.toHaveBeenCalled();
  });

  it('does not store a load that a missed-message reset overtook, and empties itself on one', async () => {
    await cache.getOrLoad('key-b', async () => ({ id: 'b', value: 'kept until reset' }));
    const slow = pendingLoad({ id: 'a', value: 'maybe stale' });
    const loading = cache.getOrLoad('key-a', slow.load);
    await bus.announce(null);
    slow.finish();
    await loading;
    expect(cache.size).toBe(0);
  });

  it('judges each overlapping load by the invalidations after its own start', async () => {
    const first = pendingLoad({ id: 'a', value: 'stale' });
    const firstLoading = cache.getOrLoad('key-a1', first.load);
    await bus.announce('a');
    const second = pendingLoad({ id: 'a', value: 'fresh' });
    const secondLoading = cache.getOrLoad('key-a2', second.load);
    first.finish();
    second.finish();
    await Promise.all([firstLoading, secondLoading]);
    expect(cache.size).toBe(1);
    expect((await cache.getOrLoad('key-a2', async () => null))?.value).toBe('fresh');
  });
});
