/**
 * Per-request cost of the rate-limit and response-cache steps of an execution, in isolation (no HTTP, no database):
 * counting a request in the 6 windows an execution can have (key minute/hour/day + endpoint minute/hour/day), one
 * throttler storage increment per window as the guard makes them, the
 * cache key of a ~1 KB body, and a cache hit, each on the in-process store and, with REDIS_URL, on Redis.
 *
 *   node -r ts-node/register/transpile-only bench/rate-limit-cache.ts [--iterations 5000]
 *   REDIS_URL=redis://127.0.0.1:6379 node -r ts-node/register/transpile-only bench/rate-limit-cache.ts
 */
import KeyvRedis from '@keyv/redis';
import { createClient } from '@redis/client';
import { createCache } from 'cache-manager';
import { Keyv } from 'keyv';
import { randomUUID } from 'node:crypto';
import type { KeyThrottlerStorage, RateWindow } from '../src/common/rate-limit/rate-limiter';
import { WindowAdmission } from '../src/common/rate-limit/window-admission';
import { cacheKey, fieldsFingerprint } from '../src/modules/cache/cache-key';
import { RedisEndpointCacheIndex } from '../src/modules/cache/endpoint-cache-index';
import { MemoryResponseStore } from '../src/modules/cache/memory-response-store';
import { InProcessResponseStore, RedisResponseStore } from '../src/modules/cache/response-store';
import { MemoryThrottlerStorage, RedisThrottlerStorage } from '../src/common/rate-limit/rate-limit.store';
import { SYSTEM_CLOCK } from '../src/common/time/clock';

const iterationsArg = process.argv.indexOf('--iterations');
const ITERATIONS = iterationsArg > 0 ? Number(process.argv[iterationsArg + 1]) : 5_000;

function windowsFor(keyId: string, endpointId: string): RateWindow[] {
  const huge = 1_000_000_000;
  return [
    { name: 'minute', key: `bench:minute:{${keyId}}`, limit: huge, ttlMs: 60_000 },
    { name: 'hour', key: `bench:hour:{${keyId}}`, limit: huge, ttlMs: 3_600_000 },
    { name: 'day', key: `bench:day:{${keyId}}`, limit: huge, ttlMs: 86_400_000 },
    { name: 'endpoint-minute', key: `bench:endpoint-minute:{${keyId}}:${endpointId}`, limit: huge, ttlMs: 60_000 },
    { name: 'endpoint-hour', key: `bench:endpoint-hour:{${keyId}}:${endpointId}`, limit: huge, ttlMs: 3_600_000 },
    { name: 'endpoint-day', key: `bench:endpoint-day:{${keyId}}:${endpointId}`, limit: huge, ttlMs: 86_400_000 },
  ];
}

async function countIn(storage: KeyThrottlerStorage, windows: RateWindow[]): Promise<void> {
  const admission = new WindowAdmission(storage);
  for (const window of windows) admission.count(window);
  await admission.decision();
}

async function measure(label: string, step: () => Promise<unknown> | unknown): Promise<void> {
  for (let i = 0; i < Math.min(500, ITERATIONS); i++) await step();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const started = process.hrtime.bigint();
    await step();
    samples.push(Number(process.hrtime.bigint() - started) / 1_000);
  }
  samples.sort((x, y) => x - y);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))].toFixed(1);
  const mean = (samples.reduce((sum, value) => sum + value, 0) / samples.length).toFixed(1);
  console.log(
    `${label.padEnd(52)} mean ${mean.padStart(7)} µs   p50 ${at(0.5).padStart(7)} µs   p99 ${at(0.99).padStart(7)} µs`,
  );
}

async function main(): Promise<void> {
  const keyId = randomUUID();
  const endpointId = randomUUID();
  const body = { text: 'x'.repeat(900), options: { language: 'en', tone: 'friendly', tags: ['a', 'b', 'c'] } };
  const keyParts = {
    endpointId,
    promptId: randomUUID(),
    promptVersion: 3,
    llmModel: 'gpt-4o-mini',
    temperature: 0.7,
    maxTokens: 1024,
    customParameters: {},
    fields: fieldsFingerprint({ inputFields: [], outputFields: [] }),
    body,
  };
  const entry = {
    body: { summary: 'y'.repeat(500) },
    rawResponse: 'y'.repeat(500),
    parsedOutput: { summary: 'y'.repeat(500) },
  };
  console.log(`${ITERATIONS} sequential iterations per step\n`);

  await measure('cache key (canonical JSON + sha256, ~1 KB body)', () => cacheKey(keyParts));

  const memory = new MemoryThrottlerStorage();
  await measure('rate limit, memory: 6 windows', () => countIn(memory, windowsFor(keyId, endpointId)));

  const memoryCache = new InProcessResponseStore(
    new MemoryResponseStore({ maxBytes: 256 * 1024 * 1024, maxTenantBytes: 64 * 1024 * 1024 }),
  );
  const key = cacheKey(keyParts);
  const owner = { tenantId: randomUUID(), endpointId };
  await memoryCache.set(owner, key, entry, JSON.stringify(entry), 60_000);
  await measure('cache hit, memory (byte-bounded store get)', () => memoryCache.get(key));

  const url = process.env.REDIS_URL;
  if (!url) {
    console.log('\nSet REDIS_URL to measure the Redis store too.');
    return;
  }
  const client = createClient({ url, disableOfflineQueue: true });
  await client.connect();
  const redis = new RedisThrottlerStorage(client, new MemoryThrottlerStorage(), (error) => {
    throw error;
  });
  await measure('rate limit, Redis: 6 windows counted at once (one EVALSHA each, one round trip)', () =>
    countIn(redis, windowsFor(keyId, endpointId)),
  );
  const ping = () => client.ping();
  await measure('(reference: one Redis PING round trip)', ping);

  const cacheClient = createClient({ url, disableOfflineQueue: true });
  await cacheClient.connect();
  const store = new KeyvRedis(cacheClient, { namespace: 'promptgate:bench', keyPrefixSeparator: ':' });
  const keyv = new Keyv(store, { namespace: 'promptgate:bench', useKeyPrefix: false });
  const redisCache = new RedisResponseStore(
    createCache({ stores: [keyv] }),
    keyv,
    new RedisEndpointCacheIndex(cacheClient, 'promptgate:bench:'),
    SYSTEM_CLOCK,
  );
  await redisCache.set(owner, key, entry, JSON.stringify(entry), 60_000);
  await measure('cache hit, Redis (cache-manager over keyv, ~1.5 KB entry)', () => redisCache.get(key));
  await measure('cache miss, Redis (cache-manager over keyv)', () => redisCache.get(`${key}:absent`));

  await client.del(windowsFor(keyId, endpointId).map((w) => `promptgate:rl:${w.key}`));
  await redisCache.removeEndpoint(endpointId);
  await Promise.all([client.close(), cacheClient.close()]);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
