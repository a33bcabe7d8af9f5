import { AppLogger } from '../../src/common/logging/app-logger';
import { closeRedisClient, createRedisClient, type RedisClient, whenReady } from '../../src/common/redis/redis-client';
import { RedisConnection } from '../../src/common/redis/redis-connection';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { auth, seedTenant } from '../support/seed';
import { createTestApp, type TestApp } from '../support/test-app';

const redisUrl = process.env.REDIS_URL;
const withRedis = redisUrl ? describe : describe.skip;

/** This instance's connections in CLIENT LIST (name, last command), by the connection name the service sets. */
async function connectionsOf(observer: RedisClient, name: string): Promise<{ name: string; cmd: string }[]> {
  // CLIENT LIST answers one bulk string, a line per connection.
  const list =
    (await observer.sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'normal'])) +
    (await observer.sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'pubsub']));
  return list
    .split('\n')
    .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('=') as [string, string])))
    .filter((fields) => fields.name === name || fields.name === `${name}-subscriber`)
    .map((fields) => ({ name: fields.name, cmd: fields.cmd }));
}

withRedis('Redis connections of one instance (skipped unless REDIS_URL is set)', () => {
  let t: TestApp;
  /** The last test closes the app itself. */
  let isClosed = false;
  let observer: RedisClient;
  let name: string;

  beforeAll(async () => {
    observer = createRedisClient(redisUrl!, 'promptgate-connections-observer', new AppLogger({ logLevel: 'silent' }));
    await whenReady(observer);
    t = await createTestApp({ redisUrl });
    name = t.app.get(RedisConnection).name;
  });
  afterAll(async () => {
    if (!isClosed) await t?.close();
    await closeRedisClient(observer);
  });

  it('are one command client and the bus subscriber, whatever the requests used', async () => {
    const tenant = await seedTenant(t.app);
    const endpoint = await createEndpoint(t, tenant.admin, { cacheEnabled: true, cacheDurationSeconds: 60 });
    await createPrompt(t, tenant.admin, endpoint.id, { template: 'ok' });
    // An execution reads the cache and counts rate limits; a key change publishes on the bus.
    await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({}).expect(200);
    await t.http.get('/health/ready').expect(200);
    expect((await connectionsOf(observer, name)).map((connection) => connection.name).sort()).toEqual([
      name,
      `${name}-subscriber`,
    ]);
  });

  it('answers /health/ready by pinging the client that serves requests', async () => {
    await t.http.get('/health/ready').expect(200);
    expect(await connectionsOf(observer, name)).toContainEqual({ name, cmd: 'ping' });
  });

  it('closes both at shutdown', async () => {
    await t.close();
    await expect(connectionsOf(observer, name)).resolves.toEqual([]);
    isClosed = true;
  });
});
