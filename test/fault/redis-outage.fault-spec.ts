import { createClient } from '@redis/client';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { OwnPostgres, OwnRedis, startOwnPostgres, startOwnRedis } from '../support/own-servers';
import { auth, SeededTenant, seedTenant } from '../support/seed';
import { createTestApp, TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';

const DATABASE = 'promptgate_fault_redis';
const LIMIT = 4;

/**
 * Redis killed under traffic and started again on the same port, two instances of the service sharing it, with no
 * restart of either: while it is away every request is answered, the response cache is skipped (MISS, never an error)
 * and rate limits fail open to counters in each instance's memory (each instance still limits a key); once it is back
 * the counters and the cache are in Redis again, shared by both instances.
 */
describe('Redis stopped mid-traffic', () => {
  let postgres: OwnPostgres;
  let redis: OwnRedis;
  let a: TestApp;
  let b: TestApp;
  let tenant: SeededTenant;

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startOwnPostgres(), startOwnRedis()]);
    await postgres.createDatabase(DATABASE);
    const env = { DATABASE_URL: postgres.url(DATABASE), REDIS_URL: redis.url };
    a = await createTestApp({}, env);
    b = await createTestApp({}, env);
    tenant = await seedTenant(a.app);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([postgres?.dispose(), redis?.dispose()]);
  });

  async function newKey(limit: number): Promise<{ id: string; key: string }> {
    const created = await a.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({
        name: `limit ${limit}`,
        type: 'endpoint',
        rateLimitPerMinute: limit,
        rateLimitPerHour: 100_000,
        rateLimitPerDay: 100_000,
      });
    expect(created.status).toBe(201);
    return created.body.data;
  }

  /** The statuses of `LIMIT + 1` executions with one fresh key of limit LIMIT, sent alternately to the instances in `order`. */
  async function statusesWithFreshKey(
    path: string,
    order: TestApp[],
  ): Promise<{ key: { id: string; key: string }; statuses: number[] }> {
    const key = await newKey(LIMIT);
    const statuses: number[] = [];
    for (const instance of order)
      statuses.push((await instance.http.post(path).set(auth(key.key)).send({ text: 'limits' })).status);
    return { key, statuses };
  }

  /** The rate-limit counters Redis holds for a key (its minute, hour and day windows). */
  async function countersInRedis(keyId: string): Promise<number[]> {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const names = await client.keys(`promptgate:rl:*${keyId}*`);
      return Promise.all(names.map(async (name) => Number(await client.get(name))));
    } finally {
      await client.close();
    }
  }

  it('answers everything while Redis is away, limits each key per instance, and shares limits and cache again once it is back', async () => {
    const endpoint = await createEndpoint(a, tenant.admin, {
      cacheEnabled: true,
      cacheDurationSeconds: 300,
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    await createPrompt(a, tenant.admin, endpoint.id, { template: 'Echo {{ text }}' });
    const alternate = [a, b, a, b, a];

    // Redis up: one key's limit is shared by both instances; an identical request is a cache hit on either.
    const shared = await statusesWithFreshKey(endpoint.path, alternate);
    expect(shared.statuses).toEqual([200, 200, 200, 200, 429]);
    expect((await countersInRedis(shared.key.id)).sort()).toEqual([LIMIT, LIMIT, LIMIT]);
    const traffic = await newKey(100_000);
    const cached = (instance: TestApp, text = 'cached') =>
      instance.http.post(endpoint.path).set(auth(traffic.key)).send({ text });
    expect((await cached(a)).headers['x-cache']).toBe('MISS');
    expect((await cached(b)).headers['x-cache']).toBe('HIT');

    // Steady traffic on both instances across the outage and the return: every answer is 200.
    const statuses: number[] = [];
    let trafficRuns = true;
    const running = Promise.all(
      [a, b].map(async (instance) => {
        while (trafficRuns) {
          statuses.push(
            (
              await instance.http
                .post(endpoint.path)
                .set(auth(traffic.key))
                .send({ text: `t${statuses.length}` })
            ).status,
          );
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );

    await redis.stop();
    const beforeOutage = statuses.length;
    await eventually(async () => statuses.length >= beforeOutage + 10, 'executions answered while Redis is down');
    // Fail open, as documented: each instance counts the key in its own memory, so each still refuses the fifth call.
    const perInstance = await statusesWithFreshKey(endpoint.path, [a, a, a, a, a, b]);
    expect(perInstance.statuses).toEqual([200, 200, 200, 200, 429, 200]);
    // The cache is skipped, never an error; admin calls answer as usual.
    const uncached = await cached(b);
    expect([uncached.status, uncached.headers['x-cache']]).toEqual([200, 'MISS']);
    const admin = await b.http.get('/admin/v1/endpoints').set(auth(tenant.admin));
    expect(admin.status).toBe(200);
    // Ready all the same: Redis is shared, so failing readiness on it would take every instance out at once.
    const ready = await b.http.get('/health/ready');
    expect([ready.status, ready.body]).toEqual([
      200,
      { status: 'degraded', checks: { database: 'ok', redis: 'down' } },
    ]);

    // Back on the same port, empty: both instances use it again without a restart.
    await redis.start();
    await eventually(
      async () =>
        (await a.http.get('/health/ready')).body.status === 'ok' &&
        (await b.http.get('/health/ready')).body.status === 'ok',
      'ready again',
    );
    await eventually(async () => {
      const again = await statusesWithFreshKey(endpoint.path, alternate);
      return (
        again.statuses.join() === '200,200,200,200,429' &&
        (await countersInRedis(again.key.id)).sort().join() === [LIMIT, LIMIT, LIMIT].join()
      );
    }, 'one shared limit across both instances, counted in Redis');
    let attempt = 0;
    await eventually(async () => {
      const text = `cached again ${++attempt}`;
      return (
        (await cached(a, text)).headers['x-cache'] === 'MISS' && (await cached(b, text)).headers['x-cache'] === 'HIT'
      );
    }, 'a cache shared again');

    trafficRuns = false;
    await running;
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
