import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { KeysService } from '../../src/modules/keys/keys.service';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant } from '../support/seed';
import { createTestApp } from '../support/test-app';
import { UUID } from '../support/envelope';

const KEY_FIELDS = [
  'id',
  'name',
  'type',
  'environment',
  'permission',
  'last4',
  'status',
  'createdAt',
  'lastUsedAt',
  'endpointIds',
  'rateLimitPerMinute',
  'rateLimitPerHour',
  'rateLimitPerDay',
  'defaultTags',
].sort();

describe('API keys admin API', () => {
  const { t, tenant, other } = useTestApp({ other: true });
  const db = () => t.app.get(DataSource);

  const create = (body: Record<string, unknown>, key = tenant.admin) =>
    t.http.post('/admin/v1/keys').set(auth(key)).send(body);
  const row = async (id: string) =>
    (await db().query('SELECT * FROM api_keys WHERE id = $1', [id]))[0] as Record<string, unknown>;

  describe('create', () => {
    it.each([
      [{ type: 'endpoint' }, /^ep_live_[A-Za-z0-9]{32,}$/, { environment: 'live', permission: null }],
      [
        { type: 'endpoint', environment: 'test' },
        /^ep_test_[A-Za-z0-9]{32,}$/,
        { environment: 'test', permission: null },
      ],
      [{ type: 'admin' }, /^epa_[A-Za-z0-9]{32,}$/, { environment: null, permission: 'ReadWrite' }],
      [
        { type: 'admin', permission: 'ReadOnly' },
        /^epa_[A-Za-z0-9]{32,}$/,
        { environment: null, permission: 'ReadOnly' },
      ],
    ])('creates %j with its value shown once', async (body, pattern, levels) => {
      const res = await create({ name: 'my key', ...body });
      expect(res.status).toBe(201);
      expect(res.body.succeeded).toBe(true);
      expect(res.body.messages).toEqual([]);
      const data = res.body.data;
      expect(data.key).toMatch(pattern);
      expect(Object.keys(data).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
      expect(data).toMatchObject({
        id: expect.stringMatching(UUID),
        name: 'my key',
        type: body.type,
        ...levels,
        last4: data.key.slice(-4),
        status: 'Active',
        lastUsedAt: null,
        endpointIds: null,
        rateLimitPerMinute: 60,
        rateLimitPerHour: 1000,
        rateLimitPerDay: 10000,
      });
      expect(new Date(data.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

      // Shown once: neither the list nor the record carries it again.
      const got = await t.http.get(`/admin/v1/keys/${data.id}`).set(auth(tenant.admin));
      expect(got.status).toBe(200);
      expect(Object.keys(got.body.data).sort()).toEqual(KEY_FIELDS);
      const { key: _, ...record } = data;
      expect(got.body.data).toEqual(record);
      const list = await t.http.get('/admin/v1/keys').set(auth(tenant.admin));
      expect(list.body.data).toContainEqual(record);
      expect(JSON.stringify(list.body)).not.toContain(data.key);
      expect(JSON.stringify(got.body)).not.toContain(data.key);
    });

    it('stores only the SHA-256 hash and the last four characters', async () => {
      const res = await create({ name: 'hashed', type: 'endpoint' });
      const key: string = res.body.data.key;
      const stored = await row(res.body.data.id);
      expect(stored.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
      expect(stored.last4).toBe(key.slice(-4));
      expect(stored.tenant_id).toBe(tenant.id);
      const text = JSON.stringify(stored);
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(8)); // not even the random part without its prefix
    });

    it('stores per-key limit overrides and an endpoint restriction', async () => {
      const endpoint = await t.http
        .post('/admin/v1/endpoints')
        .set(auth(tenant.admin))
        .send({ name: 'E', path: '/api/v1/keys-e' });
      const res = await create({
        name: 'limited',
        type: 'endpoint',
        endpointIds: [endpoint.body.data.id],
        rateLimitPerMinute: 5,
        rateLimitPerHour: 50,
        rateLimitPerDay: 500,
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        endpointIds: [endpoint.body.data.id],
        rateLimitPerMinute: 5,
        rateLimitPerHour: 50,
        rateLimitPerDay: 500,
      });
      const stored = await row(res.body.data.id);
      expect(stored).toMatchObject({
        endpoint_ids: [endpoint.body.data.id],
        rate_limit_per_minute: 5,
        rate_limit_per_hour: 50,
        rate_limit_per_day: 500,
      });
    });

    it("lists only the tenant's keys, oldest first", async () => {
      const list = await t.http.get('/admin/v1/keys').set(auth(other.admin));
      expect(list.status).toBe(200);
      expect(list.body.data.map((k: { name: string }) => k.name)).toEqual(['admin', 'reader', 'caller']);
    });
  });

  describe('validation', () => {
    it.each([
      [{ type: 'endpoint' }, ['name must be a string']],
      [{ name: '', type: 'endpoint' }, ['name must be longer than or equal to 1 characters']],
      [{ name: 'k' }, ['type must be one of the following values: endpoint, admin']],
      [{ name: 'k', type: 'root' }, ['type must be one of the following values: endpoint, admin']],
      [
        { name: 'k', type: 'endpoint', environment: 'prod' },
        ['environment must be one of the following values: live, test'],
      ],
      [
        { name: 'k', type: 'admin', permission: 'Owner' },
        ['permission must be one of the following values: ReadWrite, ReadOnly'],
      ],
      [{ name: 'k', type: 'endpoint', rateLimitPerMinute: 0 }, ['rateLimitPerMinute must not be less than 1']],
      [{ name: 'k', type: 'endpoint', rateLimitPerHour: 1.5 }, ['rateLimitPerHour must be an integer number']],
      [{ name: 'k', type: 'endpoint', endpointIds: ['nope'] }, ['each value in endpointIds must be a UUID']],
      [{ name: 'k', type: 'endpoint', secret: 'x' }, ['property secret should not exist']],
      [
        { name: 'k', type: 'endpoint', environment: null },
        ['environment must be one of the following values: live, test'],
      ],
    ])('rejects %j', async (body, messages) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ succeeded: false, messages, data: null });
    });

    it('rejects environment on admin keys and permission on endpoint keys', async () => {
      const admin = await create({ name: 'k', type: 'admin', environment: 'test' });
      expect(admin.status).toBe(400);
      expect(admin.body.messages).toEqual(['environment applies to endpoint keys only']);
      const endpoint = await create({ name: 'k', type: 'endpoint', permission: 'ReadOnly' });
      expect(endpoint.status).toBe(400);
      expect(endpoint.body.messages).toEqual(['permission applies to admin keys only']);
      const restricted = await create({ name: 'k', type: 'admin', endpointIds: [] });
      expect(restricted.status).toBe(400);
      expect(restricted.body.messages).toEqual(['endpointIds applies to endpoint keys only']);
    });

    it("rejects unknown endpoint ids, another tenant's and soft-deleted ones, naming endpointIds", async () => {
      const theirs = await t.http
        .post('/admin/v1/endpoints')
        .set(auth(other.admin))
        .send({ name: 'Theirs', path: '/api/v1/theirs' });
      const gone = await t.http
        .post('/admin/v1/endpoints')
        .set(auth(tenant.admin))
        .send({ name: 'Gone', path: '/api/v1/gone' });
      await t.http.delete(`/admin/v1/endpoints/${gone.body.data.id}`).set(auth(tenant.admin));
      for (const id of ['00000000-0000-4000-8000-000000000000', theirs.body.data.id, gone.body.data.id]) {
        const res = await create({ name: 'k', type: 'endpoint', endpointIds: [id] });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          succeeded: false,
          messages: [`endpointIds contains unknown endpoints: ${id}`],
          data: null,
        });
      }
      const names = (await t.http.get('/admin/v1/keys').set(auth(tenant.admin))).body.data.map(
        (k: { name: string }) => k.name,
      );
      expect(names).not.toContain('k');
    });
  });

  describe('update', () => {
    it('changes the name, the restriction and the limits; null restores the default limit', async () => {
      const created = await create({ name: 'before', type: 'endpoint', rateLimitPerMinute: 7 });
      const endpoint = await t.http
        .post('/admin/v1/endpoints')
        .set(auth(tenant.admin))
        .send({ name: 'U', path: '/api/v1/keys-u' });
      const id = created.body.data.id;
      const res = await t.http
        .put(`/admin/v1/keys/${id}`)
        .set(auth(tenant.admin))
        .send({ name: 'after', endpointIds: [endpoint.body.data.id], rateLimitPerMinute: null, rateLimitPerDay: 99 });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id,
        name: 'after',
        endpointIds: [endpoint.body.data.id],
        rateLimitPerMinute: 60,
        rateLimitPerHour: 1000,
        rateLimitPerDay: 99,
        type: 'endpoint',
        environment: 'live',
        status: 'Active',
      });
      expect(await row(id)).toMatchObject({
        name: 'after',
        rate_limit_per_minute: null,
        rate_limit_per_day: 99,
        endpoint_ids: [endpoint.body.data.id],
      });
      const got = await t.http.get(`/admin/v1/keys/${id}`).set(auth(tenant.admin));
      expect(got.body.data).toEqual(res.body.data);

      const cleared = await t.http.put(`/admin/v1/keys/${id}`).set(auth(tenant.admin)).send({ endpointIds: null });
      expect(cleared.body.data.endpointIds).toBeNull();
    });

    it('rejects a null name, fixed properties and unknown endpoint ids', async () => {
      const created = await create({ name: 'fixed', type: 'endpoint' });
      const id = created.body.data.id;
      const cases: [Record<string, unknown>, string[]][] = [
        [{ name: null }, ['name must be a string']],
        [{ type: 'admin' }, ['property type should not exist']],
        [{ permission: 'ReadOnly' }, ['property permission should not exist']],
        [
          { endpointIds: ['00000000-0000-4000-8000-000000000001'] },
          ['endpointIds contains unknown endpoints: 00000000-0000-4000-8000-000000000001'],
        ],
      ];
      for (const [body, messages] of cases) {
        const res = await t.http.put(`/admin/v1/keys/${id}`).set(auth(tenant.admin)).send(body);
        expect({ body, status: res.status, response: res.body }).toEqual({
          body,
          status: 400,
          response: { succeeded: false, messages, data: null },
        });
      }
      expect(await row(id)).toMatchObject({ name: 'fixed', type: 'endpoint', endpoint_ids: null });
    });
  });

  describe('revoke', () => {
    it('revokes, keeps the record and refuses the key afterwards', async () => {
      const created = await create({ name: 'to revoke', type: 'endpoint' });
      const id = created.body.data.id;
      const res = await t.http.post(`/admin/v1/keys/${id}/revoke`).set(auth(tenant.admin));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        succeeded: true,
        messages: [],
        data: expect.objectContaining({ id, status: 'Revoked' }),
      });
      const stored = await row(id);
      expect(stored.status).toBe('Revoked');
      expect(stored.revoked_at).toBeInstanceOf(Date);
      const listed = (await t.http.get('/admin/v1/keys').set(auth(tenant.admin))).body.data.find(
        (k: { id: string }) => k.id === id,
      );
      expect(listed.status).toBe('Revoked');
      expect(await t.app.get(KeysService).authenticate(created.body.data.key)).toBeNull();
      // Revoking again changes nothing.
      const again = await t.http.post(`/admin/v1/keys/${id}/revoke`).set(auth(tenant.admin));
      expect(again.status).toBe(200);
      expect((await row(id)).revoked_at).toEqual(stored.revoked_at);
    });
  });

  describe('lastUsedAt', () => {
    it('is coalesced in memory, shown at once, and lands in the database on flush', async () => {
      const created = await create({ name: 'used', type: 'admin', permission: 'ReadOnly' });
      const { id, key } = created.body.data;
      const before = Date.now();
      for (let i = 0; i < 3; i++) expect((await t.http.get('/admin/v1/endpoints').set(auth(key))).status).toBe(200);
      expect((await row(id)).last_used_at).toBeNull(); // no write per request
      const shown = await t.http.get(`/admin/v1/keys/${id}`).set(auth(tenant.admin));
      expect(new Date(shown.body.data.lastUsedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);

      await t.app.get(KeysService).flushLastUsed();
      const stored = (await row(id)).last_used_at as Date;
      expect(stored).toBeInstanceOf(Date);
      expect(stored.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(stored.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      const reread = await t.http.get(`/admin/v1/keys/${id}`).set(auth(tenant.admin));
      expect(new Date(reread.body.data.lastUsedAt).getTime()).toBeGreaterThanOrEqual(stored.getTime());
    });

    it('is flushed when the application closes', async () => {
      const second = await createTestApp();
      try {
        const seeded = await seedTenant(second.app);
        expect((await second.http.get('/admin/v1/keys').set(auth(seeded.readOnly))).status).toBe(200);
        const dataSource = second.app.get(DataSource);
        const id = (await second.http.get('/admin/v1/keys').set(auth(seeded.admin))).body.data.find(
          (k: { name: string }) => k.name === 'reader',
        ).id;
        expect(
          (await dataSource.query('SELECT last_used_at FROM api_keys WHERE id = $1', [id]))[0].last_used_at,
        ).toBeNull();
        // Closing flushes before the database goes away: read the row at the moment it is being closed.
        let flushed: unknown;
        const destroy = dataSource.destroy.bind(dataSource);
        dataSource.destroy = async () => {
          flushed = (await dataSource.query('SELECT last_used_at FROM api_keys WHERE id = $1', [id]))[0].last_used_at;
          return destroy();
        };
        await second.close();
        expect(flushed).toBeInstanceOf(Date);
      } finally {
        await second.close().catch(() => undefined);
      }
    });
  });

  describe('tenant isolation', () => {
    it("answers 404 for another tenant's key on every route and changes nothing", async () => {
      const theirs = await create({ name: 'theirs', type: 'endpoint' }, other.admin);
      const id = theirs.body.data.id;
      const responses = [
        await t.http.get(`/admin/v1/keys/${id}`).set(auth(tenant.admin)),
        await t.http.put(`/admin/v1/keys/${id}`).set(auth(tenant.admin)).send({ name: 'hijacked' }),
        await t.http.post(`/admin/v1/keys/${id}/revoke`).set(auth(tenant.admin)),
      ];
      for (const res of responses) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ succeeded: false, messages: [`API key ${id} not found`], data: null });
      }
      expect(await row(id)).toMatchObject({ name: 'theirs', status: 'Active' });
      const list = await t.http.get('/admin/v1/keys').set(auth(tenant.admin));
      expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(id);
    });

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      const bad = await t.http.get('/admin/v1/keys/123').set(auth(tenant.admin));
      expect(bad.status).toBe(400);
      expect(bad.body.messages).toEqual(['id must be a UUID']);
      const unknown = await t.http.get('/admin/v1/keys/00000000-0000-4000-8000-000000000000').set(auth(tenant.admin));
      expect(unknown.status).toBe(404);
    });
  });
});
