import { expectFailure, MISSING, UUID } from '../support/envelope';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant } from '../support/seed';

/**
 * Feedback scores: the score configs a tenant declares, scores recorded on executions through the execution API
 * (`POST /api/v1/_scores`), admin annotations and MCP, shown in log detail and filtered by in GET /logs.
 */
describe('feedback scores', () => {
  const { t, tenant, other } = useTestApp({ other: true });

  const configs = (key = tenant.admin) => ({
    create: (body: object) => t.http.post('/admin/v1/score-configs').set(auth(key)).send(body),
    list: () => t.http.get('/admin/v1/score-configs').set(auth(key)),
    get: (id: string) => t.http.get(`/admin/v1/score-configs/${id}`).set(auth(key)),
    update: (id: string, body: object) => t.http.put(`/admin/v1/score-configs/${id}`).set(auth(key)).send(body),
    remove: (id: string) => t.http.delete(`/admin/v1/score-configs/${id}`).set(auth(key)),
  });

  describe('score configs', () => {
    it('creates, reads, lists, changes and deletes a config', async () => {
      const created = await configs().create({
        name: 'helpful',
        dataType: 'boolean',
        description: 'Was the answer helpful?',
      });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.stringMatching(UUID),
        name: 'helpful',
        dataType: 'boolean',
        minimum: null,
        maximum: null,
        categories: null,
        description: 'Was the answer helpful?',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const id = created.body.data.id;
      expect((await configs().get(id)).body.data).toEqual(created.body.data);
      expect((await configs(tenant.readOnly).list()).body.data.map((c: any) => c.name)).toContain('helpful');

      const changed = await configs().update(id, { name: 'helpful-v2', dataType: 'numeric', minimum: 0, maximum: 5 });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ name: 'helpful-v2', dataType: 'numeric', minimum: 0, maximum: 5 });
      // Bounds are kept while the type stays.
      const described = await configs().update(id, { description: 'new words' });
      expect(described.body.data).toMatchObject({ minimum: 0, maximum: 5, description: 'new words' });

      const removed = await configs().remove(id);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ succeeded: true, messages: [], data: null });
      expectFailure(await configs().get(id), 404);
    });

    it('declares numeric and categorical configs', async () => {
      const numeric = await configs().create({ name: 'stars', dataType: 'numeric', minimum: 1, maximum: 5 });
      expect(numeric.status).toBe(201);
      expect(numeric.body.data).toMatchObject({ minimum: 1, maximum: 5, categories: null });
      const categorical = await configs().create({
        name: 'tone.kind',
        dataType: 'categorical',
        categories: ['formal', 'casual'],
      });
      expect(categorical.status).toBe(201);
      expect(categorical.body.data).toMatchObject({ categories: ['formal', 'casual'], minimum: null });
    });

    it.each([
      ['a name with an upper-case letter', { name: 'Helpful', dataType: 'boolean' }, /^name must be a lowercase/],
      ['a name starting with a digit', { name: '1x', dataType: 'boolean' }, /^name must be a lowercase/],
      ['a name of 65 characters', { name: `a${'b'.repeat(64)}`, dataType: 'boolean' }, /^name must be a lowercase/],
      ['no dataType', { name: 'x1' }, /^dataType must be one of/],
      ['an unknown dataType', { name: 'x1', dataType: 'stars' }, /^dataType must be one of/],
      ['numeric without bounds', { name: 'x1', dataType: 'numeric' }, 'minimum is required for numeric scores'],
      [
        'numeric with minimum = maximum',
        { name: 'x1', dataType: 'numeric', minimum: 3, maximum: 3 },
        'maximum must be greater than minimum',
      ],
      [
        'numeric with a bound that is not a number',
        { name: 'x1', dataType: 'numeric', minimum: '1', maximum: 3 },
        'minimum must be a finite number',
      ],
      [
        'bounds on a boolean config',
        { name: 'x1', dataType: 'boolean', minimum: 0, maximum: 1 },
        'minimum applies to numeric scores only',
      ],
      [
        'categorical without categories',
        { name: 'x1', dataType: 'categorical' },
        'categories are required for categorical scores',
      ],
      [
        'one category',
        { name: 'x1', dataType: 'categorical', categories: ['a'] },
        'categories must hold 2 to 20 values',
      ],
      [
        '21 categories',
        { name: 'x1', dataType: 'categorical', categories: Array.from({ length: 21 }, (_, i) => `c${i}`) },
        'categories must hold 2 to 20 values',
      ],
      [
        'repeated categories',
        { name: 'x1', dataType: 'categorical', categories: ['a', 'a'] },
        'categories must be distinct',
      ],
      [
        'a category of 65 characters',
        { name: 'x1', dataType: 'categorical', categories: ['a', 'b'.repeat(65)] },
        'each category must be at most 64 characters',
      ],
      [
        'an empty category',
        { name: 'x1', dataType: 'categorical', categories: ['a', ''] },
        'categories.1 must be 1 to 64 characters',
      ],
      [
        'categories on a numeric config',
        { name: 'x1', dataType: 'numeric', minimum: 0, maximum: 1, categories: ['a', 'b'] },
        'categories apply to categorical scores only',
      ],
      [
        'a description of 1001 characters',
        { name: 'x1', dataType: 'boolean', description: 'd'.repeat(1001) },
        /^description must be shorter than or equal to 1000 characters/,
      ],
    ])('refuses %s with 400 naming the field', async (_, body, message) => {
      const res = await configs().create(body);
      expect(res.status).toBe(400);
      expect(res.body.messages).toContainEqual(message instanceof RegExp ? expect.stringMatching(message) : message);
    });

    it('refuses a name taken in the tenant with 409, not one taken in another tenant', async () => {
      expect((await configs().create({ name: 'dup', dataType: 'boolean' })).status).toBe(201);
      expectFailure(await configs().create({ name: 'dup', dataType: 'boolean' }), 409, ['name already exists']);
      expect((await configs(other.admin).create({ name: 'dup', dataType: 'boolean' })).status).toBe(201);
      const renamed = await configs().create({ name: 'dup2', dataType: 'boolean' });
      expectFailure(await configs().update(renamed.body.data.id, { name: 'dup' }), 409, ['name already exists']);
    });

    it('checks a change as a whole: a new type needs its own values', async () => {
      const { id } = (await configs().create({ name: 'retyped', dataType: 'boolean' })).body.data;
      expectFailure(await configs().update(id, { dataType: 'categorical' }), 400, [
        'categories are required for categorical scores',
      ]);
      const numeric = (await configs().create({ name: 'retyped2', dataType: 'numeric', minimum: 0, maximum: 1 })).body
        .data;
      // Changing to boolean drops the bounds.
      const res = await configs().update(numeric.id, { dataType: 'boolean' });
      expect(res.body.data).toMatchObject({ dataType: 'boolean', minimum: null, maximum: null });
    });

    it('answers 404 for an unknown id and for another tenant’s config', async () => {
      const theirs = (await configs(other.admin).create({ name: 'theirs', dataType: 'boolean' })).body.data.id;
      for (const id of [MISSING, theirs]) {
        expectFailure(await configs().get(id), 404);
        expectFailure(await configs().update(id, { description: 'x' }), 404);
        expectFailure(await configs().remove(id), 404);
      }
    });

    it('lets ReadOnly keys read but not write, and refuses endpoint keys', async () => {
      const { id } = (await configs().create({ name: 'guarded', dataType: 'boolean' })).body.data;
      expect((await configs(tenant.readOnly).get(id)).status).toBe(200);
      expectFailure(await configs(tenant.readOnly).create({ name: 'ro', dataType: 'boolean' }), 403);
      expectFailure(await configs(tenant.readOnly).update(id, { description: 'x' }), 403);
      expectFailure(await configs(tenant.readOnly).remove(id), 403);
      expectFailure(await configs(tenant.endpointKey).list(), 403);
    });

    it('holds at most 50 configs per tenant', async () => {
      const crowded = await seedTenant(t.app);
      for (let i = 0; i < 50; i++) {
        expect((await configs(crowded.admin).create({ name: `many-${i}`, dataType: 'boolean' })).status).toBe(201);
      }
      expectFailure(await configs(crowded.admin).create({ name: 'one-too-many', dataType: 'boolean' }), 409, [
        'A tenant has at most 50 score configs: delete one before creating another',
      ]);
    });
  });
});
