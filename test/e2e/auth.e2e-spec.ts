import { DataSource } from 'typeorm';
import { createOpenApiDocument } from '../../src/openapi';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { expectFailure } from '../support/envelope';

const unauthorized = (res: { status: number; body: unknown }) => expectFailure(res, 401);

describe('admin authentication and permissions', () => {
  const { t, tenant, other } = useTestApp({ other: true });

  describe('presenting a key', () => {
    it('refuses a request without a key', async () => {
      const res = await t.http.get('/admin/v1/endpoints');
      unauthorized(res);
      expect(res.body.messages[0]).toMatch(/API key is required/);
    });

    it.each([
      ['a malformed key', 'not-a-key'],
      ['an unknown well-formed key', 'epa_' + 'Z'.repeat(40)],
      ['an empty Bearer token', ''],
    ])('refuses %s', async (_, key) => {
      unauthorized(await t.http.get('/admin/v1/endpoints').set(auth(key)));
      unauthorized(await t.http.get('/admin/v1/endpoints').set('Authorization', `Bearer ${key}`));
    });

    it('accepts the key as x-api-key or as a Bearer token', async () => {
      const viaHeader = await t.http.get('/admin/v1/endpoints').set('x-api-key', tenant.admin);
      const viaBearer = await t.http.get('/admin/v1/endpoints').set('Authorization', `Bearer ${tenant.admin}`);
      expect(viaHeader.status).toBe(200);
      expect(viaBearer.status).toBe(200);
      expect(viaBearer.body).toEqual({ succeeded: true, messages: [], data: [] });
    });

    it('refuses two different keys in the two headers, even two valid ones', async () => {
      const res = await t.http
        .get('/admin/v1/endpoints')
        .set('x-api-key', tenant.admin)
        .set('Authorization', `Bearer ${tenant.readOnly}`);
      unauthorized(res);
      expect(res.body.messages[0]).toMatch(/different keys/);
    });

    it('accepts the same key in both headers', async () => {
      const res = await t.http
        .get('/admin/v1/endpoints')
        .set('x-api-key', tenant.admin)
        .set('Authorization', `Bearer ${tenant.admin}`);
      expect(res.status).toBe(200);
    });

    it('refuses endpoint keys on admin routes with 403', async () => {
      for (const header of [auth(tenant.endpointKey), { Authorization: `Bearer ${tenant.endpointKey}` }]) {
        const res = await t.http.get('/admin/v1/endpoints').set(header);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          succeeded: false,
          messages: ['Endpoint keys cannot use the admin API'],
          data: null,
        });
      }
    });

    it('refuses a revoked key from the next request on', async () => {
      const created = await t.http
        .post('/admin/v1/keys')
        .set(auth(tenant.admin))
        .send({ name: 'soon revoked', type: 'admin' });
      expect(created.status).toBe(201);
      const key: string = created.body.data.key;
      expect((await t.http.get('/admin/v1/keys').set(auth(key))).status).toBe(200);

      const revoked = await t.http.post(`/admin/v1/keys/${created.body.data.id}/revoke`).set(auth(tenant.admin));
      expect(revoked.status).toBe(200);
      expect(revoked.body.data.status).toBe('Revoked');

      const after = await t.http.get('/admin/v1/keys').set(auth(key));
      unauthorized(after);
      expect(after.body.messages[0]).toMatch(/invalid or revoked/);
      unauthorized(await t.http.get('/admin/v1/keys').set('Authorization', `Bearer ${key}`));
    });
  });

  describe('tenant hosts', () => {
    it("refuses a key on another tenant's host with 401", async () => {
      const res = await t.http
        .get('/admin/v1/endpoints')
        .set('Host', `${other.slug}.localhost`)
        .set(auth(tenant.admin));
      unauthorized(res);
      expect(res.body.messages[0]).toMatch(/does not belong to this tenant/);
      unauthorized(
        await t.http.get('/admin/v1/endpoints').set('Host', `${other.slug}.localhost:3000`).set(auth(tenant.admin)),
      );
    });

    it('accepts a key on its own tenant host and on a host without a tenant', async () => {
      for (const host of [`${tenant.slug}.localhost`, `${tenant.slug}.localhost:3000`, 'localhost:3000', '127.0.0.1']) {
        const res = await t.http.get('/admin/v1/endpoints').set('Host', host).set(auth(tenant.admin));
        expect(res.status).toBe(200);
      }
    });
  });

  describe('ReadOnly admin keys', () => {
    let endpointId: string;
    let inputFieldId: string;
    let outputFieldId: string;
    let keyId: string;

    beforeAll(async () => {
      const admin = auth(tenant.admin);
      const endpoint = await t.http
        .post('/admin/v1/endpoints')
        .set(admin)
        .send({ name: 'Guarded', path: '/api/v1/guarded' });
      endpointId = endpoint.body.data.id;
      const input = await t.http
        .post(`/admin/v1/endpoints/${endpointId}/input-fields`)
        .set(admin)
        .send({ name: 'text', dataType: 'string' });
      inputFieldId = input.body.data.id;
      const output = await t.http
        .post(`/admin/v1/endpoints/${endpointId}/output-fields`)
        .set(admin)
        .send({ name: 'summary', dataType: 'string' });
      outputFieldId = output.body.data.id;
      const key = await t.http.post('/admin/v1/keys').set(admin).send({ name: 'victim', type: 'endpoint' });
      keyId = key.body.data.id;
      expect([endpoint.status, input.status, output.status, key.status]).toEqual([201, 201, 201, 201]);
    });

    async function snapshot() {
      const endpoint = await t.http.get(`/admin/v1/endpoints/${endpointId}`).set(auth(tenant.admin));
      const endpoints = await t.http.get('/admin/v1/endpoints?deleted=true').set(auth(tenant.admin));
      const keys = await t.http.get('/admin/v1/keys').set(auth(tenant.admin));
      const strip = (list: { lastUsedAt?: unknown }[]) => list.map(({ lastUsedAt: _, ...rest }) => rest);
      return { endpoint: endpoint.body.data, deleted: endpoints.body.data, keys: strip(keys.body.data) };
    }

    const WRITES: [string, string, Record<string, unknown>][] = [
      ['POST', '/admin/v1/endpoints', { name: 'New', path: '/api/v1/new' }],
      ['PUT', '/admin/v1/endpoints/{id}', { name: 'Renamed' }],
      ['DELETE', '/admin/v1/endpoints/{id}', {}],
      ['DELETE', '/admin/v1/endpoints/{id}?permanent=true', {}],
      ['POST', '/admin/v1/endpoints/{id}/restore', {}],
      ['POST', '/admin/v1/endpoints/{id}/input-fields', { name: 'other', dataType: 'string' }],
      ['PUT', '/admin/v1/endpoints/{id}/input-fields/{fieldId}', { description: 'changed' }],
      ['DELETE', '/admin/v1/endpoints/{id}/input-fields/{fieldId}', {}],
      ['POST', '/admin/v1/endpoints/{id}/output-fields', { name: 'other', dataType: 'string' }],
      ['PUT', '/admin/v1/endpoints/{id}/output-fields/{fieldId}', { description: 'changed' }],
      ['DELETE', '/admin/v1/endpoints/{id}/output-fields/{fieldId}', {}],
      ['POST', '/admin/v1/endpoints/{id}/datasets', { name: 'sneaky' }],
      ['POST', '/admin/v1/keys', { name: 'sneaky', type: 'admin' }],
      ['PUT', '/admin/v1/keys/{id}', { name: 'renamed' }],
      ['POST', '/admin/v1/keys/{id}/revoke', {}],
    ];

    function concrete(template: string): string {
      const fieldId = template.includes('/input-fields/') ? inputFieldId : outputFieldId;
      const id = template.startsWith('/admin/v1/keys') ? keyId : endpointId;
      return template.replace('{id}', id).replace('{fieldId}', fieldId);
    }

    it('covers every write route of endpoints, fields and keys that the API documents', () => {
      const document = createOpenApiDocument(t.app);
      const documented: string[] = [];
      for (const [path, operations] of Object.entries(document.paths)) {
        if (!/^\/admin\/v1\/(endpoints|keys)(\/|$)/.test(path)) continue;
        for (const method of ['post', 'put', 'patch', 'delete']) {
          if ((operations as Record<string, unknown>)[method])
            documented.push(`${method.toUpperCase()} ${path.replace(/\{fieldId\}/, '{fieldId}')}`);
        }
      }
      // Executing a test run (plain or streamed) is allowed to ReadOnly keys, so it is not a write.
      const runs = ['POST /admin/v1/endpoints/{id}/test', 'POST /admin/v1/endpoints/{id}/test/stream'];
      const writes = documented.filter((route) => !runs.includes(route));
      const covered = new Set(WRITES.map(([method, path]) => `${method} ${path.split('?')[0]}`));
      expect(writes.length).toBeGreaterThanOrEqual(covered.size);
      for (const route of writes) expect(covered).toContain(route);
    });

    it('gets 403 on every write and changes nothing', async () => {
      const before = await snapshot();
      for (const [method, template, body] of WRITES) {
        const res = await t.http[method.toLowerCase() as 'post' | 'put' | 'delete'](concrete(template))
          .set(auth(tenant.readOnly))
          .send(body);
        expect({ route: `${method} ${template}`, status: res.status, body: res.body }).toEqual({
          route: `${method} ${template}`,
          status: 403,
          body: { succeeded: false, messages: ['This admin key is ReadOnly and cannot change resources'], data: null },
        });
      }
      expect(await snapshot()).toEqual(before);
      const rows = await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM endpoints WHERE tenant_id = $1', [tenant.id]);
      expect(rows[0].n).toBe(1);
    });

    it('gets 403 with a Bearer token too', async () => {
      const res = await t.http
        .post('/admin/v1/endpoints')
        .set('Authorization', `Bearer ${tenant.readOnly}`)
        .send({ name: 'X', path: '/api/v1/x' });
      expect(res.status).toBe(403);
    });

    it('reads everything', async () => {
      for (const path of [
        '/admin/v1/endpoints',
        `/admin/v1/endpoints/${endpointId}`,
        '/admin/v1/endpoints?deleted=true',
        '/admin/v1/keys',
        `/admin/v1/keys/${keyId}`,
      ]) {
        const res = await t.http.get(path).set(auth(tenant.readOnly));
        expect({ path, status: res.status, succeeded: res.body.succeeded }).toEqual({
          path,
          status: 200,
          succeeded: true,
        });
      }
      const res = await t.http.get(`/admin/v1/endpoints/${endpointId}`).set(auth(tenant.readOnly));
      expect(res.body.data.inputFields.map((f: { name: string }) => f.name)).toEqual(['text']);
    });
  });
});
