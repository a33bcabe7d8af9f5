import { bucketOf } from './latency-histogram';
import {
  NO_PROMPT,
  type RollupSource,
  type TagRollupGroup,
  costNanos,
  nanosOf,
  nanosText,
  rollUp,
  rollUpBatch,
  rollUpTags,
  TagSums,
} from './log-rollup';

const row = (overrides: Partial<RollupSource>): RollupSource => ({
  tenantId: 'a0000000-0000-0000-0000-000000000000',
  endpointId: 'e0000000-0000-0000-0000-000000000000',
  promptId: 'p0000000-0000-0000-0000-000000000000',
  status: 'success',
  errorCode: null,
  cached: false,
  inputTokens: 10,
  outputTokens: 5,
  costUsd: 0.0001,
  latencyMs: 120,
  createdAt: new Date('2026-03-01T10:15:00Z'),
  ...overrides,
});

describe('costNanos', () => {
  it('rounds each cost to nine decimals half away from zero, as numeric(18, 9) stores it', () => {
    expect(costNanos(0.0045)).toBe(4_500_000n);
    expect(costNanos(1e-7)).toBe(100n);
    expect(costNanos(1.5e-10)).toBe(0n);
    expect(costNanos(5e-10)).toBe(1n);
    expect(costNanos(0.0000000015)).toBe(2n);
    expect(costNanos(123.4567890125)).toBe(123_456_789_013n);
    expect(costNanos(-0.0000000025)).toBe(-3n);
    expect(costNanos(12)).toBe(12_000_000_000n);
    expect(costNanos(1e21)).toBe(10n ** 30n);
  });

  it('writes and reads numeric text', () => {
    expect(nanosText(12_000_000_345n)).toBe('12.000000345');
    expect(nanosText(-5n)).toBe('-0.000000005');
    expect(nanosOf('12.000000345')).toBe(12_000_000_345n);
    expect(nanosOf('0')).toBe(0n);
    expect(nanosOf('-0.5')).toBe(-500_000_000n);
  });
});

describe('rollUp', () => {
  it('sums a batch per tenant, endpoint, prompt and UTC hour and day, keys sorted', () => {
    const groups = rollUp([
      row({ createdAt: new Date('2026-03-01T11:59:59.999Z'), latencyMs: 3 }),
      row({ status: 'error', errorCode: 'timeout', cached: false, costUsd: null, inputTokens: null }),
      row({ status: 'error', errorCode: null, cached: true, promptId: null, latencyMs: 5000 }),
      row({ latencyMs: 130 }),
    ]);
    expect(groups.map((g) => [g.span, g.start.toISOString(), g.promptId, g.calls])).toEqual([
      ['day', '2026-03-01T00:00:00.000Z', NO_PROMPT, 1],
      ['day', '2026-03-01T00:00:00.000Z', 'p0000000-0000-0000-0000-000000000000', 3],
      ['hour', '2026-03-01T10:00:00.000Z', NO_PROMPT, 1],
      ['hour', '2026-03-01T10:00:00.000Z', 'p0000000-0000-0000-0000-000000000000', 2],
      ['hour', '2026-03-01T11:00:00.000Z', 'p0000000-0000-0000-0000-000000000000', 1],
    ]);
    const day = groups[1];
    expect(day).toMatchObject({ errors: 1, cacheHits: 0, inputTokens: 20, outputTokens: 15, latencyMaxMs: 130 });
    expect(day.costNanos).toBe(200_000n);
    expect([...day.errorCodes]).toEqual([['timeout', 1]]);
    expect(day.latencyCounts[bucketOf(3)]).toBe(1);
    expect(day.latencyCounts[bucketOf(120)] + day.latencyCounts[bucketOf(130)]).toBe(2);
    expect(Object.values(day.latencyCounts).reduce((a, b) => a + b, 0)).toBe(3);
    expect(groups[0]).toMatchObject({ errors: 1, cacheHits: 1, latencyMaxMs: 5000 });
    expect([...groups[0].errorCodes]).toEqual([['unknown', 1]]);
  });
});

describe('rollUpTags', () => {
  it('counts a row once under each of its tags, per endpoint and UTC hour and day, not per prompt', () => {
    const groups = rollUpTags([
      row({ tags: { team: 'search', customer: 'a|b' }, latencyMs: 3 }),
      row({ tags: { team: 'search' }, promptId: 'q0000000-0000-0000-0000-000000000000', costUsd: 0.0002 }),
      // Values are compared whole: 'a' and 'a|b' never share a group, whatever they hold.
      row({ tags: { customer: 'a' } }),
      row({}),
    ]);
    expect(groups.map((g) => [g.tagKey, g.tagValue, g.span, g.promptId, g.calls])).toEqual([
      ['customer', 'a', 'day', NO_PROMPT, 1],
      ['customer', 'a|b', 'day', NO_PROMPT, 1],
      ['customer', 'a', 'hour', NO_PROMPT, 1],
      ['customer', 'a|b', 'hour', NO_PROMPT, 1],
      ['team', 'search', 'day', NO_PROMPT, 2],
      ['team', 'search', 'hour', NO_PROMPT, 2],
    ]);
    const team = groups[5];
    expect(team.costNanos).toBe(300_000n);
    expect(team.latencyCounts).toEqual({ [bucketOf(3)]: 1, [bucketOf(120)]: 1 });
    expect(team.latencyMaxMs).toBe(120);
  });

  it('sums interleaved tenants, endpoints, hours and days as it sums each row alone', () => {
    const tenants = ['a0000000-0000-0000-0000-000000000000', 'b0000000-0000-0000-0000-000000000000'];
    const endpoints = ['e0000000-0000-0000-0000-000000000000', 'f0000000-0000-0000-0000-000000000000'];
    // Hours 23:00 and 00:00 of two days, and two hours of one day, in an order that keeps changing them.
    const times = ['2026-03-01T23:10:00Z', '2026-03-02T00:20:00Z', '2026-03-02T00:40:00Z', '2026-03-02T05:00:00Z'];
    const rows = Array.from({ length: 48 }, (_, n) =>
      row({
        tenantId: tenants[n % 2],
        endpointId: endpoints[Math.floor(n / 2) % 2],
        createdAt: new Date(times[Math.floor(n / 3) % 4]),
        latencyMs: 10 * n,
        status: n % 5 === 0 ? 'error' : 'success',
        tags: n % 7 === 0 ? {} : { team: `team-${n % 3}`, ...(n % 2 ? { customer: `c${n % 4}` } : {}) },
      }),
    );
    const keyOf = (g: TagRollupGroup) =>
      `${g.tenantId}|${g.endpointId}|${g.span}|${g.start.toISOString()}|${g.tagKey}|${g.tagValue}`;
    const alone = new Map<string, { calls: number; errors: number; latencyMaxMs: number }>();
    for (const each of rows)
      for (const group of rollUpTags([each])) {
        const sum = alone.get(keyOf(group)) ?? { calls: 0, errors: 0, latencyMaxMs: 0 };
        alone.set(keyOf(group), {
          calls: sum.calls + group.calls,
          errors: sum.errors + group.errors,
          latencyMaxMs: Math.max(sum.latencyMaxMs, group.latencyMaxMs),
        });
      }
    const together = rollUpTags(rows);
    // One group per key (an upsert may touch a row once per statement), in the tag rollups' key order.
    expect(new Set(together.map(keyOf)).size).toBe(together.length);
    expect(
      new Map(together.map((g) => [keyOf(g), { calls: g.calls, errors: g.errors, latencyMaxMs: g.latencyMaxMs }])),
    ).toEqual(alone);
    const order = together.map((g) => [g.tenantId, g.tagKey, g.span, g.start.getTime(), g.tagValue, g.endpointId]);
    expect(order).toEqual(
      [...order].sort((x, y) => {
        for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
        return 0;
      }),
    );
    const batch = rollUpBatch(rows);
    expect(batch.groups).toEqual(rollUp(rows));
    expect(batch.tagged.map((figures) => figures.row)).toEqual(rows.filter((each) => Object.keys(each.tags!).length));
    // A window's sums, added batch by batch, are the sums of all its rows at once.
    const window = new TagSums();
    for (let start = 0; start < rows.length; start += 5) window.add(rollUpBatch(rows.slice(start, start + 5)).tagged);
    expect(window.size).toBe(together.length);
    expect(window.groups()).toEqual(together);
  });
});
