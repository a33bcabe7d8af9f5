import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { logBatchStatement } from '../../src/modules/logs/log-batch-statement';
import { toLogRow } from '../../src/modules/logs/log-row';
import type { NewExecutionLog } from '../../src/modules/logs/new-execution-log';
import { TagSumRecoveryService } from '../../src/modules/logs/tag-sum-recovery.service';
import { useTestApp } from '../support/app-suite';
import { createEndpoint, logEntry } from '../support/log-fixtures';
import { auth, seedTenant, type SeededTenant } from '../support/seed';
import { createTestApp, type TestApp } from '../support/test-app';

const HOUR = 3_600_000;

/**
 * Stores rows as a writer does, with their window registered, and leaves the window's sums unwritten: what an instance
 * that stopped before its window closed leaves behind.
 */
async function storeWithoutSums(t: TestApp, rows: NewExecutionLog[], window: string): Promise<void> {
  const { sql, params } = logBatchStatement(
    rows.map((row) => toLogRow(row, 65_536).row),
    window,
  );
  await t.app.get(DataSource).query(sql, params);
}

/** Tagged rows (and some untagged) over whole hours of the last few, on two endpoints. */
function rowsOf(tenantId: string, endpoints: string[], hourStart: number, count: number): NewExecutionLog[] {
  return Array.from({ length: count }, (_, i) =>
    logEntry(tenantId, endpoints[i % 2], {
      createdAt: new Date(hourStart + ((i * 7_919_000) % (3 * HOUR))),
      latencyMs: 50 + i * 13,
      status: i % 6 === 0 ? 'error' : 'success',
      errorCode: i % 6 === 0 ? 'timeout' : null,
      costUsd: 0.000_123 * (i + 1),
      tags: i % 5 === 0 ? {} : { team: `t${i % 2}`, customer: `c${i % 7}` },
    }),
  );
}

/** The sums of the tenant's tag rollups: calls per table, and whether the tenant-wide ones match the per-endpoint ones. */
async function tagRollupCalls(t: TestApp, tenantId: string) {
  const db = t.app.get(DataSource);
  const [{ calls: perEndpoint }] = await db.query(
    `SELECT coalesce(sum(calls), 0)::int AS calls FROM execution_log_tag_rollups WHERE tenant_id = $1`,
    [tenantId],
  );
  const [{ calls: tenantWide }] = await db.query(
    `SELECT coalesce(sum(calls), 0)::int AS calls FROM execution_log_tag_value_rollups WHERE tenant_id = $1`,
    [tenantId],
  );
  return { perEndpoint, tenantWide };
}

async function windowState(t: TestApp, window: string): Promise<{ summed: boolean }[]> {
  return t.app.get(DataSource).query(`SELECT summed FROM tag_sum_windows WHERE id = $1`, [window]);
}

/** Makes the window look abandoned: no batch has joined it for ten minutes. */
async function abandon(t: TestApp, window: string): Promise<void> {
  await t.app
    .get(DataSource)
    .query(`UPDATE tag_sum_windows SET touched_at = now() - interval '10 minutes' WHERE id = $1`, [window]);
}

describe('tag sums written per window', () => {
  // The rollups answer every period here (no exact re-read of small periods from the rows).
  const { t, tenant } = useTestApp({ config: { statsExactPercentileRows: 0 } });
  let endpoints: string[];
  const hourStart = Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR;
  const period = `from=${new Date(hourStart - HOUR).toISOString()}&to=${new Date(hourStart + 3 * HOUR).toISOString()}`;

  beforeAll(async () => {
    endpoints = [await createEndpoint(t, tenant, 'windows-a'), await createEndpoint(t, tenant, 'windows-b')];
  });

  const get = async (path: string) => {
    const res = await t.http.get(path).set(auth(tenant.admin));
    expect(res.status).toBe(200);
    return res.body;
  };
  /** What the service answers for the tags: a value's totals, the groups of a key, a tag filter's count. */
  const answers = async () => {
    const team = (await get(`/admin/v1/stats?${period}&tag=team:t1`)).data.totals;
    const groups = (await get(`/admin/v1/stats?${period}&groupBy=tag:customer`)).data.groups;
    const list = await get(`/admin/v1/logs?${period}&tag=customer:c3`);
    return {
      team: { calls: team.calls, errors: team.errors, costUsd: team.costUsd },
      customers: Object.fromEntries(groups.map((group: any) => [group.tag.value, group.totals.calls])),
      listed: list.data.total,
    };
  };
  const expected = (rows: NewExecutionLog[]) => {
    const team = rows.filter((row) => row.tags.team === 't1');
    const customers: Record<string, number> = { null: 0 };
    for (const row of rows) {
      const key = row.tags.customer ?? 'null';
      customers[key] = (customers[key] ?? 0) + 1;
    }
    return {
      team: {
        calls: team.length,
        errors: team.filter((row) => row.status === 'error').length,
        costUsd: Math.round(team.reduce((sum, row) => sum + row.costUsd!, 0) * 1e9) / 1e9,
      },
      customers,
      listed: rows.filter((row) => row.tags.customer === 'c3').length,
    };
  };

  it('reads the hours of an unwritten window from the rows, and sums an abandoned one from its rows once', async () => {
    const rows = rowsOf(tenant.id, endpoints, hourStart, 120);
    const window = randomUUID();
    await storeWithoutSums(t, rows, window);
    // Nothing of them is in the tag rollups, yet the answers count every row.
    expect(await tagRollupCalls(t, tenant.id)).toEqual({ perEndpoint: 0, tenantWide: 0 });
    expect(await windowState(t, window)).toEqual([{ summed: false }]);
    expect(await answers()).toEqual(expected(rows));

    // A window someone still writes to is not abandoned.
    const recovery = t.app.get(TagSumRecoveryService);
    await recovery.sweep();
    expect(await windowState(t, window)).toEqual([{ summed: false }]);
    await abandon(t, window);
    const tagged = rows.filter((row) => Object.keys(row.tags).length > 0);
    expect(await recovery.sweep()).toBeGreaterThanOrEqual(tagged.length);
    await recovery.sweep();
    expect(await windowState(t, window)).toEqual([{ summed: true }]);
    // Each tagged row counted under its two tags, in its hour and its day, in both tables.
    expect(await tagRollupCalls(t, tenant.id)).toEqual({
      perEndpoint: 4 * tagged.length,
      tenantWide: 4 * tagged.length,
    });
    expect(await answers()).toEqual(expected(rows));

    // A batch that would still join the summed window is refused whole (its writer stores it again elsewhere).
    const late = rowsOf(tenant.id, endpoints, hourStart, 3).map((row) => ({ ...row, requestId: randomUUID() }));
    await expect(storeWithoutSums(t, late, window)).rejects.toMatchObject({ driverError: { code: '23514' } });
    expect(await answers()).toEqual(expected(rows));
  });

  it('the writer sums its windows in memory; a window with a deleted endpoint is summed from the rows left', async () => {
    const other = await seedTenant(t.app);
    const own = [await createEndpoint(t, other, 'own-a'), await createEndpoint(t, other, 'own-b')];
    const rows = rowsOf(other.id, own, hourStart, 60);
    const logs = t.app.get(ExecutionLogsService);
    for (const row of rows) logs.record(row);
    // The rows are stored; their window is still open (it closes after a few seconds).
    await expect(logs.flushWithin(10_000)).resolves.toBe(true);
    const res = await t.http.delete(`/admin/v1/endpoints/${own[1]}?permanent=true`).set(auth(other.admin));
    expect(res.status).toBeLessThan(300);
    await logs.flush();
    const kept = rows.filter((row) => row.endpointId === own[0] && Object.keys(row.tags).length > 0);
    expect(await tagRollupCalls(t, other.id)).toEqual({ perEndpoint: 4 * kept.length, tenantWide: 4 * kept.length });
    const [{ unsummed }] = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS unsummed FROM tag_sum_windows WHERE tenant_id = $1 AND NOT summed`, [other.id]);
    expect(unsummed).toBe(0);
  });
});

const withPostgres = process.env.DATABASE_URL ? describe : describe.skip;

withPostgres('an abandoned window and two instances (skipped unless DATABASE_URL is set)', () => {
  let a: TestApp;
  let b: TestApp;
  let tenant: SeededTenant;
  beforeAll(async () => {
    [a, b] = await Promise.all([createTestApp(), createTestApp()]);
    tenant = await seedTenant(a.app);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('is summed once when both instances sweep it at the same time', async () => {
    const endpoints = [await createEndpoint(a, tenant, 'two-a'), await createEndpoint(a, tenant, 'two-b')];
    const hourStart = Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR;
    const windows = [randomUUID(), randomUUID(), randomUUID()];
    let tagged = 0;
    for (const [i, window] of windows.entries()) {
      const rows = rowsOf(tenant.id, endpoints, hourStart + i * 60_000, 200);
      tagged += rows.filter((row) => Object.keys(row.tags).length > 0).length;
      await storeWithoutSums(a, rows, window);
      await abandon(a, window);
    }
    await Promise.all([a, b].map((instance) => instance.app.get(TagSumRecoveryService).sweep()));
    await Promise.all([a, b].map((instance) => instance.app.get(TagSumRecoveryService).sweep()));
    expect(await tagRollupCalls(b, tenant.id)).toEqual({ perEndpoint: 4 * tagged, tenantWide: 4 * tagged });
  });
});
