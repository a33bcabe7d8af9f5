import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { OwnPostgres, OwnRedis, startOwnPostgres, startOwnRedis } from '../support/own-servers';
import { auth, SeededTenant, seedTenant } from '../support/seed';
import { createTestApp, TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';

const DATABASE = 'promptgate_fault_pg_restart';

/** The service's JSON log lines written while `work` runs (the logger writes to standard output). */
async function logLinesDuring<T>(work: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const original = process.stdout.write.bind(process.stdout);
  const spy = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      for (const line of String(chunk).split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          lines.push(JSON.parse(line));
          continue;
        } catch {
          // not one of the service's lines
        }
      }
      return original(chunk, ...(rest as []));
    });
  try {
    return { result: await work(), lines };
  } finally {
    spy.mockRestore();
  }
}

/**
 * PostgreSQL stopped and started again under traffic, with no restart of the service: executions of a warm endpoint
 * keep answering from memory, what needs the database answers 503 with Retry-After (admin, execution, MCP) and the
 * service log gets one warning; the execution logs buffered meanwhile are all written once the database is back.
 */
describe('PostgreSQL restarted mid-traffic', () => {
  let postgres: OwnPostgres;
  let redis: OwnRedis;
  let t: TestApp;
  let tenant: SeededTenant;

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startOwnPostgres(), startOwnRedis()]);
    await postgres.createDatabase(DATABASE);
    t = await createTestApp({}, { DATABASE_URL: postgres.url(DATABASE), REDIS_URL: redis.url, LOG_LEVEL: 'warn' });
    tenant = await seedTenant(t.app);
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([postgres?.dispose(), redis?.dispose()]);
  });

  it('keeps executing from memory, answers 503 where the database is needed, and writes every buffered log once it is back', async () => {
    const warm = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    await createPrompt(t, tenant.admin, warm.id, { template: 'Echo: {{ text }}' });
    // Never called before the outage: its definition is not in memory, so calling it needs the database.
    const cold = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
    await createPrompt(t, tenant.admin, cold.id, { template: 'Cold' });
    const key = await t.http.post('/admin/v1/keys').set(auth(tenant.admin)).send({
      name: 'traffic',
      type: 'endpoint',
      rateLimitPerMinute: 100_000,
      rateLimitPerHour: 100_000,
      rateLimitPerDay: 100_000,
    });
    const execute = (path: string) => t.http.post(path).set(auth(key.body.data.key)).send({ text: 'hi' });
    expect((await execute(warm.path)).status).toBe(200);
    expect((await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin))).status).toBe(200);

    // Steady traffic on the warm endpoint for the whole test: every answer is 200.
    const answered: string[] = [];
    const otherStatuses: number[] = [];
    let trafficRuns = true;
    const traffic = Promise.all(
      Array.from({ length: 3 }, async () => {
        while (trafficRuns) {
          const response = await execute(warm.path);
          if (response.status === 200) answered.push(response.headers['x-request-id']);
          else otherStatuses.push(response.status);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );

    const { result: down, lines } = await logLinesDuring(async () => {
      await postgres.stop();
      const answeredBefore = answered.length;
      // Several requests of each kind, so a throttled warning is visible as one line.
      const admins = [];
      for (let i = 0; i < 3; i++) admins.push(await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin)));
      // A key this instance has not seen yet must be looked up: that needs the database too.
      const coldKey = await t.http.get('/admin/v1/endpoints').set(auth(tenant.readOnly));
      const coldExecution = await execute(cold.path);
      const mcp = await t.http
        .post('/mcp')
        .set({ accept: 'application/json, text/event-stream', authorization: `Bearer ${tenant.admin}` })
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_endpoints', arguments: {} } });
      const ready = await t.http.get('/health/ready');
      await eventually(
        async () => answered.length >= answeredBefore + 20,
        'executions answered while PostgreSQL is down',
      );
      return { admins, coldKey, coldExecution, mcp, ready, answeredWhileDown: answered.length - answeredBefore };
    });

    for (const response of [...down.admins, down.coldKey]) {
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).toEqual({
        succeeded: false,
        messages: ['The database is unavailable; retry shortly'],
        data: null,
      });
    }
    expect(down.coldExecution.status).toBe(503);
    expect(down.coldExecution.headers['retry-after']).toBe('5');
    expect(down.coldExecution.body).toEqual({
      error: 'service_unavailable',
      message: 'The database is unavailable; retry shortly',
      retry_after: 5,
    });
    expect(down.mcp.status).toBe(200);
    expect(down.mcp.body.result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'service_unavailable: The database is unavailable; retry shortly' }],
    });
    expect(down.ready.status).toBe(503);
    expect(down.answeredWhileDown).toBeGreaterThanOrEqual(20);
    // One warning, without a stack, and nothing logged as an error.
    const outage = lines.filter((line) => String(line.msg).startsWith('Database unavailable'));
    expect(outage).toHaveLength(1);
    expect(outage[0]).toMatchObject({ level: 'warn' });
    expect(lines.filter((line) => line.level === 'error' || 'stack' in line)).toEqual([]);
    expect(lines.filter((line) => line.level === 'warn')).toEqual(outage);

    // Back on the same port: the same service answers admin calls again, by itself.
    await postgres.start();
    await eventually(
      async () => (await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin))).status === 200,
      'admin calls answered again',
    );
    expect((await execute(cold.path)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    trafficRuns = false;
    await traffic;
    expect(otherStatuses).toEqual([]);

    // Every answered execution's log row is written without anyone asking: the writer retries on its own.
    const loggedIds = async () =>
      (
        await postgres.query<{ request_id: string }>(
          DATABASE,
          'SELECT request_id FROM execution_logs WHERE endpoint_id = $1',
          [warm.id],
        )
      ).map((row) => row.request_id);
    await eventually(async () => (await loggedIds()).length >= answered.length + 1, 'every buffered log written');
    const logged = new Set(await loggedIds());
    expect(answered.filter((requestId) => !logged.has(requestId))).toEqual([]);
    expect(t.app.get(ExecutionLogsService).writerState()).toMatchObject({ queued: 0, dropped: 0 });
  });
});
