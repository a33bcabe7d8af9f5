import { captureStdout, useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';

describe('HTTP surface: body limits, parsing, unknown routes, request ids, logs', () => {
  const { t, tenant } = useTestApp({ config: { maxBodyBytes: 2048 }, env: { LOG_LEVEL: 'info' } });
  const lines = captureStdout();

  const big = { name: 'x'.repeat(4096), path: '/api/v1/big' };

  it('answers 413 in the envelope for an admin body over MAX_BODY_BYTES, and stores nothing', async () => {
    const res = await t.http.post('/admin/v1/endpoints').set(auth(tenant.admin)).send(big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ succeeded: false, messages: ['Request body is too large'], data: null });
    const list = await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin));
    expect(list.body.data).toEqual([]);
  });

  it('answers 413 payload_too_large on the execution surface', async () => {
    const res = await t.http.post('/api/v1/anything').set(auth(tenant.endpointKey)).send(big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: 'payload_too_large' });
  });

  it('accepts a body just under the limit', async () => {
    const res = await t.http
      .post('/admin/v1/endpoints')
      .set(auth(tenant.admin))
      .send({ name: 'x'.repeat(150), path: '/api/v1/fits' });
    expect(res.status).toBe(201);
  });

  it('answers 400 in the envelope for malformed JSON', async () => {
    const res = await t.http
      .post('/admin/v1/endpoints')
      .set(auth(tenant.admin))
      .set('Content-Type', 'application/json')
      .send('{"name": "x", ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ succeeded: false, messages: ['Request body is not valid JSON'], data: null });
  });

  it('treats an empty body sent as application/json as no body (lifecycle actions sent by curl -H)', async () => {
    const endpoint = await t.http
      .post('/admin/v1/endpoints')
      .set(auth(tenant.admin))
      .send({ name: 'Empty', path: '/api/v1/empty-body' });
    const res = await t.http
      .delete(`/admin/v1/endpoints/${endpoint.body.data.id}`)
      .set(auth(tenant.admin))
      .set('Content-Type', 'application/json')
      .send('');
    expect(res.status).toBe(200);
    const restored = await t.http
      .post(`/admin/v1/endpoints/${endpoint.body.data.id}/restore`)
      .set(auth(tenant.admin))
      .set('Content-Type', 'application/json')
      .send('');
    expect(restored.status).toBe(200);
    expect(restored.body.data.deletedAt).toBeNull();
  });

  it('refuses prototype-poisoning JSON as malformed', async () => {
    const res = await t.http
      .post('/admin/v1/endpoints')
      .set(auth(tenant.admin))
      .set('Content-Type', 'application/json')
      .send('{"name":"x","path":"/api/v1/proto","__proto__":{"isAdmin":true}}');
    expect([400, 201]).toContain(res.status);
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it('answers 404 in the envelope for an unknown admin route', async () => {
    const res = await t.http.get('/admin/v1/nothing-here').set(auth(tenant.admin));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ succeeded: false, messages: [expect.stringMatching(/Cannot GET/)], data: null });
  });

  it('answers an unknown non-admin route with a flat not_found body', async () => {
    const res = await t.http.get('/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('answers 400 naming the parameter for a malformed id', async () => {
    const res = await t.http.get('/admin/v1/endpoints/not-a-uuid').set(auth(tenant.admin));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ succeeded: false, messages: ['id must be a UUID'], data: null });
  });

  it('gives every response an X-Request-Id, keeping a well-formed incoming one', async () => {
    const generated = await t.http.get('/health');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const other = await t.http.get('/health');
    expect(other.headers['x-request-id']).not.toBe(generated.headers['x-request-id']);
    const kept = await t.http.get('/admin/v1/endpoints').set('X-Request-Id', 'trace-123.abc');
    expect(kept.status).toBe(401);
    expect(kept.headers['x-request-id']).toBe('trace-123.abc');
    const replaced = await t.http.get('/health').set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes one JSON access-log line per request with its request id and never a key', async () => {
    const res = await t.http
      .get('/admin/v1/keys')
      .set(auth(tenant.admin))
      .set('Authorization', `Bearer ${tenant.admin}`);
    expect(res.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    const requestId = res.headers['x-request-id'];
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const access = entries.filter((entry) => entry.requestId === requestId);
    expect(access).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        method: 'GET',
        path: '/admin/v1/keys',
        status: 200,
        time: expect.any(String),
      }),
    ]);
    for (const key of [tenant.admin, tenant.readOnly, tenant.endpointKey]) {
      expect(lines.join('\n')).not.toContain(key);
      expect(lines.join('\n')).not.toContain(key.slice(-12));
    }
  });
});
