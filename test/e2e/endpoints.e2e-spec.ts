import { DataSource } from 'typeorm';
import { fromDatabaseError } from '../../src/common/errors/database-errors';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant, SeededTenant } from '../support/seed';
import { MISSING, UUID, expectFailure } from '../support/envelope';

const ENDPOINT_FIELDS = [
  'id',
  'name',
  'path',
  'description',
  'visibility',
  'category',
  'cacheEnabled',
  'cacheDurationSeconds',
  'rateLimitPerMinute',
  'rateLimitPerHour',
  'rateLimitPerDay',
  'timeoutSeconds',
  'defaultPromptId',
  'trafficSplit',
  'promotionGate',
  'inputFields',
  'outputFields',
  'createdAt',
  'updatedAt',
  'deletedAt',
].sort();

describe('endpoints admin API', () => {
  const { t, tenant, other } = useTestApp({ other: true });
  const db = () => t.app.get(DataSource);
  let counter = 0;

  const admin = () => auth(tenant.admin);
  const uniquePath = (stem = 'ep') => `/api/v1/${stem}-${++counter}`;
  const create = (body: Record<string, unknown>, key = tenant.admin) =>
    t.http.post('/admin/v1/endpoints').set(auth(key)).send(body);
  const row = async (id: string) =>
    (await db().query('SELECT * FROM endpoints WHERE id = $1', [id]))[0] as Record<string, unknown> | undefined;

  describe('create', () => {
    it('applies every documented default and stores them', async () => {
      const path = uniquePath('defaults');
      const res = await create({ name: 'Summarize', path });
      expect(res.status).toBe(201);
      expect(res.body.succeeded).toBe(true);
      expect(res.body.messages).toEqual([]);
      const data = res.body.data;
      expect(Object.keys(data).sort()).toEqual(ENDPOINT_FIELDS);
      expect(data).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Summarize',
        path,
        description: '',
        visibility: 'Public',
        category: null,
        cacheEnabled: false,
        cacheDurationSeconds: 300,
        rateLimitPerMinute: null,
        rateLimitPerHour: null,
        rateLimitPerDay: null,
        timeoutSeconds: 60,
        defaultPromptId: null,
        trafficSplit: null,
        promotionGate: null,
        inputFields: [],
        outputFields: [],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        deletedAt: null,
      });
      expect(await row(data.id)).toMatchObject({
        tenant_id: tenant.id,
        name: 'Summarize',
        path,
        description: '',
        visibility: 'Public',
        category: null,
        cache_enabled: false,
        cache_duration_seconds: 300,
        rate_limit_per_minute: null,
        timeout_seconds: 60,
        default_prompt_id: null,
        deleted_at: null,
      });
      const got = await t.http.get(`/admin/v1/endpoints/${data.id}`).set(admin());
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ succeeded: true, messages: [], data });
    });

    it('takes every field', async () => {
      const body = {
        name: 'Full',
        path: uniquePath('full'),
        description: 'All the settings',
        visibility: 'Private',
        category: 'Support',
        cacheEnabled: true,
        cacheDurationSeconds: 2592000,
        rateLimitPerMinute: 10,
        rateLimitPerHour: 100,
        rateLimitPerDay: 1000,
        timeoutSeconds: 600,
      };
      const res = await create(body);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject(body);
      const got = await t.http.get(`/admin/v1/endpoints/${res.body.data.id}`).set(admin());
      expect(got.body.data).toMatchObject(body);
      expect(await row(res.body.data.id)).toMatchObject({
        visibility: 'Private',
        category: 'Support',
        cache_enabled: true,
        cache_duration_seconds: 2592000,
        rate_limit_per_day: 1000,
        timeout_seconds: 600,
      });
    });

    it.each([
      ['/api/v1/a', true],
      ['/api/v1/a-b_c/d-9', true],
      ['/api/v1/0', true],
      ['/api/v2/a', false],
      ['/api/v1/', false],
      ['/api/v1/-a', false],
      ['/api/v1/A', false],
      ['/api/v1/a b', false],
      ['api/v1/a', false],
      ['/api/v1/a?x=1', false],
    ])('path %s is accepted: %s', async (path, accepted) => {
      await db().query(
        `UPDATE endpoints SET deleted_at = now() WHERE tenant_id = $1 AND path = $2 AND deleted_at IS NULL`,
        [tenant.id, path],
      );
      const res = await create({ name: 'P', path });
      if (accepted) expect(res.status).toBe(201);
      else expectFailure(res, 400, ['path must match /api/v1/<slug> (lower-case letters, digits, -, _ and /)']);
    });

    it.each([
      [{ path: '/api/v1/x' }, ['name must be a string']],
      [{ name: 'x' }, ['path must be a string']],
      [{ name: '', path: '/api/v1/x' }, ['name must be longer than or equal to 1 characters']],
      [{ name: 5, path: 7 }, ['name must be a string', 'path must be a string']],
      [
        { name: 'x', path: '/api/v1/x', visibility: 'Internal' },
        ['visibility must be one of the following values: Public, Private'],
      ],
      [
        { name: 'x', path: '/api/v1/x', visibility: null },
        ['visibility must be one of the following values: Public, Private'],
      ],
      [{ name: 'x', path: '/api/v1/x', description: null }, ['description must be a string']],
      [{ name: 'x', path: '/api/v1/x', cacheEnabled: 'yes' }, ['cacheEnabled must be a boolean value']],
      [{ name: 'x', path: '/api/v1/x', cacheDurationSeconds: 0 }, ['cacheDurationSeconds must not be less than 1']],
      [
        { name: 'x', path: '/api/v1/x', cacheDurationSeconds: 2592001 },
        ['cacheDurationSeconds must not be greater than 2592000'],
      ],
      [{ name: 'x', path: '/api/v1/x', timeoutSeconds: 0 }, ['timeoutSeconds must not be less than 1']],
      [{ name: 'x', path: '/api/v1/x', timeoutSeconds: 601 }, ['timeoutSeconds must not be greater than 600']],
      [{ name: 'x', path: '/api/v1/x', timeoutSeconds: 1.5 }, ['timeoutSeconds must be an integer number']],
      [{ name: 'x', path: '/api/v1/x', rateLimitPerMinute: 0 }, ['rateLimitPerMinute must not be less than 1']],
      [{ name: 'x', path: '/api/v1/x', rateLimitPerHour: '10' }, ['rateLimitPerHour must be an integer number']],
      [{ name: 'x', path: '/api/v1/x', defaultPromptId: MISSING }, ['property defaultPromptId should not exist']],
      [{ name: 'x', path: '/api/v1/x', inputFields: [] }, ['property inputFields should not exist']],
      [
        { name: 'x', path: '/api/v1/x', id: MISSING, color: 'red' },
        ['property id should not exist', 'property color should not exist'],
      ],
    ])('rejects %j with one message per problem', async (body, messages) => {
      const before = (await db().query('SELECT count(*)::int AS n FROM endpoints WHERE tenant_id = $1', [tenant.id]))[0]
        .n;
      expectFailure(await create(body), 400, messages);
      expect(
        (await db().query('SELECT count(*)::int AS n FROM endpoints WHERE tenant_id = $1', [tenant.id]))[0].n,
      ).toBe(before);
    });

    it("answers 409 for a path used by another of the tenant's endpoints, but not by another tenant's", async () => {
      const path = uniquePath('taken');
      expect((await create({ name: 'First', path })).status).toBe(201);
      expectFailure(await create({ name: 'Second', path }), 409, [`path ${path} is already used by another endpoint`]);
      expect((await create({ name: 'Theirs', path }, other.admin)).status).toBe(201);
    });

    it('gives exactly one 201 when the same path is created concurrently; the rest are 409', async () => {
      const path = uniquePath('race');
      const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => create({ name: `Racer ${i}`, path })));
      const statuses = responses.map((res) => res.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
      for (const res of responses.filter((r) => r.status === 409)) {
        expect(res.body).toEqual({
          succeeded: false,
          messages: [expect.stringMatching(/path .*already (used|exists)/)],
          data: null,
        });
      }
      const rows = await db().query('SELECT id FROM endpoints WHERE tenant_id = $1 AND path = $2', [tenant.id, path]);
      expect(rows).toHaveLength(1);
    });

    it('maps a unique violation that slips past the check to 409, not 500', async () => {
      const path = uniquePath('direct');
      expect((await create({ name: 'A', path })).status).toBe(201);
      // Bypass the service's check to hit the database's partial unique index directly.
      const error = await db()
        .query(`INSERT INTO endpoints (tenant_id, name, path) VALUES ($1, 'B', $2)`, [tenant.id, path])
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      const mapped = fromDatabaseError(error);
      expect(mapped?.code).toBe('conflict');
      expect(mapped?.message).toBe('path already exists');
    });
  });

  describe('list', () => {
    let listed: SeededTenant;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      listed = await seedTenant(t.app);
      for (const [name, visibility] of [
        ['Alpha summarizer', 'Public'],
        ['Beta translator', 'Private'],
        ['alpha_50%', 'Private'],
        ['Gamma', 'Public'],
      ]) {
        const res = await create({ name, path: uniquePath('list'), visibility }, listed.admin);
        ids[name] = res.body.data.id;
      }
      await t.http.delete(`/admin/v1/endpoints/${ids.Gamma}`).set(auth(listed.admin));
    });

    const names = async (query: string) => {
      const res = await t.http.get(`/admin/v1/endpoints${query}`).set(auth(listed.admin));
      expect(res.status).toBe(200);
      expect(res.body.succeeded).toBe(true);
      return res.body.data.map((e: { name: string }) => e.name);
    };

    it("lists the tenant's endpoints that are not deleted, oldest first", async () => {
      expect(await names('')).toEqual(['Alpha summarizer', 'Beta translator', 'alpha_50%']);
    });

    it('filters by name, case-insensitively, with LIKE wildcards taken literally', async () => {
      expect(await names('?search=ALPHA')).toEqual(['Alpha summarizer', 'alpha_50%']);
      expect(await names('?search=_50%25')).toEqual(['alpha_50%']);
      expect(await names('?search=%25')).toEqual(['alpha_50%']);
      expect(await names('?search=nothing')).toEqual([]);
    });

    it('filters by visibility, combined with search', async () => {
      expect(await names('?visibility=Private')).toEqual(['Beta translator', 'alpha_50%']);
      expect(await names('?visibility=Public')).toEqual(['Alpha summarizer']);
      expect(await names('?visibility=Private&search=alpha')).toEqual(['alpha_50%']);
    });

    it('lists the soft-deleted ones with deleted=true', async () => {
      expect(await names('?deleted=true')).toEqual(['Gamma']);
      expect(await names('?deleted=false')).toEqual(['Alpha summarizer', 'Beta translator', 'alpha_50%']);
    });

    it('includes the fields of each endpoint', async () => {
      await t.http
        .post(`/admin/v1/endpoints/${ids['Beta translator']}/input-fields`)
        .set(auth(listed.admin))
        .send({ name: 'text', dataType: 'string' });
      const res = await t.http.get('/admin/v1/endpoints').set(auth(listed.admin));
      const beta = res.body.data.find((e: { id: string }) => e.id === ids['Beta translator']);
      expect(beta.inputFields.map((f: { name: string }) => f.name)).toEqual(['text']);
      expect(res.body.data.find((e: { id: string }) => e.id === ids['Alpha summarizer']).inputFields).toEqual([]);
    });

    it.each([
      ['?visibility=Internal', ['visibility must be one of the following values: Public, Private']],
      ['?deleted=maybe', ['deleted must be true or false']],
      ['?color=red', ['property color should not exist']],
    ])('rejects %s', async (query, messages) => {
      expectFailure(await t.http.get(`/admin/v1/endpoints${query}`).set(auth(listed.admin)), 400, messages);
    });

    it("never lists another tenant's endpoints", async () => {
      const res = await t.http.get('/admin/v1/endpoints?search=alpha').set(auth(other.admin));
      expect(res.body.data.map((e: { id: string }) => e.id)).not.toContain(ids['Alpha summarizer']);
    });
  });

  describe('update', () => {
    it('changes any subset and leaves the rest', async () => {
      const created = await create({
        name: 'Before',
        path: uniquePath('upd'),
        description: 'keep me',
        rateLimitPerMinute: 5,
        category: 'A',
      });
      const id = created.body.data.id;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const path = uniquePath('upd-new');
      const res = await t.http.put(`/admin/v1/endpoints/${id}`).set(admin()).send({
        name: 'After',
        path,
        visibility: 'Private',
        cacheEnabled: true,
        timeoutSeconds: 10,
        rateLimitPerMinute: null,
        category: null,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id,
        name: 'After',
        path,
        description: 'keep me',
        visibility: 'Private',
        cacheEnabled: true,
        cacheDurationSeconds: 300,
        timeoutSeconds: 10,
        rateLimitPerMinute: null,
        category: null,
      });
      expect(new Date(res.body.data.updatedAt).getTime()).toBeGreaterThan(
        new Date(created.body.data.updatedAt).getTime(),
      );
      expect(res.body.data.createdAt).toBe(created.body.data.createdAt);
      const got = await t.http.get(`/admin/v1/endpoints/${id}`).set(admin());
      expect(got.body.data).toEqual(res.body.data);
      expect(await row(id)).toMatchObject({
        name: 'After',
        path,
        description: 'keep me',
        rate_limit_per_minute: null,
        category: null,
      });
    });

    it('accepts an empty update and its own path', async () => {
      const created = await create({ name: 'Same', path: uniquePath('same') });
      const id = created.body.data.id;
      expect((await t.http.put(`/admin/v1/endpoints/${id}`).set(admin()).send({})).status).toBe(200);
      const res = await t.http.put(`/admin/v1/endpoints/${id}`).set(admin()).send({ path: created.body.data.path });
      expect(res.status).toBe(200);
    });

    it('answers 409 for a path taken by another endpoint and 400 for invalid values', async () => {
      const taken = await create({ name: 'Taken', path: uniquePath('upd-taken') });
      const mine = await create({ name: 'Mine', path: uniquePath('upd-mine') });
      const id = mine.body.data.id;
      expectFailure(
        await t.http.put(`/admin/v1/endpoints/${id}`).set(admin()).send({ path: taken.body.data.path }),
        409,
        [`path ${taken.body.data.path} is already used by another endpoint`],
      );
      expectFailure(await t.http.put(`/admin/v1/endpoints/${id}`).set(admin()).send({ name: null }), 400, [
        'name must be a string',
      ]);
      expectFailure(
        await t.http.put(`/admin/v1/endpoints/${id}`).set(admin()).send({ timeoutSeconds: 0, visibility: 'x' }),
        400,
        ['visibility must be one of the following values: Public, Private', 'timeoutSeconds must not be less than 1'],
      );
      expectFailure(await t.http.put(`/admin/v1/endpoints/${id}`).set(admin()).send({ cacheEnabled: null }), 400, [
        'cacheEnabled must be a boolean value',
      ]);
      expect(await row(id)).toMatchObject({ name: 'Mine', path: mine.body.data.path, timeout_seconds: 60 });
    });
  });

  describe('soft delete, restore, permanent delete', () => {
    it('soft-deletes: 404 on get, not listed, listed with deleted=true, path freed', async () => {
      const path = uniquePath('soft');
      const created = await create({ name: 'Soft', path });
      const id = created.body.data.id;
      const res = await t.http.delete(`/admin/v1/endpoints/${id}`).set(admin());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ succeeded: true, messages: [], data: null });
      expect((await row(id))?.deleted_at).toBeInstanceOf(Date);

      expectFailure(await t.http.get(`/admin/v1/endpoints/${id}`).set(admin()), 404, [`Endpoint ${id} not found`]);
      expect(
        (await t.http.get('/admin/v1/endpoints').set(admin())).body.data.map((e: { id: string }) => e.id),
      ).not.toContain(id);
      const deleted = await t.http.get('/admin/v1/endpoints?deleted=true').set(admin());
      expect(deleted.body.data.find((e: { id: string }) => e.id === id)).toMatchObject({
        id,
        deletedAt: expect.any(String),
      });
      // Nothing else works on a deleted endpoint.
      expectFailure(await t.http.put(`/admin/v1/endpoints/${id}`).set(admin()).send({ name: 'x' }), 404, [
        `Endpoint ${id} not found`,
      ]);
      expectFailure(await t.http.delete(`/admin/v1/endpoints/${id}`).set(admin()), 404, [`Endpoint ${id} not found`]);
      expectFailure(
        await t.http
          .post(`/admin/v1/endpoints/${id}/input-fields`)
          .set(admin())
          .send({ name: 'a', dataType: 'string' }),
        404,
        [`Endpoint ${id} not found`],
      );

      // The path is free for a new endpoint.
      const reused = await create({ name: 'Reuse', path });
      expect(reused.status).toBe(201);
    });

    it('restores a deleted endpoint with its fields', async () => {
      const created = await create({ name: 'Back', path: uniquePath('restore') });
      const id = created.body.data.id;
      await t.http.post(`/admin/v1/endpoints/${id}/input-fields`).set(admin()).send({ name: 'q', dataType: 'string' });
      await t.http.delete(`/admin/v1/endpoints/${id}`).set(admin());
      const res = await t.http.post(`/admin/v1/endpoints/${id}/restore`).set(admin());
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id,
        name: 'Back',
        deletedAt: null,
        inputFields: [expect.objectContaining({ name: 'q' })],
      });
      expect((await row(id))?.deleted_at).toBeNull();
      expect((await t.http.get(`/admin/v1/endpoints/${id}`).set(admin())).status).toBe(200);
    });

    it('answers 409 when restoring an endpoint that is not deleted, or whose path was taken meanwhile', async () => {
      const path = uniquePath('restore-taken');
      const created = await create({ name: 'Old', path });
      const id = created.body.data.id;
      expectFailure(await t.http.post(`/admin/v1/endpoints/${id}/restore`).set(admin()), 409, [
        `Endpoint ${id} is not deleted`,
      ]);
      await t.http.delete(`/admin/v1/endpoints/${id}`).set(admin());
      expect((await create({ name: 'New', path })).status).toBe(201);
      expectFailure(await t.http.post(`/admin/v1/endpoints/${id}/restore`).set(admin()), 409, [
        `path ${path} is already used by another endpoint`,
      ]);
      expect((await row(id))?.deleted_at).toBeInstanceOf(Date);
    });

    it('deletes permanently, with its fields, whether soft-deleted first or not', async () => {
      for (const softFirst of [false, true]) {
        const created = await create({ name: 'Gone', path: uniquePath('perm') });
        const id = created.body.data.id;
        await t.http
          .post(`/admin/v1/endpoints/${id}/input-fields`)
          .set(admin())
          .send({ name: 'a', dataType: 'string' });
        await t.http
          .post(`/admin/v1/endpoints/${id}/output-fields`)
          .set(admin())
          .send({ name: 'b', dataType: 'string' });
        if (softFirst) await t.http.delete(`/admin/v1/endpoints/${id}`).set(admin());
        const res = await t.http.delete(`/admin/v1/endpoints/${id}?permanent=true`).set(admin());
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ succeeded: true, messages: [], data: null });
        expect(await row(id)).toBeUndefined();
        expect(await db().query('SELECT id FROM input_fields WHERE endpoint_id = $1', [id])).toEqual([]);
        expect(await db().query('SELECT id FROM output_fields WHERE endpoint_id = $1', [id])).toEqual([]);
        expectFailure(await t.http.post(`/admin/v1/endpoints/${id}/restore`).set(admin()), 404, [
          `Endpoint ${id} not found`,
        ]);
        expect(
          (await t.http.get('/admin/v1/endpoints?deleted=true').set(admin())).body.data.map(
            (e: { id: string }) => e.id,
          ),
        ).not.toContain(id);
      }
      expectFailure(await t.http.delete(`/admin/v1/endpoints/${MISSING}?permanent=true`).set(admin()), 404, [
        `Endpoint ${MISSING} not found`,
      ]);
      expectFailure(await t.http.delete(`/admin/v1/endpoints/${MISSING}?permanent=maybe`).set(admin()), 400, [
        'permanent must be true or false',
      ]);
    });
  });

  describe('tenant isolation and ids', () => {
    it("answers 404 for another tenant's endpoint on every route and changes nothing", async () => {
      const theirs = await create({ name: 'Theirs', path: uniquePath('iso') }, other.admin);
      const id = theirs.body.data.id;
      const field = await t.http
        .post(`/admin/v1/endpoints/${id}/input-fields`)
        .set(auth(other.admin))
        .send({ name: 'a', dataType: 'string' });
      const fieldId = field.body.data.id;
      const calls = [
        t.http.get(`/admin/v1/endpoints/${id}`),
        t.http.put(`/admin/v1/endpoints/${id}`).send({ name: 'Mine now' }),
        t.http.delete(`/admin/v1/endpoints/${id}`),
        t.http.delete(`/admin/v1/endpoints/${id}?permanent=true`),
        t.http.post(`/admin/v1/endpoints/${id}/restore`),
        t.http.post(`/admin/v1/endpoints/${id}/input-fields`).send({ name: 'b', dataType: 'string' }),
        t.http.put(`/admin/v1/endpoints/${id}/input-fields/${fieldId}`).send({ description: 'x' }),
        t.http.delete(`/admin/v1/endpoints/${id}/input-fields/${fieldId}`),
        t.http.post(`/admin/v1/endpoints/${id}/output-fields`).send({ name: 'b', dataType: 'string' }),
      ];
      for (const call of calls) {
        const res = await call.set(admin());
        expectFailure(res, 404, [`Endpoint ${id} not found`]);
      }
      expect(await row(id)).toMatchObject({ name: 'Theirs', deleted_at: null });
      const stillTheirs = await t.http.get(`/admin/v1/endpoints/${id}`).set(auth(other.admin));
      expect(stillTheirs.body.data.inputFields).toEqual([
        expect.objectContaining({ id: fieldId, name: 'a', description: '' }),
      ]);
    });

    it('answers 404 for an unknown id and 400 naming the parameter for a malformed one', async () => {
      expectFailure(await t.http.get(`/admin/v1/endpoints/${MISSING}`).set(admin()), 404, [
        `Endpoint ${MISSING} not found`,
      ]);
      expectFailure(await t.http.get('/admin/v1/endpoints/42').set(admin()), 400, ['id must be a UUID']);
      expectFailure(await t.http.put('/admin/v1/endpoints/42').set(admin()).send({}), 400, ['id must be a UUID']);
      expectFailure(await t.http.delete(`/admin/v1/endpoints/${MISSING}/input-fields/nope`).set(admin()), 400, [
        'fieldId must be a UUID',
      ]);
    });
  });
});
