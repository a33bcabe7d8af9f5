import { randomUUID } from 'node:crypto';
import { AppLogger } from '../logging/app-logger';
import type { KeyThrottlerStorage } from './rate-limiter';
import { closeRedisClient, createRedisClient, type RedisClient, whenReady } from '../redis/redis-client';
import { MemoryThrottlerStorage, RedisThrottlerStorage } from './rate-limit.store';

// The storage's @nestjs/throttler contract, in memory and (with REDIS_URL) on a real Redis.
const logger = new AppLogger({ logLevel: 'silent' });
let redis: RedisClient | undefined;
const storages: [string, () => KeyThrottlerStorage][] = [['memory', () => new MemoryThrottlerStorage()]];
if (process.env.REDIS_URL) {
  storages.push([
    'redis',
    () =>
      new RedisThrottlerStorage(redis!, new MemoryThrottlerStorage(), (error) => {
        throw new Error(`Redis fell back to memory: ${error.message}`);
      }),
  ]);
}

beforeAll(async () => {
  if (!process.env.REDIS_URL) return;
  redis = createRedisClient(process.env.REDIS_URL, 'promptgate-storage-spec', logger);
  await whenReady(redis);
});
afterAll(() => closeRedisClient(redis));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(storages)('KeyThrottlerStorage (%s)', (_, newStorage) => {
  let storage: KeyThrottlerStorage;
  let key: string;
  beforeEach(() => {
    storage = newStorage();
    key = `minute:{${randomUUID()}}`;
  });

  it('counts hits up to the limit, with the time left in the window', async () => {
    await expect(storage.increment(key, 60_000, 2, 0, 'minute')).resolves.toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    const second = await storage.increment(key, 60_000, 2, 0, 'minute');
    expect(second).toMatchObject({ totalHits: 2, isBlocked: false, timeToBlockExpire: 0 });
    expect(second.timeToExpire).toBeGreaterThanOrEqual(59);
  });

  it('refuses past the limit until the window resets, without counting the refusals', async () => {
    await storage.increment(key, 60_000, 1, 0, 'minute');
    const refused = await storage.increment(key, 60_000, 1, 0, 'minute');
    expect(refused).toMatchObject({ totalHits: 2, isBlocked: true });
    expect(refused.timeToBlockExpire).toBeGreaterThanOrEqual(59);
    expect(refused.timeToBlockExpire).toBeLessThanOrEqual(60);
    await expect(storage.increment(key, 60_000, 1, 0, 'minute')).resolves.toMatchObject({
      totalHits: 2,
      isBlocked: true,
    });
    // A window that allows more now (a raised limit) finds the refusals were not counted.
    await expect(storage.increment(key, 60_000, 3, 0, 'minute')).resolves.toMatchObject({
      totalHits: 2,
      isBlocked: false,
    });
  });

  it('starts a new window once the old one has expired', async () => {
    await storage.increment(key, 300, 1, 0, 'minute');
    await expect(storage.increment(key, 300, 1, 0, 'minute')).resolves.toMatchObject({
      isBlocked: true,
      timeToBlockExpire: 1,
    });
    await sleep(350);
    await expect(storage.increment(key, 300, 1, 0, 'minute')).resolves.toEqual({
      totalHits: 1,
      timeToExpire: 1,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('keeps windows apart by key: a full minute does not touch the hour', async () => {
    const hour = key.replace('minute', 'hour');
    await storage.increment(key, 60_000, 1, 0, 'minute');
    await expect(storage.increment(key, 60_000, 1, 0, 'minute')).resolves.toMatchObject({ isBlocked: true });
    await expect(storage.increment(hour, 3_600_000, 5, 0, 'hour')).resolves.toMatchObject({
      totalHits: 1,
      timeToExpire: 3600,
      isBlocked: false,
    });
  });

  it('gives back a released hit, and never below zero', async () => {
    await storage.increment(key, 60_000, 2, 0, 'minute');
    await storage.increment(key, 60_000, 2, 0, 'minute');
    await storage.release(key);
    await expect(storage.increment(key, 60_000, 2, 0, 'minute')).resolves.toMatchObject({
      totalHits: 2,
      isBlocked: false,
    });
    const fresh = `minute:{${randomUUID()}}`;
    await storage.release(fresh);
    await expect(storage.increment(fresh, 60_000, 1, 0, 'minute')).resolves.toMatchObject({ totalHits: 1 });
  });

  it('is exact under concurrency: limit 5, 12 concurrent hits, 5 counted', async () => {
    const records = await Promise.all(Array.from({ length: 12 }, () => storage.increment(key, 60_000, 5, 0, 'minute')));
    expect(records.filter((record) => !record.isBlocked)).toHaveLength(5);
    expect(
      records
        .filter((record) => !record.isBlocked)
        .map((record) => record.totalHits)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);
  });
});

(process.env.REDIS_URL ? describe : describe.skip)('RedisThrottlerStorage round trips', () => {
  it('sends the windows counted in one synchronous run in one script call per key id', async () => {
    const storage = new RedisThrottlerStorage(redis!, new MemoryThrottlerStorage(), (error) => {
      throw new Error(`Redis fell back to memory: ${error.message}`);
    });
    const [first, second] = [randomUUID(), randomUUID()];
    const calls = jest.spyOn(redis!, 'evalSha');
    try {
      const records = await Promise.all([
        storage.increment(`minute:{${first}}`, 60_000, 1, 0, 'minute'),
        storage.increment(`hour:{${first}}`, 3_600_000, 5, 0, 'hour'),
        storage.increment(`minute:{${first}}`, 60_000, 1, 0, 'minute'),
        storage.increment(`minute:{${second}}`, 60_000, 1, 0, 'minute'),
      ]);
      expect(records.map((record) => [record.totalHits, record.timeToExpire, record.isBlocked])).toEqual([
        [1, 60, false],
        [1, 3600, false],
        [2, 60, true],
        [1, 60, false],
      ]);
      // The script is loaded on its first use, then each key id's windows go in one call.
      const sent = calls.mock.calls.map(([, options]) => (options as { keys: string[] }).keys);
      expect(sent.slice(-2)).toEqual([
        [`promptgate:rl:minute:{${first}}`, `promptgate:rl:hour:{${first}}`, `promptgate:rl:minute:{${first}}`],
        [`promptgate:rl:minute:{${second}}`],
      ]);
    } finally {
      calls.mockRestore();
    }
  });
});

describe('RedisThrottlerStorage with Redis unreachable', () => {
  it('counts in the in-process fallback and reports why', async () => {
    const down = createRedisClient('redis://127.0.0.1:1', 'promptgate-storage-spec-down', logger);
    const failures: string[] = [];
    const storage = new RedisThrottlerStorage(down, new MemoryThrottlerStorage(), (error) =>
      failures.push(error.message),
    );
    try {
      await storage.increment('minute:{k}', 60_000, 1, 0, 'minute');
      await expect(storage.increment('minute:{k}', 60_000, 1, 0, 'minute')).resolves.toMatchObject({ isBlocked: true });
      expect(failures).toEqual(['not connected', 'not connected']);
    } finally {
      down.destroy();
    }
  });
});
