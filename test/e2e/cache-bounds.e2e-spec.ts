import { endpointWithPrompt } from '../support/endpoint-fixtures';
import { auth, type SeededTenant, seedTenant } from '../support/seed';
import { createTestApp, type TestApp } from '../support/test-app';

// The response cache's byte bounds, on each store the run can reach (Redis too when REDIS_URL is set).
const stores: [string, string | undefined][] = [['memory', undefined]];
if (process.env.REDIS_URL) stores.push(['redis', process.env.REDIS_URL]);

const MAX_ENTRY_BYTES = 8 * 1024;
const MAX_TENANT_BYTES = 32 * 1024;

/**
 * A cached mock-echo answer holds the text about four times (body, rendered prompt, raw response, parsed output): 1,500
 * characters are about 6 KB stored, within the entry cap; 2,500 are about 10 KB, beyond it.
 */
const FITS = 1_500;
const TOO_LARGE = 2_500;

describe.each(stores)('response cache bounds (%s)', (store, redisUrl) => {
  let t: TestApp;
  let tenantA: SeededTenant;
  let tenantB: SeededTenant;

  beforeAll(async () => {
    t = await createTestApp({
      redisUrl,
      cache: { maxBytes: 48 * 1024, maxTenantBytes: MAX_TENANT_BYTES, maxEntryBytes: MAX_ENTRY_BYTES },
    });
    tenantA = await seedTenant(t.app);
    tenantB = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  async function echoEndpoint(tenant: SeededTenant) {
    const settings = { cacheEnabled: true, cacheDurationSeconds: 600 };
    const prompt = { template: '{{ inputs.text }}', llmModel: 'mock-echo' };
    return (await endpointWithPrompt(t, tenant.admin, prompt, settings)).endpoint;
  }

  const run = (tenant: SeededTenant, path: string, text: string) =>
    t.http.post(path).set(auth(tenant.endpointKey)).send({ text });

  it('serves an answer over CACHE_MAX_ENTRY_BYTES without storing it, and stores one within', async () => {
    const endpoint = await echoEndpoint(tenantA);
    const large = 'L'.repeat(TOO_LARGE);
    for (let i = 0; i < 2; i++) {
      const res = await run(tenantA, endpoint.path, large);
      expect([res.status, res.body, res.headers['x-cache']]).toEqual([200, large, 'MISS']);
    }
    const small = 'S'.repeat(FITS);
    expect((await run(tenantA, endpoint.path, small)).headers['x-cache']).toBe('MISS');
    const hit = await run(tenantA, endpoint.path, small);
    expect([hit.status, hit.body, hit.headers['x-cache']]).toEqual([200, small, 'HIT']);
  });

  if (store !== 'memory') return;

  it("one tenant filling its share pushes out its own answers, never another tenant's", async () => {
    const endpointA = await echoEndpoint(tenantA);
    const endpointB = await echoEndpoint(tenantB);
    const kept = 'b'.repeat(FITS);
    await run(tenantB, endpointB.path, kept).expect(200);
    const first = 'a0'.padEnd(FITS, '.');
    await run(tenantA, endpointA.path, first).expect(200);
    expect((await run(tenantA, endpointA.path, first)).headers['x-cache']).toBe('HIT');

    // Ten more answers of about 6 KB: far more than A's 32 KiB share.
    for (let i = 1; i <= 10; i++) await run(tenantA, endpointA.path, `a${i}`.padEnd(FITS, '.')).expect(200);

    expect((await run(tenantA, endpointA.path, first)).headers['x-cache']).toBe('MISS');
    expect((await run(tenantA, endpointA.path, 'a10'.padEnd(FITS, '.'))).headers['x-cache']).toBe('HIT');
    expect((await run(tenantB, endpointB.path, kept)).headers['x-cache']).toBe('HIT');
  });
});
