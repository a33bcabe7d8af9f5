import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createApplication } from '../../src/app.setup';
import { loadConfig } from '../../src/config/app-config';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { LogRetentionService } from '../../src/modules/logs/log-retention.service';
import type { NewExecutionLog } from '../../src/modules/logs/new-execution-log';
import { openTemplateDatabase } from '../support/database-template';
import { createEndpoint, logEntry } from '../support/log-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant } from '../support/seed';
import { createTestApp } from '../support/test-app';

const SUMMARY_FIELDS = [
  'id',
  'endpointId',
  'promptId',
  'promptVersion',
  'assignment',
  'source',
  'keyId',
  'keyEnvironment',
  'requestId',
  'status',
  'httpStatus',
  'errorCode',
  'cached',
  'llmModel',
  'inputTokens',
  'outputTokens',
  'costUsd',
  'latencyMs',
  'streamed',
  'ttftMs',
  'finishReason',
  'createdAt',
  'truncatedFields',
  'tags',
].sort();
const DETAIL_FIELDS = [
  ...SUMMARY_FIELDS,
  'inputs',
  'renderedPrompt',
  'renderedMessages',
  'rawResponse',
  'parsedOutput',
  'errorMessage',
  'attempts',
  'scores',
].sort();
const MINUTE = 60_000;

type Log = Record<string, any>;

describe('GET /admin/v1/logs', () => {
  const { t, tenant, other } = useTestApp({ other: true });
  let logs: ExecutionLogsService;
  let first: string;
  let second: string;
  let otherEndpoint: string;
  const promptA = randomUUID();
  const promptB = randomUUID();
  const base = Date.now() - 2 * 24 * 60 * MINUTE;
  /** The seeded rows of `tenant`, newest first. */
  let seeded: NewExecutionLog[] = [];

  const get = (query: string, key = tenant.admin) => t.http.get(`/admin/v1/logs${query}`).set(auth(key));
  const list = async (query: string, key = tenant.admin) => {
    const res = await get(query, key);
    expect(res.status).toBe(200);
    expect(res.body.succeeded).toBe(true);
    return res.body.data as { items: Log[]; page: number; pageSize: number; total: number; totalIsExact: boolean };
  };
  const requestIds = (items: Log[]) => items.map((item) => item.requestId);
  const expected = (keep: (log: NewExecutionLog) => boolean) => seeded.filter(keep).map((log) => log.requestId);

  beforeAll(async () => {
    logs = t.app.get(ExecutionLogsService);
    first = await createEndpoint(t, tenant, 'first');
    second = await createEndpoint(t, tenant, 'second');
    otherEndpoint = await createEndpoint(t, other, 'other');
    // 30 rows, one a minute: every third on the second endpoint, every fourth an error, every fifth a test-page run.
    for (let i = 0; i < 30; i++) {
      const entry = logEntry(tenant.id, i % 3 === 0 ? second : first, {
        createdAt: new Date(base + i * MINUTE),
        source: i % 5 === 0 ? 'TestPage' : 'Api',
        status: i % 4 === 0 ? 'error' : 'success',
        httpStatus: i % 4 === 0 ? 502 : 200,
        errorCode: i % 4 === 0 ? 'upstream_error' : null,
        promptId: i % 2 === 0 ? promptA : promptB,
        promptVersion: 1 + (i % 3),
        cached: i % 7 === 0,
        latencyMs: 100 + i,
      });
      seeded.push(entry);
      logs.record(entry);
    }
    logs.record(logEntry(other.id, otherEndpoint, { createdAt: new Date(base) }));
    await logs.flush();
    seeded = seeded.reverse();
  });

  it('answers the first page newest first, with the list fields and the total', async () => {
    const page = await list('');
    expect(page).toMatchObject({ page: 1, pageSize: 20, total: 30, totalIsExact: true });
    expect(requestIds(page.items)).toEqual(seeded.slice(0, 20).map((log) => log.requestId));
    for (const item of page.items) expect(Object.keys(item).sort()).toEqual(SUMMARY_FIELDS);
    const newest = seeded[0];
    expect(page.items[0]).toEqual({
      id: expect.any(String),
      endpointId: newest.endpointId,
      promptId: newest.promptId,
      promptVersion: newest.promptVersion,
      assignment: newest.assignment,
      source: newest.source,
      keyId: newest.keyId,
      keyEnvironment: 'live',
      requestId: newest.requestId,
      status: newest.status,
      httpStatus: newest.httpStatus,
      errorCode: newest.errorCode,
      cached: newest.cached,
      llmModel: 'mock-echo',
      inputTokens: 10,
      outputTokens: 5,
      costUsd: 0,
      latencyMs: newest.latencyMs,
      streamed: false,
      ttftMs: null,
      finishReason: null,
      createdAt: newest.createdAt.toISOString(),
      truncatedFields: [],
      tags: {},
    });
  });

  it('pages through the rest, and past the end answers an empty page with the total', async () => {
    const second = await list('?page=2');
    expect(second).toMatchObject({ page: 2, pageSize: 20, total: 30 });
    expect(requestIds(second.items)).toEqual(seeded.slice(20).map((log) => log.requestId));
    const beyond = await list('?page=3');
    expect(beyond).toEqual({ items: [], page: 3, pageSize: 20, total: 30, totalIsExact: true });
  });

  it('accepts pageSize 50 and 1, and pages of any size never overlap', async () => {
    expect((await list('?pageSize=50')).items).toHaveLength(30);
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) seen.push(...requestIds((await list(`?pageSize=7&page=${page}`)).items));
    expect(seen).toEqual(seeded.map((log) => log.requestId));
    const one = await list('?pageSize=1&page=30');
    expect(requestIds(one.items)).toEqual([seeded[29].requestId]);
  });

  it.each([
    ['?pageSize=51', 'pageSize'],
    ['?pageSize=0', 'pageSize'],
    ['?pageSize=abc', 'pageSize'],
    ['?pageSize=2.5', 'pageSize'],
    ['?page=0', 'page'],
    ['?page=-1', 'page'],
    ['?page=x', 'page'],
    ['?source=Web', 'source'],
    ['?status=failed', 'status'],
    ['?endpointId=not-a-uuid', 'endpointId'],
    ['?promptId=42', 'promptId'],
    ['?from=yesterday', 'from'],
    ['?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
    ['?unknown=1', 'unknown'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body.succeeded).toBe(false);
    expect(res.body.data).toBeNull();
    expect(res.body.messages.join(' ')).toContain(field);
  });

  it('names the maximum when pageSize is above 50', async () => {
    const res = await get('?pageSize=51');
    expect(res.body.messages).toEqual(['pageSize must not be greater than 50']);
  });

  it.each([
    [
      'endpointId',
      (ids: Record<string, string>) => `?endpointId=${ids.first}`,
      (log: NewExecutionLog, ids: Record<string, string>) => log.endpointId === ids.first,
    ],
    ['source', () => '?source=TestPage', (log: NewExecutionLog) => log.source === 'TestPage'],
    ['source Api', () => '?source=Api', (log: NewExecutionLog) => log.source === 'Api'],
    ['status', () => '?status=error', (log: NewExecutionLog) => log.status === 'error'],
    [
      'promptId',
      (ids: Record<string, string>) => `?promptId=${ids.promptA}`,
      (log: NewExecutionLog, ids: Record<string, string>) => log.promptId === ids.promptA,
    ],
    [
      'endpointId, status and source together',
      (ids: Record<string, string>) => `?endpointId=${ids.second}&status=error&source=TestPage`,
      (log: NewExecutionLog, ids: Record<string, string>) =>
        log.endpointId === ids.second && log.status === 'error' && log.source === 'TestPage',
    ],
  ])('filters by %s', async (_name, query, keep) => {
    const ids = { first, second, promptA };
    const want = expected((log) => keep(log, ids));
    expect(want.length).toBeGreaterThan(0);
    const page = await list(`${query(ids)}&pageSize=50`);
    expect(page.total).toBe(want.length);
    expect(requestIds(page.items)).toEqual(want);
  });

  it('filters by time: from inclusive, to exclusive', async () => {
    const from = new Date(base + 5 * MINUTE).toISOString();
    const to = new Date(base + 12 * MINUTE).toISOString();
    const page = await list(`?from=${from}&to=${to}&pageSize=50`);
    expect(requestIds(page.items)).toEqual(
      expected((log) => log.createdAt.getTime() >= base + 5 * MINUTE && log.createdAt.getTime() < base + 12 * MINUTE),
    );
    expect(page.total).toBe(7);
  });

  it('finds the execution of a request id, combined with the other filters, within the tenant only', async () => {
    const target = seeded[7];
    const found = await list(`?requestId=${encodeURIComponent(target.requestId)}`);
    expect(requestIds(found.items)).toEqual([target.requestId]);
    expect(found.total).toBe(1);
    const otherStatus = target.status === 'error' ? 'success' : 'error';
    expect((await list(`?requestId=${encodeURIComponent(target.requestId)}&status=${otherStatus}`)).items).toEqual([]);
    expect((await list(`?requestId=${encodeURIComponent(target.requestId)}`, other.admin)).items).toEqual([]);
    expect((await list('?requestId=no-such-request')).total).toBe(0);
    const tooLong = await get(`?requestId=${'a'.repeat(129)}`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.messages.join(' ')).toMatch(/requestId/);
  });

  it('shows one execution in detail', async () => {
    const values = {
      source: 'Internal',
      keyEnvironment: null,
      status: 'error',
      httpStatus: 504,
      errorCode: 'timeout',
      errorMessage: 'The model did not answer within 60 seconds',
      llmModel: 'gpt-4o',
      inputTokens: 1200,
      outputTokens: 0,
      costUsd: 0.003,
      inputs: { name: 'Ada', tags: ['a', 'b'], nested: { n: 1 } },
      renderedPrompt: 'Hello Ada',
      rawResponse: null,
      parsedOutput: { greeting: 'Hi', score: 0.5 },
      promptId: promptB,
      promptVersion: 3,
    } as const;
    const entry = logEntry(tenant.id, first, values);
    logs.record(entry);
    await logs.flush();
    const [row] = (await list(`?source=Internal`)).items;
    const res = await get(`/${row.id}`);
    expect(res.status).toBe(200);
    expect(res.body.succeeded).toBe(true);
    expect(Object.keys(res.body.data).sort()).toEqual(DETAIL_FIELDS);
    expect(res.body.data).toMatchObject({
      ...values,
      id: row.id,
      endpointId: first,
      keyId: entry.keyId,
      requestId: entry.requestId,
      createdAt: entry.createdAt.toISOString(),
    });
  });

  it('keeps tenants apart: lists, ids and endpoint filters', async () => {
    const mine = await list('');
    const theirs = await list('', other.admin);
    expect(theirs.total).toBe(1);
    expect(theirs.items[0].endpointId).toBe(otherEndpoint);
    expect(await list(`?endpointId=${first}`, other.admin)).toMatchObject({ items: [], total: 0 });
    const foreign = await get(`/${mine.items[0].id}`, other.admin);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ succeeded: false, data: null });
    expect((await get(`/${theirs.items[0].id}`)).status).toBe(404);
  });

  it('answers ReadOnly keys; refuses endpoint keys (403) and requests without a key (401)', async () => {
    const page = await list('', tenant.readOnly);
    expect(page.total).toBeGreaterThanOrEqual(30);
    expect((await get(`/${page.items[0].id}`, tenant.readOnly)).status).toBe(200);
    expect((await get('', tenant.endpointKey)).status).toBe(403);
    expect((await get(`/${page.items[0].id}`, tenant.endpointKey)).status).toBe(403);
    expect((await t.http.get('/admin/v1/logs')).status).toBe(401);
    expect((await t.http.get('/admin/v1/stats')).status).toBe(401);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await get(`/${randomUUID()}`)).status).toBe(404);
    expect((await get('/not-a-uuid')).status).toBe(400);
  });

  it('shows a recorded execution within 1 s without any flush', async () => {
    const endpoint = await createEndpoint(t, tenant, 'fresh');
    const entry = logEntry(tenant.id, endpoint);
    const started = Date.now();
    logs.record(entry);
    let found: Log[] = [];
    while (found.length === 0 && Date.now() - started < 1000) {
      found = (await list(`?endpointId=${endpoint}`)).items;
      if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(Date.now() - started).toBeLessThan(1000);
    expect(requestIds(found)).toEqual([entry.requestId]);
  });

  it("removes an endpoint's logs with the endpoint when it is deleted permanently", async () => {
    const endpoint = await createEndpoint(t, tenant, 'doomed');
    for (let i = 0; i < 3; i++) logs.record(logEntry(tenant.id, endpoint));
    await logs.flush();
    const before = await list(`?endpointId=${endpoint}`);
    expect(before.total).toBe(3);
    // A soft delete keeps them.
    expect((await t.http.delete(`/admin/v1/endpoints/${endpoint}`).set(auth(tenant.admin))).status).toBe(200);
    expect((await list(`?endpointId=${endpoint}`)).total).toBe(3);
    expect((await t.http.delete(`/admin/v1/endpoints/${endpoint}?permanent=true`).set(auth(tenant.admin))).status).toBe(
      200,
    );
    expect(await list(`?endpointId=${endpoint}`)).toMatchObject({ items: [], total: 0 });
    expect((await get(`/${before.items[0].id}`)).status).toBe(404);
  });

  it('drops a log whose endpoint no longer exists without holding back the rest of its batch', async () => {
    const endpoint = await createEndpoint(t, tenant, 'kept');
    const kept = logEntry(tenant.id, endpoint);
    logs.record(logEntry(tenant.id, randomUUID()));
    logs.record(kept);
    await logs.flush();
    expect(requestIds((await list(`?endpointId=${endpoint}`)).items)).toEqual([kept.requestId]);
    expect(logs.writerState().queued).toBe(0);
  });
});

describe('execution log retention', () => {
  it('deletes logs older than LOG_RETENTION_DAYS and keeps the rest', async () => {
    const t = await createTestApp({ logRetentionDays: 30 });
    try {
      const tenant = await seedTenant(t.app);
      const endpoint = await createEndpoint(t, tenant, 'aging');
      const logs = t.app.get(ExecutionLogsService);
      const day = 24 * 60 * MINUTE;
      const old = [45, 40, 31].map((days) =>
        logEntry(tenant.id, endpoint, { createdAt: new Date(Date.now() - days * day) }),
      );
      const recent = [29, 10, 0].map((days) =>
        logEntry(tenant.id, endpoint, { createdAt: new Date(Date.now() - days * day) }),
      );
      for (const entry of [...old, ...recent]) logs.record(entry);
      await logs.flush();
      const deleted = await t.app.get(LogRetentionService).sweep();
      expect(deleted).toBeGreaterThanOrEqual(3);
      const res = await t.http.get(`/admin/v1/logs?endpointId=${endpoint}`).set(auth(tenant.admin));
      expect(res.body.data.items.map((item: Log) => item.requestId)).toEqual(
        recent.map((entry) => entry.requestId).reverse(),
      );
      expect(res.body.data.total).toBe(3);
    } finally {
      await t.close();
    }
  });
});

describe('execution logs at shutdown', () => {
  it('writes every recorded log when the application closes, without an explicit flush', async () => {
    const config = loadConfig(
      { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL, LOG_LEVEL: 'error' },
      { dataDir: 'memory://' },
    );
    const embedded = config.databaseUrl ? null : openTemplateDatabase();
    const app = await createApplication({ config, embedded });
    await app.init();
    const tenant = await seedTenant(app);
    const request = (await import('supertest')).default;
    const endpoint = (
      await request(app.getHttpServer())
        .post('/admin/v1/endpoints')
        .set(auth(tenant.admin))
        .send({ name: 'closing', path: '/api/v1/closing' })
    ).body.data.id as string;
    const logs = app.get(ExecutionLogsService);
    for (let i = 0; i < 120; i++) logs.record(logEntry(tenant.id, endpoint, { requestId: `closing-${i}` }));
    expect(logs.writerState().queued).toBe(120);

    let count: number;
    if (embedded) {
      // Keep the in-memory database open past the application's close, to read what reached it.
      const close = embedded.close.bind(embedded);
      embedded.close = async () => undefined;
      await app.close();
      const result = await embedded.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM execution_logs WHERE tenant_id = $1',
        [tenant.id],
      );
      count = result.rows[0].count;
      await close();
    } else {
      await app.close();
      const client = new Client({ connectionString: config.databaseUrl });
      await client.connect();
      const result = await client.query('SELECT count(*)::int AS count FROM execution_logs WHERE tenant_id = $1', [
        tenant.id,
      ]);
      count = result.rows[0].count;
      await client.end();
    }
    expect(count).toBe(120);
  });
});
