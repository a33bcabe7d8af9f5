import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { LogRetentionService } from '../../src/modules/logs/log-retention.service';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import {
  ExecutionLogRollupsRepository,
  tagValueRollupsSql,
} from '../../src/modules/logs/execution-log-rollups.repository';
import { MAX_RELATIVE_ERROR } from '../../src/modules/logs/latency-histogram';
import { costNanos } from '../../src/modules/logs/log-rollup';
import { HISTOGRAM_COLUMNS, SUM_COLUMNS } from '../../src/modules/logs/rollup-columns';
import type { NewExecutionLog } from '../../src/modules/logs/new-execution-log';
import { createEndpoint, logEntry } from '../support/log-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant, type SeededTenant } from '../support/seed';
import { createTestApp, type TestApp } from '../support/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ERROR_CODES = ['timeout', 'upstream_error', null];

/** A deterministic generator (mulberry32), so every run seeds the same rows. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** percentile_cont over the values, as PostgreSQL computes it. */
function percentile(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = fraction * (sorted.length - 1);
  const below = Math.floor(rank);
  return below === rank ? sorted[below] : sorted[below] + (rank - below) * (sorted[below + 1] - sorted[below]);
}

interface Figures {
  calls: number;
  errors: number;
  errorsByCode: Record<string, number>;
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: { p50: number | null; p95: number | null };
}

/** The figures of the rows, computed here from the rows themselves. */
function figuresOf(rows: NewExecutionLog[]): Figures {
  const errorsByCode: Record<string, number> = {};
  for (const row of rows.filter((r) => r.status === 'error')) {
    const code = row.errorCode ?? 'unknown';
    errorsByCode[code] = (errorsByCode[code] ?? 0) + 1;
  }
  const nanos = rows.reduce((sum, row) => sum + (row.costUsd === null ? 0n : costNanos(row.costUsd)), 0n);
  const latencies = rows.map((row) => row.latencyMs);
  return {
    calls: rows.length,
    errors: rows.filter((r) => r.status === 'error').length,
    errorsByCode: Object.fromEntries(Object.entries(errorsByCode).sort(([a], [b]) => a.localeCompare(b))),
    cacheHits: rows.filter((r) => r.cached).length,
    inputTokens: rows.reduce((sum, row) => sum + (row.inputTokens ?? 0), 0),
    outputTokens: rows.reduce((sum, row) => sum + (row.outputTokens ?? 0), 0),
    costUsd: Math.round((Number(nanos) / 1e9) * 1e9) / 1e9,
    latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
  };
}

/** Everything but the percentiles equal; each percentile exact (to the response's 2 decimals) or within the bound. */
function expectFigures(actual: Figures, rows: NewExecutionLog[], exactPercentiles: boolean): void {
  const expected = figuresOf(rows);
  expect({ ...actual, latencyMs: undefined }).toMatchObject({ ...expected, latencyMs: undefined });
  for (const key of ['p50', 'p95'] as const) {
    const exact = expected.latencyMs[key];
    const answered = actual.latencyMs[key];
    if (exact === null) expect(answered).toBeNull();
    else if (exactPercentiles) expect(answered).toBeCloseTo(exact, 2);
    else expect(Math.abs(answered! - exact)).toBeLessThanOrEqual(MAX_RELATIVE_ERROR * exact + 0.01);
  }
}

describe('GET /admin/v1/stats answered from the rollups', () => {
  /** Percentiles are exact up to 40 executions here, estimated above. */
  const EXACT_ROWS = 40;
  const { t, tenant } = useTestApp({ config: { statsExactPercentileRows: EXACT_ROWS } });
  let first: string;
  let second: string;
  const prompts = [randomUUID(), randomUUID()];
  const rows: NewExecutionLog[] = [];
  /** UTC midnight four days ago; rows lie within the following three days. */
  const day = Math.floor(Date.now() / DAY) * DAY - 4 * DAY;
  /** Neither end on a whole hour. */
  const from = new Date(day + 17 * 60_000 + 23_456);
  const to = new Date(day + 2 * DAY + 19 * HOUR + 41 * 60_000 + 7_890);
  const within = (rowsIn: NewExecutionLog[], start: number, end: number) =>
    rowsIn.filter((row) => row.createdAt.getTime() >= start && row.createdAt.getTime() < end);
  const stats = async (query: string) => {
    const res = await t.http.get(`/admin/v1/stats${query}`).set(auth(tenant.admin));
    expect(res.status).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    first = await createEndpoint(t, tenant, 'rollup-first');
    second = await createEndpoint(t, tenant, 'rollup-second');
    const next = random(2026);
    for (let i = 0; i < 400; i++) {
      const isError = next() < 0.12;
      const endpointId = next() < 0.9 ? first : second;
      rows.push(
        logEntry(tenant.id, endpointId, {
          // The first endpoint's first 30 rows lie in the first two hours; the rest anywhere in the three days.
          createdAt: new Date(day + Math.floor(next() * (i < 30 ? 2 * HOUR : 3 * DAY))),
          promptId: endpointId === second ? null : prompts[i % 2],
          status: isError ? 'error' : 'success',
          httpStatus: isError ? 502 : 200,
          errorCode: isError ? ERROR_CODES[i % 3] : null,
          cached: i % 7 === 0,
          latencyMs: Math.round(Math.exp(3 + next() * 7)),
          inputTokens: i % 11 === 0 ? null : Math.floor(next() * 2000),
          outputTokens: i % 13 === 0 ? null : Math.floor(next() * 500),
          costUsd: i % 5 === 0 ? null : Math.round(next() * 1e12) / 1e15,
          // Untagged, one tag or three (one of them of many values, one with characters a key must keep apart).
          tags:
            i % 4 === 0
              ? {}
              : i % 4 === 1
                ? { team: `team-${i % 3}` }
                : { team: `team-${i % 3}`, customer: `cust-${i % 37}`, note: i % 2 ? 'a|b' : 'ä "q"' },
        }),
      );
    }
    // A few evaluation rows too, which the statistics and so the rollups leave out.
    const evaluations = rows
      .filter((_, i) => i % 50 === 3)
      .map((row) => ({ ...row, requestId: randomUUID(), source: 'Eval' as const }));
    const logs = t.app.get(ExecutionLogsService);
    for (const row of [...rows, ...evaluations]) logs.record(row);
    await logs.flush();
  });

  it('by day, whole tenant: every figure of the totals and of each day equals the rows’ own', async () => {
    const data = await stats(`?from=${from.toISOString()}&to=${to.toISOString()}&interval=day`);
    const inRange = within(rows, from.getTime(), to.getTime());
    expect(inRange.length).toBeGreaterThan(EXACT_ROWS);
    expectFigures(data.totals, inRange, false);
    expect(data.series).toHaveLength(3);
    for (const bucket of data.series as (Figures & { start: string })[]) {
      const start = new Date(bucket.start).getTime();
      expectFigures(bucket, within(inRange, start, start + DAY), false);
    }
  });

  it('by hour, one endpoint: the same, hour by hour, over a period with partial hours at both ends', async () => {
    const end = new Date(day + 30 * HOUR + 5 * 60_000);
    const data = await stats(`?endpointId=${first}&from=${from.toISOString()}&to=${end.toISOString()}&interval=hour`);
    const inRange = within(rows, from.getTime(), end.getTime()).filter((row) => row.endpointId === first);
    expectFigures(data.totals, inRange, false);
    expect(data.series).toHaveLength(31);
    for (const bucket of data.series as (Figures & { start: string })[]) {
      const start = new Date(bucket.start).getTime();
      const bucketRows = within(inRange, start, start + HOUR);
      expectFigures(bucket, bucketRows, false);
    }
  });

  it('groupBy=prompt: each prompt’s totals equal its rows’ own (executions without a prompt in no group)', async () => {
    const data = await stats(`?from=${from.toISOString()}&to=${to.toISOString()}&groupBy=prompt`);
    const inRange = within(rows, from.getTime(), to.getTime());
    expect(data.groups.map((group: { promptId: string }) => group.promptId).sort()).toEqual([...prompts].sort());
    for (const group of data.groups as { promptId: string; totals: Figures }[])
      expectFigures(
        group.totals,
        inRange.filter((row) => row.promptId === group.promptId),
        false,
      );
  });

  it('computes percentiles exactly from the rows when the period holds at most the threshold', async () => {
    const end = new Date(day + 2 * HOUR);
    const data = await stats(`?endpointId=${first}&from=${from.toISOString()}&to=${end.toISOString()}&interval=hour`);
    const inRange = within(rows, from.getTime(), end.getTime()).filter((row) => row.endpointId === first);
    expect(inRange.length).toBeLessThanOrEqual(EXACT_ROWS);
    expect(inRange.length).toBeGreaterThan(10);
    expectFigures(data.totals, inRange, true);
  });

  it('rollups built from existing rows (the migration and the seeding tool) equal the ones the writer keeps', async () => {
    const copy = await seedTenant(t.app);
    const endpoint = await createEndpoint(t, copy, 'rollup-copy');
    const db = t.app.get(DataSource);
    await db.query(
      `INSERT INTO execution_logs (tenant_id, endpoint_id, prompt_id, source, key_id, request_id, status, http_status,
         error_code, cached, input_tokens, output_tokens, cost_usd, latency_ms, created_at)
       SELECT $1, $2, prompt_id, source, key_id, request_id, status, http_status, error_code, cached, input_tokens,
         output_tokens, cost_usd, latency_ms, created_at
       FROM execution_logs WHERE tenant_id = $3 AND endpoint_id = $4`,
      [copy.id, endpoint, tenant.id, first],
    );
    await t.app.get(ExecutionLogRollupsRepository).buildFromLogs([copy.id]);
    const query = `?from=${from.toISOString()}&to=${to.toISOString()}&groupBy=prompt`;
    const [original, copied] = await Promise.all([
      stats(`${query}&endpointId=${first}`),
      t.http.get(`/admin/v1/stats${query}&endpointId=${endpoint}`).set(auth(copy.admin)),
    ]);
    expect({ ...copied.body.data, endpointId: first }).toEqual(original);
  });

  it('tag rollups built from existing rows equal the ones the writer keeps, in every table and every column', async () => {
    const copy = await seedTenant(t.app);
    const [copyFirst, copySecond] = [
      await createEndpoint(t, copy, 'tag-copy-1'),
      await createEndpoint(t, copy, 'tag-copy-2'),
    ];
    const db = t.app.get(DataSource);
    await db.query(
      `INSERT INTO execution_logs (tenant_id, endpoint_id, prompt_id, source, key_id, request_id, status, http_status,
         error_code, cached, input_tokens, output_tokens, cost_usd, latency_ms, created_at, tags)
       SELECT $1, CASE WHEN endpoint_id = $3 THEN $4::uuid ELSE $5::uuid END, prompt_id, source, key_id, request_id,
         status, http_status, error_code, cached, input_tokens, output_tokens, cost_usd, latency_ms, created_at, tags
       FROM execution_logs WHERE tenant_id = $2`,
      [copy.id, tenant.id, first, copyFirst, copySecond],
    );
    await t.app.get(ExecutionLogRollupsRepository).buildFromLogs([copy.id]);
    const endpointOf = `CASE endpoint_id WHEN $2::uuid THEN 'first' WHEN $3::uuid THEN 'second' END AS endpoint`;
    const columns = [...SUM_COLUMNS, 'latency_max_ms', ...HISTOGRAM_COLUMNS].map((c) => `${c}::text`).join(', ');
    const tables = async (tenantId: string, endpoints: [string, string]) => ({
      sums: await db.query(
        `SELECT tag_key, span, start, tag_value, ${endpointOf}, ${columns} FROM execution_log_tag_rollups
         WHERE tenant_id = $1 ORDER BY tag_key, span, start, tag_value, endpoint`,
        [tenantId, ...endpoints],
      ),
      errors: await db.query(
        `SELECT tag_key, span, start, tag_value, ${endpointOf}, error_code, errors::text
         FROM execution_log_tag_error_rollups WHERE tenant_id = $1
         ORDER BY tag_key, span, start, tag_value, endpoint, error_code`,
        [tenantId, ...endpoints],
      ),
      tenantWide: await db.query(
        `SELECT tag_key, span, start, tag_value, ${columns} FROM execution_log_tag_value_rollups
         WHERE tenant_id = $1 ORDER BY tag_key, span, start, tag_value`,
        [tenantId],
      ),
    });
    const written = await tables(tenant.id, [first, second]);
    expect(written.sums.length).toBeGreaterThan(100);
    expect(written.errors.length).toBeGreaterThan(10);
    expect(written.sums.map((row: { tag_value: string }) => row.tag_value)).toEqual(
      expect.arrayContaining(['a|b', 'ä "q"']),
    );
    expect(await tables(copy.id, [copyFirst, copySecond])).toEqual(written);
  });
});

describe('rollups and deleted logs', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  beforeAll(async () => {
    t = await createTestApp({ statsExactPercentileRows: 0, logRetentionDays: 30 });
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  const rollupCalls = async (where: string, params: unknown[]) => {
    const [row] = await t.app
      .get(DataSource)
      .query<{ hours: string | null; days: string | null; errors: string | null }[]>(
        `SELECT (SELECT sum(calls) FROM execution_log_rollups WHERE span = 'hour' AND ${where}) AS hours, (SELECT sum(calls) FROM execution_log_rollups WHERE span = 'day' AND ${where}) AS days, (SELECT count(*) FROM execution_log_error_rollups WHERE ${where}) AS errors`,
        params,
      );
    return { hours: Number(row.hours ?? 0), days: Number(row.days ?? 0), errors: Number(row.errors) };
  };

  it.each([
    ['within a day', 13.5 * HOUR],
    ['at the start of a day', 0.25 * HOUR],
  ])(
    'retention removes the rollups of what it deletes (cutoff %s): the figures stay those of the rows kept',
    async (_, timeOfDay) => {
      const endpoint = await createEndpoint(t, tenant, `aging-rollups-${timeOfDay}`);
      const logs = t.app.get(ExecutionLogsService);
      const now = Math.floor(Date.now() / DAY) * DAY - DAY + timeOfDay;
      const rows = [45, 31.2, 30.8, 30.02, 29.98, 29.5, 12, 0.5].flatMap((days, i) =>
        [0, 1, 2].map((k) =>
          logEntry(tenant.id, endpoint, {
            createdAt: new Date(now - days * DAY - k * 7 * 60_000),
            latencyMs: 100 + i * 10 + k,
            status: k === 2 ? 'error' : 'success',
            errorCode: k === 2 ? 'timeout' : null,
            costUsd: 0.001 * (i + 1),
          }),
        ),
      );
      for (const row of rows) logs.record(row);
      await logs.flush();
      expect(await rollupCalls('endpoint_id = $1', [endpoint])).toMatchObject({ hours: 24, days: 24 });
      await t.app.get(LogRetentionService).sweep(new Date(now));
      const cutoff = Math.floor((now - 30 * DAY) / HOUR) * HOUR;
      const kept = rows.filter((row) => row.createdAt.getTime() >= cutoff);
      const [{ count }] = await t.app
        .get(DataSource)
        .query<{ count: number }[]>('SELECT count(*)::int AS count FROM execution_logs WHERE endpoint_id = $1', [
          endpoint,
        ]);
      expect(count).toBe(kept.length);
      expect(await rollupCalls('endpoint_id = $1', [endpoint])).toMatchObject({
        hours: kept.length,
        days: kept.length,
      });
      for (const interval of ['day', 'hour']) {
        const start = new Date(now - (interval === 'day' ? 40 * DAY : 40 * DAY + 17 * 60_000));
        // Up to an hour after the sweep, not to the present: an hourly series from 40 days back would otherwise pass
        // the bucket limit late in the day.
        const end = new Date(now + HOUR).toISOString();
        const res = await t.http
          .get(`/admin/v1/stats?endpointId=${endpoint}&interval=${interval}&from=${start.toISOString()}&to=${end}`)
          .set(auth(tenant.admin));
        expect(res.status).toBe(200);
        expectFigures(res.body.data.totals, kept, false);
      }
    },
  );

  it('a permanent endpoint delete removes its rollups', async () => {
    const endpoint = await createEndpoint(t, tenant, 'gone-rollups');
    const logs = t.app.get(ExecutionLogsService);
    logs.record(logEntry(tenant.id, endpoint, { status: 'error', errorCode: 'timeout' }));
    logs.record(logEntry(tenant.id, endpoint));
    await logs.flush();
    expect(await rollupCalls('endpoint_id = $1', [endpoint])).toEqual({ hours: 2, days: 2, errors: 2 });
    const res = await t.http.delete(`/admin/v1/endpoints/${endpoint}?permanent=true`).set(auth(tenant.admin));
    expect(res.status).toBeLessThan(300);
    expect(await rollupCalls('endpoint_id = $1', [endpoint])).toEqual({ hours: 0, days: 0, errors: 0 });
  });
});

describe('tenant-wide tag rollups', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  beforeAll(async () => {
    t = await createTestApp({ statsExactPercentileRows: 0, logRetentionDays: 30 });
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The tag rollups summed over the endpoints, and the tenant-wide ones, as text to compare. */
  const bothSums = async () => {
    const db = t.app.get(DataSource);
    const columns = [...SUM_COLUMNS, ...HISTOGRAM_COLUMNS];
    const perEndpoint = await db.query(
      `SELECT tag_key, span, start, tag_value, ${columns.map((c) => `sum(${c})::text AS ${c}`).join(', ')},
         max(latency_max_ms) AS latency_max_ms
       FROM execution_log_tag_rollups WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      [tenant.id],
    );
    const tenantWide = await db.query(
      `SELECT tag_key, span, start, tag_value, ${columns.map((c) => `${c}::text AS ${c}`).join(', ')}, latency_max_ms
       FROM execution_log_tag_value_rollups WHERE tenant_id = $1 ORDER BY 1, 2, 3, 4`,
      [tenant.id],
    );
    return { perEndpoint, tenantWide };
  };
  const expectSameSums = async (rowCount: number) => {
    const { perEndpoint, tenantWide } = await bothSums();
    expect(tenantWide).toEqual(perEndpoint);
    // Each row counted once under each of its two tags, in its hour and in its day.
    expect(tenantWide.reduce((sum: number, row: { calls: string }) => sum + Number(row.calls), 0)).toBe(4 * rowCount);
  };

  it('hold the sums of the tag rollups over the endpoints, after a permanent endpoint delete and retention too', async () => {
    const endpoints = [
      await createEndpoint(t, tenant, 'wide-a'),
      await createEndpoint(t, tenant, 'wide-b'),
      await createEndpoint(t, tenant, 'wide-c'),
    ];
    const now = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR + 17 * 60_000;
    const rows: NewExecutionLog[] = [];
    for (let i = 0; i < 90; i++) {
      const endpointId = endpoints[i % 3];
      rows.push(
        logEntry(tenant.id, endpointId, {
          // Some beyond the retention period; the rest in a few hours and days, often the same across endpoints.
          createdAt: new Date(now - (i % 10 === 0 ? 31 * DAY : (i % 4) * DAY + (i % 3) * HOUR)),
          // The second endpoint has the slowest executions of every value, so its delete lowers their largest latency.
          latencyMs: endpointId === endpoints[1] ? 5000 + i : 100 + i * 7,
          status: i % 8 === 0 ? 'error' : 'success',
          errorCode: i % 8 === 0 ? 'timeout' : null,
          costUsd: 0.0001 * (i + 1),
          tags: { team: `t${i % 2}`, customer: `c${i % 5}` },
        }),
      );
    }
    const logs = t.app.get(ExecutionLogsService);
    for (const row of rows) logs.record(row);
    await logs.flush();
    await expectSameSums(rows.length);
    // The migration's back-fill, summed from the tag rollups, gives the rows the writer kept.
    const db = t.app.get(DataSource);
    const written = (await bothSums()).tenantWide;
    await db.query('DELETE FROM execution_log_tag_value_rollups WHERE tenant_id = $1', [tenant.id]);
    await db.query(tagValueRollupsSql('tenant_id = $1'), [tenant.id]);
    expect((await bothSums()).tenantWide).toEqual(written);

    const groups = async () => {
      const query = `from=${new Date(now - 40 * DAY).toISOString()}&to=${new Date(now + HOUR).toISOString()}`;
      const res = await t.http.get(`/admin/v1/stats?${query}&groupBy=tag:customer`).set(auth(tenant.admin));
      expect(res.status).toBe(200);
      return Object.fromEntries(res.body.data.groups.map((group: any) => [group.tag.value, group.totals.calls]));
    };
    const expected = (kept: NewExecutionLog[]) => {
      const calls: Record<string, number> = {};
      for (const row of kept) calls[row.tags.customer] = (calls[row.tags.customer] ?? 0) + 1;
      return { ...calls, null: 0 };
    };
    expect(await groups()).toEqual(expected(rows));

    const res = await t.http.delete(`/admin/v1/endpoints/${endpoints[1]}?permanent=true`).set(auth(tenant.admin));
    expect(res.status).toBeLessThan(300);
    const kept = rows.filter((row) => row.endpointId !== endpoints[1]);
    await expectSameSums(kept.length);
    expect(await groups()).toEqual(expected(kept));

    await t.app.get(LogRetentionService).sweep(new Date(now));
    const retained = kept.filter((row) => row.createdAt.getTime() >= now - 30 * DAY);
    expect(retained.length).toBeLessThan(kept.length);
    await expectSameSums(retained.length);
    expect(await groups()).toEqual(expected(retained));
  });
});

const withPostgres = process.env.DATABASE_URL ? describe : describe.skip;

withPostgres('two instances writing the same hours (skipped unless DATABASE_URL is set)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await Promise.all([createTestApp(), createTestApp()]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('lose no increment: every row is counted once in its hour and its day', async () => {
    const tenant = await seedTenant(a.app);
    const endpoints = [await createEndpoint(a, tenant, 'shared-1'), await createEndpoint(a, tenant, 'shared-2')];
    const hour = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
    const writers = [a, b].map((t) => t.app.get(ExecutionLogsService));
    const rounds = 5;
    const perWriter = 700;
    for (let round = 0; round < rounds; round++) {
      // Both writers touch the same keys (two endpoints, two hours) in every batch.
      for (const [w, writer] of writers.entries())
        for (let i = 0; i < perWriter; i++)
          writer.record(
            logEntry(tenant.id, endpoints[(i + w) % 2], {
              createdAt: new Date(hour + ((i * 7919 + w) % (2 * HOUR - 1))),
              latencyMs: i,
            }),
          );
      await Promise.all(writers.map((writer) => writer.flush()));
    }
    const total = rounds * perWriter * 2;
    const [row] = await a.app.get(DataSource).query<{ hours: string; days: string; logs: number }[]>(
      `SELECT (SELECT sum(calls) FROM execution_log_rollups WHERE tenant_id = $1 AND span = 'hour') AS hours,
           (SELECT sum(calls) FROM execution_log_rollups WHERE tenant_id = $1 AND span = 'day') AS days,
           (SELECT count(*)::int FROM execution_logs WHERE tenant_id = $1) AS logs`,
      [tenant.id],
    );
    expect({ hours: Number(row.hours), days: Number(row.days), logs: row.logs }).toEqual({
      hours: total,
      days: total,
      logs: total,
    });
  });
});
