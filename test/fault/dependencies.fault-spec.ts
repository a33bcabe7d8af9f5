import { OwnPostgres, OwnRedis, startOwnPostgres, startOwnRedis } from '../support/own-servers';
import { ServiceProcess, startService } from './service-process';
import { eventually } from '../support/eventually';

const ADMIN_KEY = 'epa_' + 'DependenciesFault'.repeat(2);
const DATABASE = 'promptgate_fault_dependencies';
const POOL_MAX = 3;
const UNAVAILABLE = { succeeded: false, messages: ['The database is unavailable; retry shortly'], data: null };

/**
 * The built service on a PostgreSQL and a Redis of the test's own: the start line names both without credentials, the
 * pool opens at most DATABASE_POOL_MAX connections, readiness stays up (degraded) without Redis, and a database that
 * is gone (dropped) answers 503 everywhere, readiness included.
 */
describe('the service and its dependencies', () => {
  let postgres: OwnPostgres;
  let redis: OwnRedis;
  let service: ServiceProcess;
  const admin = (url: string) => fetch(`${service.base}${url}`, { headers: { 'x-api-key': ADMIN_KEY } });
  const ready = async () => {
    const response = await fetch(`${service.base}/health/ready`);
    return { status: response.status, body: (await response.json()) as unknown };
  };
  /** The service's pooled connections to the database (the invalidation listener names itself apart). */
  const pooled = async () =>
    Number(
      (
        await postgres.query<{ count: string }>(
          'postgres',
          "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'promptgate'",
          [DATABASE],
        )
      )[0].count,
    );

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startOwnPostgres(), startOwnRedis()]);
    await postgres.createDatabase(DATABASE);
    // Trust authentication ignores the password: it is there to be kept out of the log.
    const databaseUrl = postgres.url(DATABASE).replace('postgres@', 'postgres:s3cret-password@');
    service = await startService({
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      DATABASE_POOL_MAX: String(POOL_MAX),
      INITIAL_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: '0',
    });
  }, 120_000);

  afterAll(async () => {
    await service?.kill();
    await Promise.all([postgres?.dispose(), redis?.dispose()]);
  });

  it('names PostgreSQL and Redis in its start line, without credentials', async () => {
    await eventually(async () => service.output.some((line) => line.includes('listening on')), 'the start line');
    const line = JSON.parse(service.output.find((each) => each.includes('listening on'))!) as Record<string, unknown>;
    expect(line).toMatchObject({
      storage: 'postgres',
      database: `127.0.0.1:${postgres.port}/${DATABASE}`,
      redis: `127.0.0.1:${redis.port}`,
      msg: `Promptgate listening on ${service.base} (storage: PostgreSQL at 127.0.0.1:${postgres.port}/${DATABASE}; Redis at 127.0.0.1:${redis.port})`,
    });
    expect(service.output.join('\n')).not.toContain('s3cret');
  });

  it('opens at most DATABASE_POOL_MAX connections, however many requests wait for one', async () => {
    // A lock on the endpoints table holds every listing in its query, each on a pooled connection of its own.
    const blocker = await postgres.query('postgres', 'SELECT 1').then(async () => {
      const { Client } = await import('pg');
      const client = new Client({ host: '127.0.0.1', port: postgres.port, user: 'postgres', database: DATABASE });
      await client.connect();
      await client.query('BEGIN');
      await client.query('LOCK TABLE endpoints IN ACCESS EXCLUSIVE MODE');
      return client;
    });
    try {
      const listings = Array.from({ length: 12 }, () => admin('/admin/v1/endpoints'));
      await eventually(async () => (await pooled()) >= POOL_MAX, `${POOL_MAX} pooled connections`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await pooled()).toBe(POOL_MAX);
      await blocker.query('COMMIT');
      const statuses = (await Promise.all(listings)).map((response) => response.status);
      expect(statuses).toEqual(statuses.map(() => 200));
    } finally {
      await blocker.end();
    }
  });

  it('stays ready without Redis, saying it is degraded, and answers as usual', async () => {
    await redis.stop();
    try {
      await eventually(async () => (await ready()).body !== null && (await ready()).status === 200, 'readiness');
      expect(await ready()).toEqual({
        status: 200,
        body: { status: 'degraded', checks: { database: 'ok', redis: 'down' } },
      });
      expect((await admin('/admin/v1/endpoints')).status).toBe(200);
    } finally {
      await redis.start();
    }
    await eventually(
      async () => JSON.stringify((await ready()).body) === '{"status":"ok","checks":{"database":"ok","redis":"ok"}}',
      'ready again',
    );
  });

  it('answers 503 in each surface once its database is dropped, and fails readiness', async () => {
    await postgres.query('postgres', `DROP DATABASE ${DATABASE} WITH (FORCE)`);
    const listing = await admin('/admin/v1/endpoints');
    expect([listing.status, listing.headers.get('retry-after'), await listing.json()]).toEqual([503, '5', UNAVAILABLE]);
    const execution = await fetch(`${service.base}/api/v1/anything`, {
      method: 'POST',
      headers: { 'x-api-key': 'ep_live_' + 'x'.repeat(40), 'content-type': 'application/json' },
      body: '{}',
    });
    expect([execution.status, await execution.json()]).toEqual([
      503,
      { error: 'service_unavailable', message: 'The database is unavailable; retry shortly', retry_after: 5 },
    ]);
    expect(await ready()).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { database: 'down', redis: 'ok' } },
    });
    expect(service.output.filter((line) => /"level":"error"/.test(line))).toEqual([]);
  });
});
