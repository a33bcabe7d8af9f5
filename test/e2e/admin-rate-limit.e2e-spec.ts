import { createTestApp, type TestApp } from '../support/test-app';
import { auth, seedTenant } from '../support/seed';

// Each store the run can reach: process memory always, Redis too when REDIS_URL is set (CI's second pass).
const stores: [string, string | undefined][] = [['memory', undefined]];
if (process.env.REDIS_URL) stores.push(['redis', process.env.REDIS_URL]);

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe.each(stores)('admin API rate limit (%s store)', (_store, redisUrl) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ redisUrl, adminRateLimitPerMinute: 3 });
  });
  afterAll(() => t.close());

  it('counts each admin key per minute and answers 429 in the envelope past the limit', async () => {
    const tenant = await seedTenant(t.app);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin));
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(nowSeconds());
      expect(reset).toBeLessThanOrEqual(nowSeconds() + 61);
      remaining.push(res.headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      succeeded: false,
      messages: [expect.stringMatching(/^Rate limit exceeded: retry in \d+ seconds?$/)],
      data: null,
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.messages[0]).toContain(`retry in ${retryAfter} second`);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-ratelimit-limit']).toBe('3');

    // Bearer presentation is the same key, so the same counter; writes are refused before they run.
    const write = await t.http
      .post('/admin/v1/endpoints')
      .set({ Authorization: `Bearer ${tenant.admin}` })
      .send({ name: 'blocked', path: '/api/v1/blocked' });
    expect(write.status).toBe(429);
    const other = await seedTenant(t.app);
    const list = await t.http.get('/admin/v1/endpoints').set(auth(other.admin));
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
  });

  it('keeps separate counters for different keys of one tenant', async () => {
    const tenant = await seedTenant(t.app);
    for (let i = 0; i < 3; i++) await t.http.get('/admin/v1/keys').set(auth(tenant.admin)).expect(200);
    await t.http.get('/admin/v1/keys').set(auth(tenant.admin)).expect(429);
    const reader = await t.http.get('/admin/v1/keys').set(auth(tenant.readOnly));
    expect(reader.status).toBe(200);
    expect(reader.headers['x-ratelimit-remaining']).toBe('2');
  });

  it("counts a ReadOnly key's refused writes too (they still reach the service)", async () => {
    const tenant = await seedTenant(t.app);
    const forbidden = await t.http
      .post('/admin/v1/endpoints')
      .set(auth(tenant.readOnly))
      .send({ name: 'x', path: '/api/v1/x' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('does not count requests it cannot attribute to a key (401) or endpoint keys (403)', async () => {
    const tenant = await seedTenant(t.app);
    const anonymous = await t.http.get('/admin/v1/endpoints');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['x-ratelimit-limit']).toBeUndefined();
    const endpointKey = await t.http.get('/admin/v1/endpoints').set(auth(tenant.endpointKey));
    expect(endpointKey.status).toBe(403);
    expect(endpointKey.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('is exact under concurrency: limit 3, 8 concurrent requests, 3 succeed', async () => {
    const tenant = await seedTenant(t.app);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.http.get('/admin/v1/endpoints').set(auth(tenant.admin))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
  });
});

describe('admin API rate limit with Redis unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 1 is closed: the service must keep answering and fall back to counting in this instance.
    t = await createTestApp({ redisUrl: 'redis://127.0.0.1:1', adminRateLimitPerMinute: 2 });
  });
  afterAll(() => t.close());

  it('fails open to per-instance counters: answers, still sends headers, still limits', async () => {
    const tenant = await seedTenant(t.app);
    const first = await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ succeeded: true, messages: [], data: [] });
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin)).expect(200);
    const refused = await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
