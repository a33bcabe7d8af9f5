import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { auth, seedTenant } from '../support/seed';
import { createTestApp, type TestApp } from '../support/test-app';
import { withinASecond } from '../support/within-a-second';
import { useTwoInstances } from '../support/app-suite';

// Two instances of the service on one PostgreSQL (and one Redis): what one instance changes, the other sees.
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const withRedis = databaseUrl && redisUrl ? describe : describe.skip;
const withPostgres = databaseUrl ? describe : describe.skip;

withRedis('two instances on PostgreSQL and Redis (skipped unless DATABASE_URL and REDIS_URL are set)', () => {
  const { a, b, tenant } = useTwoInstances();

  const execute = (t: TestApp, path: string, key: string, body: object = {}) =>
    t.http.post(path).set(auth(key)).send(body);

  it('shares rate-limit counters exactly: limit 5, 14 concurrent requests over both instances, 5 succeed', async () => {
    const endpoint = await createEndpoint(a, tenant.admin);
    await createPrompt(a, tenant.admin, endpoint.id, { template: 'ok' });
    const created = await a.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({ name: 'shared', type: 'endpoint', rateLimitPerMinute: 5 });
    const key = created.body.data.key as string;
    const results = await Promise.all(Array.from({ length: 14 }, (_, i) => execute(i % 2 ? a : b, endpoint.path, key)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(9);
    const remaining = results
      .filter((r) => r.status === 200)
      .map((r) => r.headers['x-ratelimit-remaining'])
      .sort();
    expect(remaining).toEqual(['0', '1', '2', '3', '4']);
  });

  it('shares the response cache: a miss on one instance is a hit on the other', async () => {
    const endpoint = await createEndpoint(a, tenant.admin, {
      cacheEnabled: true,
      inputs: [{ name: 'text', dataType: 'string' }],
    });
    await createPrompt(a, tenant.admin, endpoint.id, { template: 'cached {{ inputs.text }}' });
    const miss = await execute(a, endpoint.path, tenant.endpointKey, { text: 'x' });
    expect([miss.status, miss.headers['x-cache']]).toEqual([200, 'MISS']);
    const hit = await execute(b, endpoint.path, tenant.endpointKey, { text: 'x' });
    expect([hit.status, hit.body, hit.headers['x-cache']]).toEqual([200, 'cached x', 'HIT']);
  });

  it('revokes a key on every instance within a second', async () => {
    const endpoint = await createEndpoint(a, tenant.admin);
    await createPrompt(a, tenant.admin, endpoint.id, { template: 'ok' });
    const created = await a.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({ name: 'to-revoke', type: 'endpoint' });
    const { id, key } = created.body.data;
    // Both instances now hold the key in memory.
    await execute(a, endpoint.path, key).expect(200);
    await execute(b, endpoint.path, key).expect(200);
    await a.http.post(`/admin/v1/keys/${id}/revoke`).set(auth(tenant.admin)).expect(200);
    await execute(a, endpoint.path, key).expect(401);
    await withinASecond(async () => {
      const res = await execute(b, endpoint.path, key);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
    });
  });

  it("applies a key's new limits on every instance within a second", async () => {
    const endpoint = await createEndpoint(a, tenant.admin);
    await createPrompt(a, tenant.admin, endpoint.id, { template: 'ok' });
    const created = await a.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({ name: 'to-limit', type: 'endpoint' });
    const { id, key } = created.body.data;
    expect((await execute(b, endpoint.path, key)).headers['x-ratelimit-limit']).toBe('60');
    await a.http.put(`/admin/v1/keys/${id}`).set(auth(tenant.admin)).send({ rateLimitPerMinute: 30 }).expect(200);
    await withinASecond(async () => {
      expect((await execute(b, endpoint.path, key)).headers['x-ratelimit-limit']).toBe('30');
    });
  });

  it('uses a new default prompt on every instance within a second', async () => {
    const endpoint = await createEndpoint(a, tenant.admin);
    await createPrompt(a, tenant.admin, endpoint.id, { template: 'first default' });
    expect((await execute(b, endpoint.path, tenant.endpointKey)).body).toBe('first default');
    await createPrompt(a, tenant.admin, endpoint.id, { template: 'second default' });
    await withinASecond(async () => {
      expect((await execute(b, endpoint.path, tenant.endpointKey)).body).toBe('second default');
    });
  });

  it("changes a tenant's OpenAPI document on every instance within a second", async () => {
    const document = (t: TestApp) => t.http.get('/api/v1/openapi.json').set(auth(tenant.endpointKey));
    const endpoint = await createEndpoint(a, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
    const before = await document(b);
    expect(before.body.paths[endpoint.path]).toBeDefined();
    const field = (await a.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(auth(tenant.admin))).body.data
      .inputFields[0];
    await a.http
      .put(`/admin/v1/endpoints/${endpoint.id}/input-fields/${field.id}`)
      .set(auth(tenant.admin))
      .send({ maxLength: 42 })
      .expect(200);
    await withinASecond(async () => {
      const after = await document(b).set('If-None-Match', before.headers.etag);
      expect(after.status).toBe(200);
      const body = after.body.paths[endpoint.path].post.requestBody.content['application/json'];
      expect(body.schema.properties.text.maxLength).toBe(42);
    });
    await a.http.delete(`/admin/v1/endpoints/${endpoint.id}`).set(auth(tenant.admin)).expect(200);
    await withinASecond(async () => {
      expect((await document(b)).body.paths[endpoint.path]).toBeUndefined();
    });
  });
});

withPostgres(
  'two instances on PostgreSQL without Redis: LISTEN/NOTIFY carries invalidations (skipped unless DATABASE_URL is set)',
  () => {
    let a: TestApp;
    let b: TestApp;

    beforeAll(async () => {
      [a, b] = await Promise.all([createTestApp({ redisUrl: undefined }), createTestApp({ redisUrl: undefined })]);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
    });

    it('revokes a key on every instance within a second', async () => {
      const tenant = await seedTenant(a.app);
      const created = await a.http
        .post('/admin/v1/keys')
        .set(auth(tenant.admin))
        .send({ name: 'pg-revoke', type: 'admin' });
      const { id, key } = created.body.data;
      await b.http.get('/admin/v1/keys').set(auth(key)).expect(200);
      await a.http.post(`/admin/v1/keys/${id}/revoke`).set(auth(tenant.admin)).expect(200);
      await withinASecond(async () => {
        const res = await b.http.get('/admin/v1/keys').set(auth(key));
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ succeeded: false, messages: [expect.any(String)], data: null });
      });
    });
  },
);
