import { randomUUID } from 'node:crypto';
import { AppLogger } from '../../common/logging/app-logger';
import { closeRedisClient, createRedisClient, type RedisClient, whenReady } from '../../common/redis/redis-client';
import { type BudgetLedger, MemoryBudgetLedger } from './budget-ledger';
import { hashTagOf, RedisBudgetLedger } from './redis-budget-ledger';

// The ledger's rules, in process and (with REDIS_URL) on a real Redis: all or none, leases, settlement, seeding.
const logger = new AppLogger({ logLevel: 'silent' });
let redis: RedisClient | undefined;
const ledgers: [string, () => BudgetLedger][] = [['memory', () => new MemoryBudgetLedger()]];
if (process.env.REDIS_URL) ledgers.push(['redis', () => new RedisBudgetLedger(redis!)]);

beforeAll(async () => {
  if (!process.env.REDIS_URL) return;
  redis = createRedisClient(process.env.REDIS_URL, 'promptgate-ledger-spec', logger);
  await whenReady(redis);
});
afterAll(() => closeRedisClient(redis));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LONG = 60_000;
const tomorrow = () => new Date(Date.now() + 86_400_000);

describe.each(ledgers)('BudgetLedger (%s)', (_, newLedger) => {
  let ledger: BudgetLedger;
  let a: string;
  let b: string;
  beforeEach(async () => {
    ledger = newLedger();
    const tenant = randomUUID();
    a = `promptgate:budget:{${tenant}}:a`;
    b = `promptgate:budget:{${tenant}}:b`;
    await ledger.seed(a, 0, tomorrow());
    await ledger.seed(b, 0, tomorrow());
  });

  it('asks for a seed before it reserves against a line without a spent total', async () => {
    const fresh = `${a}:fresh`;
    await expect(
      ledger.reserve(
        [
          { key: a, limit: 100 },
          { key: fresh, limit: 100 },
        ],
        'r1',
        10,
        LONG,
      ),
    ).resolves.toEqual({
      outcome: 'unseeded',
      indexes: [1],
    });
    await expect(ledger.totals([a, fresh])).resolves.toEqual([{ spent: 0, reserved: 0 }, null]);
    await ledger.seed(fresh, 40, tomorrow());
    // A second seed does not overwrite the first: the first instance to seed wins.
    await ledger.seed(fresh, 99, tomorrow());
    await expect(ledger.totals([fresh])).resolves.toEqual([{ spent: 40, reserved: 0 }]);
  });

  it('reserves against every line or none', async () => {
    const lines = [
      { key: a, limit: 100 },
      { key: b, limit: 30 },
    ];
    await expect(ledger.reserve(lines, 'r1', 20, LONG)).resolves.toEqual({
      outcome: 'reserved',
      totals: [
        { spent: 0, reserved: 20 },
        { spent: 0, reserved: 20 },
      ],
    });
    await expect(ledger.reserve(lines, 'r2', 20, LONG)).resolves.toEqual({
      outcome: 'refused',
      index: 1,
      totals: { spent: 0, reserved: 20 },
    });
    // The refused reservation took nothing from the line that had room.
    await expect(ledger.totals([a, b])).resolves.toEqual([
      { spent: 0, reserved: 20 },
      { spent: 0, reserved: 20 },
    ]);
    // Up to the limit exactly.
    await expect(ledger.reserve(lines, 'r3', 10, LONG)).resolves.toMatchObject({ outcome: 'reserved' });
  });

  it('replaces a reservation by the actual cost when it is settled', async () => {
    await ledger.reserve([{ key: a, limit: 100 }], 'r1', 60, LONG);
    await ledger.settle([a], 'r1', 15);
    await expect(ledger.totals([a])).resolves.toEqual([{ spent: 15, reserved: 0 }]);
    await expect(ledger.reserve([{ key: a, limit: 100 }], 'r2', 85, LONG)).resolves.toMatchObject({
      outcome: 'reserved',
    });
    await expect(ledger.reserve([{ key: a, limit: 100 }], 'r3', 1, LONG)).resolves.toMatchObject({
      outcome: 'refused',
    });
  });

  it('releases a reservation whose lease ended, and still counts its cost if it settles late', async () => {
    // A lease long enough that the next call comes within it on a loaded machine too.
    await ledger.reserve([{ key: a, limit: 100 }], 'gone', 90, 600);
    await expect(ledger.reserve([{ key: a, limit: 100 }], 'r2', 20, LONG)).resolves.toMatchObject({
      outcome: 'refused',
    });
    await sleep(700);
    await expect(ledger.totals([a])).resolves.toEqual([{ spent: 0, reserved: 0 }]);
    await expect(ledger.reserve([{ key: a, limit: 100 }], 'r2', 20, LONG)).resolves.toMatchObject({
      outcome: 'reserved',
    });
    await ledger.settle([a], 'gone', 5);
    await expect(ledger.totals([a])).resolves.toEqual([{ spent: 5, reserved: 20 }]);
  });

  it('reserves 0 while the spent total is at the limit, not once it is over', async () => {
    await ledger.raise(a, 100);
    await expect(ledger.reserve([{ key: a, limit: 100 }], 'free', 0, LONG)).resolves.toMatchObject({
      outcome: 'reserved',
    });
    await ledger.raise(a, 101);
    await ledger.raise(a, 50);
    await expect(ledger.totals([a])).resolves.toEqual([{ spent: 101, reserved: 0 }]);
    await expect(ledger.reserve([{ key: a, limit: 100 }], 'free2', 0, LONG)).resolves.toMatchObject({
      outcome: 'refused',
    });
  });

  it('refuses exactly one of two reservations made at once against a line with room for one', async () => {
    const line = { key: a, limit: 100 };
    const outcomes = await Promise.all([
      ledger.reserve([line], 'first', 60, LONG),
      ledger.reserve([line], 'second', 60, LONG),
    ]);
    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['refused', 'reserved']);
    await expect(ledger.totals([a])).resolves.toEqual([{ spent: 0, reserved: 60 }]);
  });

  it('makes each of the reservations made at once against all of its lines or none, in turn', async () => {
    const both = [
      { key: a, limit: 100 },
      { key: b, limit: 30 },
    ];
    const fresh = `${a}:fresh`;
    const outcomes = await Promise.all([
      ledger.reserve(both, 'r1', 20, LONG),
      // b has 10 left: refused, and it takes nothing from a.
      ledger.reserve(both, 'r2', 20, LONG),
      ledger.reserve([{ key: fresh, limit: 100 }], 'r3', 1, LONG),
      // a has 80 left, r2 having taken nothing from it.
      ledger.reserve([{ key: a, limit: 100 }], 'r4', 80, LONG),
    ]);
    expect(outcomes).toEqual([
      {
        outcome: 'reserved',
        totals: [
          { spent: 0, reserved: 20 },
          { spent: 0, reserved: 20 },
        ],
      },
      { outcome: 'refused', index: 1, totals: { spent: 0, reserved: 20 } },
      { outcome: 'unseeded', indexes: [0] },
      { outcome: 'reserved', totals: [{ spent: 0, reserved: 100 }] },
    ]);
    await expect(ledger.totals([a, b])).resolves.toEqual([
      { spent: 0, reserved: 100 },
      { spent: 0, reserved: 20 },
    ]);
  });

  it('shows a settlement to a read made after it, even one not waited for', async () => {
    await ledger.reserve([{ key: a, limit: 100 }], 'r1', 60, LONG);
    void ledger.settle([a], 'r1', 15);
    await expect(ledger.totals([a])).resolves.toEqual([{ spent: 15, reserved: 0 }]);
  });

  it('frees what a settlement made at the same time releases', async () => {
    await ledger.reserve([{ key: a, limit: 100 }], 'r1', 60, LONG);
    const [, next] = await Promise.all([
      ledger.settle([a], 'r1', 10),
      ledger.reserve([{ key: a, limit: 100 }], 'r2', 90, LONG),
    ]);
    expect(next).toEqual({ outcome: 'reserved', totals: [{ spent: 10, reserved: 90 }] });
  });

  it('keeps amounts of up to a million dollars exact', async () => {
    const limit = 1_000_000 * 1e9;
    await ledger.raise(a, limit - 123_456_789_012);
    await expect(ledger.reserve([{ key: a, limit }], 'big', 123_456_789_012, LONG)).resolves.toMatchObject({
      outcome: 'reserved',
    });
    await ledger.settle([a], 'big', 123_456_789_011);
    await expect(ledger.totals([a])).resolves.toEqual([{ spent: limit - 1, reserved: 0 }]);
  });
});

describe('RedisBudgetLedger, operations made at once', () => {
  const redisOnly = process.env.REDIS_URL ? it : it.skip;
  let key: string;
  beforeEach(async () => {
    key = `promptgate:budget:{${randomUUID()}}:a`;
    await new RedisBudgetLedger(redis!).seed(key, 0, tomorrow());
  });

  redisOnly('sends the reservations and settlements of one turn as one script, each request on its own', async () => {
    const ledger = new RedisBudgetLedger(redis!);
    const line = { key, limit: 100 };
    await ledger.reserve([line], 'held', 50, LONG);
    const scripts = jest.spyOn(redis!, 'evalSha');
    try {
      const outcomes = await Promise.all([
        ledger.settle([key], 'held', 30),
        ledger.reserve([line], 'first', 40, LONG),
        ledger.reserve([line], 'second', 40, LONG),
      ]);
      expect(scripts).toHaveBeenCalledTimes(1);
      expect(outcomes.slice(1)).toEqual([
        { outcome: 'reserved', totals: [{ spent: 30, reserved: 40 }] },
        { outcome: 'refused', index: 0, totals: { spent: 30, reserved: 40 } },
      ]);
    } finally {
      scripts.mockRestore();
    }
  });

  redisOnly(
    'sends a settlement with no reservation to travel with shortly, and all that is queued when flushed',
    async () => {
      const ledger = new RedisBudgetLedger(redis!);
      // Another instance reads what reached Redis.
      const elsewhere = new RedisBudgetLedger(redis!);
      await ledger.reserve([{ key, limit: 100 }], 'r1', 60, LONG);
      await ledger.reserve([{ key, limit: 100 }], 'r2', 30, LONG);
      void ledger.settle([key], 'r1', 5);
      await sleep(100);
      await expect(elsewhere.totals([key])).resolves.toEqual([{ spent: 5, reserved: 30 }]);
      const settled = ledger.settle([key], 'r2', 7);
      await ledger.flush();
      await expect(elsewhere.totals([key])).resolves.toEqual([{ spent: 12, reserved: 0 }]);
      await expect(settled).resolves.toBeUndefined();
    },
  );
});

describe('hashTagOf', () => {
  it("reads a key's hash tag as Redis Cluster does", () => {
    expect(hashTagOf('promptgate:budget:{tenant-1}:b:x:day:0')).toBe('tenant-1');
    expect(hashTagOf('plain-key')).toBe('plain-key');
    expect(hashTagOf('empty-{}-tag')).toBe('empty-{}-tag');
    expect(hashTagOf('two-{a}-{b}')).toBe('a');
  });
});
