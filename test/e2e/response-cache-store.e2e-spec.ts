import { randomUUID } from 'node:crypto';
import { ResponseCacheService } from '../../src/modules/cache/response-cache.service';
import { InvalidationBus } from '../../src/modules/invalidation/invalidation-bus';
import { ENDPOINT_DELETED_TOPIC } from '../../src/modules/invalidation/topics';
import { createTestApp, type TestApp } from '../support/test-app';
import { TestClock } from '../support/test-clock';

// The store under the execution cache, on each store the run can reach (Redis too when REDIS_URL is set).
const stores: [string, string | undefined][] = [['memory', undefined]];
if (process.env.REDIS_URL) stores.push(['redis', process.env.REDIS_URL]);

const owner = (endpointId: string) => ({ tenantId: 'cache-tenant', endpointId });
const answer = (text: string) => ({ body: { text }, rawResponse: text, parsedOutput: { text } });

describe.each(stores)('response cache store (%s)', (_store, redisUrl) => {
  let t: TestApp;
  let cache: ResponseCacheService;
  const clock = new TestClock();
  beforeAll(async () => {
    t = await createTestApp({ redisUrl }, {}, { clock });
    cache = t.app.get(ResponseCacheService);
  });
  afterAll(() => t.close());

  it('serves what was stored until its TTL (seconds) passes', async () => {
    const endpointId = randomUUID();
    const key = `resp:${endpointId}:ttl`;
    await cache.set(owner(endpointId), key, answer('hello'), 1);
    await expect(cache.get(key)).resolves.toEqual(answer('hello'));
    clock.advance(1_200);
    await expect(cache.get(key)).resolves.toBeUndefined();
  });

  it('removes every entry of a permanently deleted endpoint, and only those', async () => {
    const deleted = randomUUID();
    const kept = randomUUID();
    await cache.set(owner(deleted), `resp:${deleted}:a`, answer('a'), 60);
    await cache.set(owner(deleted), `resp:${deleted}:b`, answer('b'), 60);
    await cache.set(owner(kept), `resp:${kept}:c`, answer('c'), 60);
    await t.app.get(InvalidationBus).publish(ENDPOINT_DELETED_TOPIC, deleted);
    await expect(cache.get(`resp:${deleted}:a`)).resolves.toBeUndefined();
    await expect(cache.get(`resp:${deleted}:b`)).resolves.toBeUndefined();
    await expect(cache.get(`resp:${kept}:c`)).resolves.toEqual(answer('c'));
  });
});

describe('response cache store with Redis unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' });
  });
  afterAll(() => t.close());

  it('misses and skips stores instead of failing', async () => {
    const cache = t.app.get(ResponseCacheService);
    const endpointId = randomUUID();
    await expect(cache.set(owner(endpointId), `resp:${endpointId}:x`, answer('x'), 60)).resolves.toBeUndefined();
    await expect(cache.get(`resp:${endpointId}:x`)).resolves.toBeUndefined();
    await expect(cache.removeEndpoint(endpointId)).resolves.toBeUndefined();
  });
});
