import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { createEndpoint, logEntry } from '../support/log-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('GET /admin/v1/stats', () => {
  const { t, tenant, other } = useTestApp({ other: true });
  let first: string;
  let second: string;
  /** UTC midnight three days ago: every seeded row lies within the following two days. */
  const day = new Date(Math.floor(Date.now() / DAY) * DAY - 3 * DAY);
  const at = (hours: number, minutes = 0) => new Date(day.getTime() + hours * HOUR + minutes * 60_000);
  const iso = (date: Date) => date.toISOString();

  const get = (query: string, key = tenant.admin) => t.http.get(`/admin/v1/stats${query}`).set(auth(key));
  const stats = async (query: string, key = tenant.admin) => {
    const res = await get(query, key);
    expect(res.status).toBe(200);
    expect(res.body.succeeded).toBe(true);
    return res.body.data;
  };

  beforeAll(async () => {
    first = await createEndpoint(t, tenant, 'stats-first');
    second = await createEndpoint(t, tenant, 'stats-second');
    const logs = t.app.get(ExecutionLogsService);
    // First endpoint, 10:00-10:59 UTC: four successes, one a cache hit.
    [100, 200, 300, 400].forEach((latencyMs, i) =>
      logs.record(
        logEntry(tenant.id, first, {
          createdAt: at(10, i * 10),
          latencyMs,
          cached: i === 0,
          inputTokens: i === 0 ? null : 1000,
          outputTokens: i === 0 ? null : 200,
          costUsd: i === 0 ? null : 0.0045,
        }),
      ),
    );
    // 11:00-11:59: two failures.
    logs.record(
      logEntry(tenant.id, first, {
        createdAt: at(11, 5),
        latencyMs: 1000,
        status: 'error',
        httpStatus: 504,
        errorCode: 'timeout',
        inputTokens: null,
        outputTokens: null,
        costUsd: null,
      }),
    );
    logs.record(
      logEntry(tenant.id, first, {
        createdAt: at(11, 30),
        latencyMs: 2000,
        status: 'error',
        httpStatus: 502,
        errorCode: 'upstream_error',
        inputTokens: 500,
        outputTokens: 0,
        costUsd: 0.00125,
      }),
    );
    // Second endpoint, next day.
    logs.record(
      logEntry(tenant.id, second, {
        createdAt: at(29),
        latencyMs: 50,
        inputTokens: 10,
        outputTokens: 20,
        costUsd: 0.5,
      }),
    );
    // Another tenant, same first hour.
    const otherEndpoint = await createEndpoint(t, other, 'stats-other');
    logs.record(logEntry(other.id, otherEndpoint, { createdAt: at(10), latencyMs: 9999, costUsd: 9 }));
    await logs.flush();
  });

  it('sums one endpoint per day: calls, errors by code, cache hits, latency percentiles, tokens and cost', async () => {
    const data = await stats(`?endpointId=${first}&from=${iso(day)}&to=${iso(at(48))}&interval=day`);
    const firstDay = {
      calls: 6,
      errors: 2,
      errorsByCode: { timeout: 1, upstream_error: 1 },
      cacheHits: 1,
      // percentile_cont over 100, 200, 300, 400, 1000, 2000
      latencyMs: { p50: 350, p95: 1750 },
      inputTokens: 3500,
      outputTokens: 600,
      costUsd: 0.01475,
    };
    expect(data).toEqual({
      endpointId: first,
      from: iso(day),
      to: iso(at(48)),
      interval: 'day',
      totals: { ...firstDay, errorRate: 0.3333, cacheHitRate: 0.1667 },
      series: [
        { start: iso(day), ...firstDay },
        {
          start: iso(at(24)),
          calls: 0,
          errors: 0,
          errorsByCode: {},
          cacheHits: 0,
          latencyMs: { p50: null, p95: null },
          inputTokens: 0,
          outputTokens: 0,
          costUsd: 0,
        },
      ],
    });
  });

  it('splits by UTC hour, with empty hours present', async () => {
    const data = await stats(`?endpointId=${first}&from=${iso(day)}&to=${iso(at(24))}&interval=hour`);
    expect(data.series).toHaveLength(24);
    expect(data.series.map((bucket: { start: string }) => bucket.start)).toEqual(
      Array.from({ length: 24 }, (_, h) => iso(at(h))),
    );
    expect(data.series[10]).toMatchObject({
      calls: 4,
      errors: 0,
      errorsByCode: {},
      cacheHits: 1,
      latencyMs: { p50: 250, p95: 385 },
      inputTokens: 3000,
      costUsd: 0.0135,
    });
    expect(data.series[11]).toMatchObject({
      calls: 2,
      errors: 2,
      errorsByCode: { timeout: 1, upstream_error: 1 },
      latencyMs: { p50: 1500, p95: 1950 },
    });
    expect(data.series.filter((bucket: { calls: number }) => bucket.calls === 0)).toHaveLength(22);
    expect(data.totals).toMatchObject({ calls: 6, errors: 2 });
  });

  it('covers every endpoint of the tenant without endpointId, and honours from/to', async () => {
    const all = await stats(`?from=${iso(day)}&to=${iso(at(48))}`);
    expect(all.endpointId).toBeNull();
    expect(all.totals).toMatchObject({ calls: 7, errors: 2, inputTokens: 3510, outputTokens: 620, costUsd: 0.51475 });
    expect(all.series.map((bucket: { calls: number }) => bucket.calls)).toEqual([6, 1]);
    const window = await stats(`?from=${iso(at(10, 15))}&to=${iso(at(11, 30))}&interval=hour`);
    // 10:20, 10:30 and 11:05; 11:30 is excluded (to is exclusive).
    expect(window.totals).toMatchObject({ calls: 3, errors: 1, errorsByCode: { timeout: 1 } });
  });

  it('keeps tenants apart', async () => {
    const theirs = await stats(`?from=${iso(day)}&to=${iso(at(48))}`, other.admin);
    expect(theirs.totals).toMatchObject({ calls: 1, costUsd: 9, latencyMs: { p50: 9999, p95: 9999 } });
    const foreignEndpoint = await stats(`?endpointId=${first}&from=${iso(day)}&to=${iso(at(48))}`, other.admin);
    expect(foreignEndpoint.totals).toMatchObject({
      calls: 0,
      errors: 0,
      cacheHits: 0,
      costUsd: 0,
      errorRate: null,
      cacheHitRate: null,
    });
  });

  it('defaults to the last 7 days by day, or the last 24 hours by hour', async () => {
    const byDay = await stats('');
    expect(byDay.interval).toBe('day');
    expect(new Date(byDay.to).getTime() - new Date(byDay.from).getTime()).toBe(7 * DAY);
    expect(Math.abs(new Date(byDay.to).getTime() - Date.now())).toBeLessThan(60_000);
    expect(byDay.totals.calls).toBe(7);
    const byHour = await stats('?interval=hour');
    expect(new Date(byHour.to).getTime() - new Date(byHour.from).getTime()).toBe(DAY);
    expect(byHour.series.length).toBeGreaterThanOrEqual(24);
  });

  it('answers ReadOnly keys and refuses endpoint keys', async () => {
    expect((await stats(`?endpointId=${first}&from=${iso(day)}&to=${iso(at(48))}`, tenant.readOnly)).totals.calls).toBe(
      6,
    );
    const res = await get('', tenant.endpointKey);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ succeeded: false, data: null });
  });

  it.each([
    ['?interval=week', 'interval'],
    ['?endpointId=abc', 'endpointId'],
    ['?from=soon', 'from'],
    [`?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`, 'from'],
    [`?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z&interval=hour`, 'interval'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body.succeeded).toBe(false);
    expect(res.body.messages.join(' ')).toContain(field);
  });

  it('says which bound of the time range is not a timestamp', async () => {
    expect((await get('?to=soon')).body.messages).toEqual(['to must be an ISO 8601 timestamp']);
    expect((await get('?from=2026-13-01')).body.messages).toEqual(['from must be an ISO 8601 timestamp']);
  });
});
