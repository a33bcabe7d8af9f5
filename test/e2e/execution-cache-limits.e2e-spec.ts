import { cacheKey, fieldsFingerprint } from '../../src/modules/cache/cache-key';
import { ResponseCacheService } from '../../src/modules/cache/response-cache.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { TestClock } from '../support/test-clock';
import { logRows, logsOf } from '../support/log-rows';

// The cache key and the rate limits, on each store the run can reach (Redis too when REDIS_URL is set),
// and with Redis unreachable (port 1 is closed).
const stores: [string, string | undefined][] = [['memory', undefined]];
if (process.env.REDIS_URL) stores.push(['redis', process.env.REDIS_URL]);
stores.push(['unreachable redis', 'redis://127.0.0.1:1']);

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe.each(stores)('execution cache and rate limits (%s)', (store, redisUrl) => {
  const cacheWorks = store !== 'unreachable redis';
  const clock = new TestClock();
  const { t, tenant, fake } = useTestApp({ config: { redisUrl }, fake: {}, clock });

  const execute = (endpointPath: string, key: string, body: object = {}) =>
    t.http.post(endpointPath).set(auth(key)).send(body);

  async function newKey(limits: Record<string, number> = {}): Promise<{ id: string; key: string }> {
    const res = await t.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({ name: 'limited', type: 'endpoint', ...limits });
    expect(res.status).toBe(201);
    return res.body.data;
  }

  async function cachedEndpoint(settings: Record<string, unknown> = {}) {
    const endpoint = await createEndpoint(t, tenant.admin, {
      cacheEnabled: true,
      cacheDurationSeconds: 60,
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      ...settings,
    });
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Echo {{ inputs.text }}',
      llmModel: 'llama-test',
    });
    return { ...endpoint, prompt };
  }

  describe('response cache', () => {
    it('answers an identical request from the cache without calling the provider, and logs it cached', async () => {
      const endpoint = await cachedEndpoint();
      fake.reply({ text: '"first"' }, { text: '"second"' });
      const miss = await execute(endpoint.path, tenant.endpointKey, { text: 'hi', extra: { b: 1, a: 2 } });
      expect(miss.status).toBe(200);
      expect(miss.body).toBe('first');
      expect(miss.headers['x-cache']).toBe('MISS');

      // Same body with its keys in another order: the canonical JSON is the same.
      const hit = await execute(endpoint.path, tenant.endpointKey, { extra: { a: 2, b: 1 }, text: 'hi' });
      expect(hit.status).toBe(200);
      expect(hit.headers['x-cache']).toBe(cacheWorks ? 'HIT' : 'MISS');
      expect(hit.body).toBe(cacheWorks ? 'first' : 'second');
      expect(fake.requests).toHaveLength(cacheWorks ? 1 : 2);

      const rows = await logsOf(t, tenant.admin, endpoint.id, 2);
      expect(rows.map((row) => row.cached).sort()).toEqual(cacheWorks ? [false, true] : [false, false]);
      expect(rows.every((row) => row.status === 'success')).toBe(true);
    });

    if (!cacheWorks) return;

    it('misses for any other body, a new prompt version or a changed setting', async () => {
      const endpoint = await cachedEndpoint();
      fake.reply({ text: '"a"' }, { text: '"b"' }, { text: '"c"' }, { text: '"d"' }, { text: '"e"' });
      expect((await execute(endpoint.path, tenant.endpointKey, { text: 'one' })).body).toBe('a');
      const other = await execute(endpoint.path, tenant.endpointKey, { text: 'two' });
      expect([other.body, other.headers['x-cache']]).toEqual(['b', 'MISS']);
      const extra = await execute(endpoint.path, tenant.endpointKey, { text: 'one', unknown: true });
      expect([extra.body, extra.headers['x-cache']]).toEqual(['c', 'MISS']);

      const updated = await t.http
        .put(`/admin/v1/prompts/${endpoint.prompt.id}`)
        .set(auth(tenant.admin))
        .send({ template: 'Echo again {{ inputs.text }}' });
      expect(updated.status).toBe(200);
      const newVersion = await execute(endpoint.path, tenant.endpointKey, { text: 'one' });
      expect([newVersion.body, newVersion.headers['x-cache']]).toEqual(['d', 'MISS']);
      await t.http
        .put(`/admin/v1/prompts/${endpoint.prompt.id}`)
        .set(auth(tenant.admin))
        .send({ temperature: 0.1 })
        .expect(200);
      const newSetting = await execute(endpoint.path, tenant.endpointKey, { text: 'one' });
      expect([newSetting.body, newSetting.headers['x-cache']]).toEqual(['e', 'MISS']);
      expect(fake.requests).toHaveLength(5);
      expect((await execute(endpoint.path, tenant.endpointKey, { text: 'two' })).headers['x-cache']).toBe('MISS');
    });

    it('misses once a field changes: a new output field or a new default shapes the answer', async () => {
      const endpoint = await cachedEndpoint({ inputs: [{ name: 'text', dataType: 'string', defaultValue: 'none' }] });
      fake.reply({ text: '"plain"' }, { text: '"new default"' }, { text: '{"summary":"structured"}' });
      expect((await execute(endpoint.path, tenant.endpointKey, {})).body).toBe('plain');
      expect((await execute(endpoint.path, tenant.endpointKey, {})).headers['x-cache']).toBe('HIT');

      const [field] = (await t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(auth(tenant.admin))).body.data
        .inputFields;
      await t.http
        .put(`/admin/v1/endpoints/${endpoint.id}/input-fields/${field.id}`)
        .set(auth(tenant.admin))
        .send({ defaultValue: 'other' })
        .expect(200);
      const newDefault = await execute(endpoint.path, tenant.endpointKey, {});
      expect([newDefault.body, newDefault.headers['x-cache']]).toEqual(['new default', 'MISS']);

      await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/output-fields`)
        .set(auth(tenant.admin))
        .send({ name: 'summary', dataType: 'string' })
        .expect(201);
      const structured = await execute(endpoint.path, tenant.endpointKey, {});
      expect([structured.body, structured.headers['x-cache']]).toEqual([{ summary: 'structured' }, 'MISS']);
      expect(fake.requests).toHaveLength(3);
    });

    it('x-cache-bypass: true calls the provider and refreshes the cached answer', async () => {
      const endpoint = await cachedEndpoint();
      fake.reply({ text: '"old"' }, { text: '"fresh"' });
      await execute(endpoint.path, tenant.endpointKey, { text: 'x' }).expect(200);
      const bypass = await execute(endpoint.path, tenant.endpointKey, { text: 'x' }).set('x-cache-bypass', 'true');
      expect([bypass.status, bypass.body, bypass.headers['x-cache']]).toEqual([200, 'fresh', 'BYPASS']);
      const hit = await execute(endpoint.path, tenant.endpointKey, { text: 'x' });
      expect([hit.body, hit.headers['x-cache']]).toEqual(['fresh', 'HIT']);
      expect(fake.requests).toHaveLength(2);
    });

    it('never caches an endpoint with caching off (X-Cache: BYPASS), nor a failed call', async () => {
      const endpoint = await cachedEndpoint({ cacheEnabled: false });
      fake.reply({ text: '"1"' }, { text: '"2"' });
      const first = await execute(endpoint.path, tenant.endpointKey, { text: 'x' });
      const second = await execute(endpoint.path, tenant.endpointKey, { text: 'x' });
      expect([first.body, first.headers['x-cache'], second.body, second.headers['x-cache']]).toEqual([
        '1',
        'BYPASS',
        '2',
        'BYPASS',
      ]);

      const cached = await cachedEndpoint();
      fake.reply({ status: 500, message: 'provider down' }, { text: '"recovered"' });
      const failed = await execute(cached.path, tenant.endpointKey, { text: 'x' });
      expect(failed.status).toBe(502);
      expect(failed.headers['x-cache']).toBe('MISS');
      const next = await execute(cached.path, tenant.endpointKey, { text: 'x' });
      expect([next.status, next.body, next.headers['x-cache']]).toEqual([200, 'recovered', 'MISS']);
    });

    it('expires entries after cacheDurationSeconds', async () => {
      const endpoint = await cachedEndpoint({ cacheDurationSeconds: 1 });
      fake.reply({ text: '"early"' }, { text: '"late"' });
      await execute(endpoint.path, tenant.endpointKey, { text: 'x' }).expect(200);
      expect((await execute(endpoint.path, tenant.endpointKey, { text: 'x' })).headers['x-cache']).toBe('HIT');
      clock.advance(1_200);
      const late = await execute(endpoint.path, tenant.endpointKey, { text: 'x' });
      expect([late.body, late.headers['x-cache']]).toEqual(['late', 'MISS']);
    });

    it('a permanent endpoint delete removes its cached responses', async () => {
      const endpoint = await cachedEndpoint();
      fake.reply({ text: '"kept?"' });
      await execute(endpoint.path, tenant.endpointKey, { text: 'x' }).expect(200);
      const prompt = (await t.http.get(`/admin/v1/prompts/${endpoint.prompt.id}`).set(auth(tenant.admin))).body.data;
      const { inputFields, outputFields } = (
        await t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(auth(tenant.admin))
      ).body.data;
      const key = cacheKey({
        endpointId: endpoint.id,
        promptId: prompt.id,
        promptVersion: prompt.currentVersion,
        llmModel: prompt.llmModel,
        temperature: prompt.temperature,
        maxTokens: prompt.maxTokens,
        customParameters: prompt.customParameters,
        fields: fieldsFingerprint({ inputFields, outputFields }),
        body: { text: 'x' },
      });
      const cache = t.app.get(ResponseCacheService);
      await expect(cache.get(key)).resolves.toMatchObject({ body: 'kept?' });
      await t.http.delete(`/admin/v1/endpoints/${endpoint.id}?permanent=true`).set(auth(tenant.admin)).expect(200);
      await expect(cache.get(key)).resolves.toBeUndefined();
      expect((await execute(endpoint.path, tenant.endpointKey, { text: 'x' })).status).toBe(404);
    });
  });

  describe('rate limits', () => {
    const mockEndpoint = async (settings: Record<string, unknown> = {}) => {
      const endpoint = await createEndpoint(t, tenant.admin, settings);
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'ok' });
      return endpoint;
    };

    it('reports the default per-key limits on every answer', async () => {
      const endpoint = await mockEndpoint();
      const { key } = await newKey();
      const res = await execute(endpoint.path, key);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('60');
      expect(res.headers['x-ratelimit-remaining']).toBe('59');
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(nowSeconds());
      expect(reset).toBeLessThanOrEqual(nowSeconds() + 61);
    });

    it('refuses past a key override with 429, retry_after and Retry-After, without calling the LLM or logging', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'x', llmModel: 'llama-test' });
      const { key } = await newKey({ rateLimitPerMinute: 2 });
      fake.reply({ text: '"1"' }, { text: '"2"' }, { text: '"3"' });
      const first = await execute(endpoint.path, key);
      expect([first.status, first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual([
        200,
        '2',
        '1',
      ]);
      const second = await execute(endpoint.path, key);
      expect([second.status, second.headers['x-ratelimit-remaining']]).toEqual([200, '0']);

      const refused = await execute(endpoint.path, key);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: 'rate_limit_exceeded',
        message: expect.stringMatching(/^Rate limit exceeded: retry in \d+ seconds?$/),
        retry_after: expect.any(Number),
      });
      expect(refused.body.retry_after).toBeGreaterThanOrEqual(1);
      expect(refused.body.retry_after).toBeLessThanOrEqual(60);
      expect(refused.headers['retry-after']).toBe(String(refused.body.retry_after));
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect(refused.headers['x-request-id']).toBeDefined();
      expect(fake.requests).toHaveLength(2);
      // The refused request writes no row: once the two are written, nothing more is queued.
      await logsOf(t, tenant.admin, endpoint.id, 2);
      expect(await logRows(t, tenant.admin, `endpointId=${endpoint.id}`)).toHaveLength(2);
    });

    it('checks limits before validating the body, and counts requests that then fail validation', async () => {
      const endpoint = await mockEndpoint({ inputs: [{ name: 'text', dataType: 'string', isRequired: true }] });
      const { key } = await newKey({ rateLimitPerMinute: 1 });
      const invalid = await execute(endpoint.path, key, {});
      expect(invalid.status).toBe(400);
      expect(invalid.headers['x-ratelimit-remaining']).toBe('0');
      const refused = await execute(endpoint.path, key, {});
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('rate_limit_exceeded');
    });

    it('reports the window with the fewest requests left', async () => {
      const endpoint = await mockEndpoint();
      const { key } = await newKey({ rateLimitPerHour: 5 });
      const res = await execute(endpoint.path, key);
      expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual(['5', '4']);
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(nowSeconds() + 3_500);
      expect(reset).toBeLessThanOrEqual(nowSeconds() + 3_601);
    });

    it('asks a refused request to wait for every full window: minute and hour both full, about an hour', async () => {
      const endpoint = await mockEndpoint();
      const { key } = await newKey({ rateLimitPerMinute: 2, rateLimitPerHour: 2 });
      await execute(endpoint.path, key).expect(200);
      await execute(endpoint.path, key).expect(200);
      const refused = await execute(endpoint.path, key);
      expect(refused.status).toBe(429);
      expect(refused.body.retry_after).toBeGreaterThan(3_500);
      expect(refused.body.retry_after).toBeLessThanOrEqual(3_600);
      expect(refused.body.message).toBe(`Rate limit exceeded: retry in ${refused.body.retry_after} seconds`);
      expect(refused.headers['retry-after']).toBe(String(refused.body.retry_after));
      expect([refused.headers['x-ratelimit-limit'], refused.headers['x-ratelimit-remaining']]).toEqual(['2', '0']);
      expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThan(nowSeconds() + 3_500);
    });

    it("applies an endpoint's own limit per key per endpoint, on top of the key's", async () => {
      const limited = await mockEndpoint({ rateLimitPerMinute: 2 });
      const open = await mockEndpoint();
      const a = await newKey();
      const b = await newKey();
      const first = await execute(limited.path, a.key);
      expect([first.status, first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual([
        200,
        '2',
        '1',
      ]);
      await execute(limited.path, a.key).expect(200);
      expect((await execute(limited.path, a.key)).status).toBe(429);
      const otherKey = await execute(limited.path, b.key);
      expect([otherKey.status, otherKey.headers['x-ratelimit-remaining']]).toEqual([200, '1']);
      // The refused request counted nowhere: the key's own minute window shows only the two that passed.
      const elsewhere = await execute(open.path, a.key);
      expect([
        elsewhere.status,
        elsewhere.headers['x-ratelimit-limit'],
        elsewhere.headers['x-ratelimit-remaining'],
      ]).toEqual([200, '60', '57']);
    });

    // With the cache unreachable there are no hits to count.
    if (cacheWorks)
      it('counts cache hits', async () => {
        const endpoint = await cachedEndpoint();
        const { key } = await newKey({ rateLimitPerMinute: 2 });
        fake.reply({ text: '"c"' });
        expect((await execute(endpoint.path, key, { text: 'x' })).headers['x-cache']).toBe('MISS');
        const hit = await execute(endpoint.path, key, { text: 'x' });
        expect([hit.status, hit.headers['x-cache'], hit.headers['x-ratelimit-remaining']]).toEqual([200, 'HIT', '0']);
        expect((await execute(endpoint.path, key, { text: 'x' })).status).toBe(429);
      });

    it("takes a key's new limits into account at once", async () => {
      const endpoint = await mockEndpoint();
      const { id, key } = await newKey({ rateLimitPerMinute: 10 });
      expect((await execute(endpoint.path, key)).headers['x-ratelimit-limit']).toBe('10');
      await t.http.put(`/admin/v1/keys/${id}`).set(auth(tenant.admin)).send({ rateLimitPerMinute: 1 }).expect(200);
      const res = await execute(endpoint.path, key);
      expect([res.status, res.headers['x-ratelimit-limit']]).toEqual([429, '1']);
    });

    it('is exact under concurrency: limit 5, 12 concurrent requests, exactly 5 succeed', async () => {
      const endpoint = await mockEndpoint();
      const { key } = await newKey({ rateLimitPerMinute: 5 });
      const results = await Promise.all(Array.from({ length: 12 }, () => execute(endpoint.path, key)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(5);
      expect(results.filter((r) => r.status === 429)).toHaveLength(7);
    });
  });
});
