import { DataSource } from 'typeorm';
import { auth, seedTenant, SeededTenant } from '../support/seed';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * GET /admin/v1/keys and /admin/v1/endpoints: `page` (default 1) and `pageSize` (default 100, at most 500); `data`
 * stays a plain array, oldest first with the id as tiebreak, and `Link: <…>; rel="next"` announces a following page.
 */
describe('paged admin lists (keys, endpoints)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  interface Listed {
    status: number;
    ids: string[];
    link: string | undefined;
    body: { succeeded: boolean; messages: string[]; data: unknown };
  }

  const NEXT = /^<([^>]+)>; rel="next"$/;

  /**
   * Five rows per resource in a tenant of their own: the three keys seedTenant makes plus two, or five endpoints.
   * `table` and `ids` (oldest first, as created) let a test read back or rearrange what is stored.
   */
  const resources = [
    {
      route: '/admin/v1/keys',
      table: 'api_keys',
      seed: async (tenant: SeededTenant) => {
        for (const name of ['fourth', 'fifth']) {
          const res = await t.http.post('/admin/v1/keys').set(auth(tenant.admin)).send({ name, type: 'endpoint' });
          expect(res.status).toBe(201);
        }
        const rows: { id: string }[] = await db.query(
          'SELECT id FROM api_keys WHERE tenant_id = $1 ORDER BY created_at, id',
          [tenant.id],
        );
        return rows.map((row) => row.id);
      },
    },
    {
      route: '/admin/v1/endpoints',
      table: 'endpoints',
      seed: async (tenant: SeededTenant) => {
        const ids: string[] = [];
        for (let i = 1; i <= 5; i++) {
          const res = await t.http
            .post('/admin/v1/endpoints')
            .set(auth(tenant.admin))
            .send({ name: `Paged ${i}`, path: `/api/v1/paged-${i}`, visibility: i % 2 ? 'Public' : 'Private' });
          expect(res.status).toBe(201);
          ids.push(res.body.data.id);
        }
        return ids;
      },
    },
  ];

  describe.each(resources)('$route', ({ route, table, seed }) => {
    let tenant: SeededTenant;
    let ids: string[];

    beforeAll(async () => {
      tenant = await seedTenant(t.app);
      ids = await seed(tenant);
      expect(ids).toHaveLength(5);
    });

    const list = async (pathAndQuery: string, key = tenant.admin): Promise<Listed> => {
      const res = await t.http.get(pathAndQuery).set(auth(key));
      return {
        status: res.status,
        ids: Array.isArray(res.body.data) ? res.body.data.map((row: { id: string }) => row.id) : [],
        link: res.headers.link,
        body: res.body,
      };
    };

    it('answers every row, oldest first, with no Link header when all fit the default page of 100', async () => {
      const res = await list(route);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ succeeded: true, messages: [] });
      expect(Array.isArray(res.body.data)).toBe(true);
      expect(res.ids).toEqual(ids);
      expect(res.link).toBeUndefined();
      expect(await list(`${route}?page=1&pageSize=100`)).toMatchObject({ ids, link: undefined });
    });

    it('slices pages of pageSize rows; Link points at the next page on every page but the last', async () => {
      const first = await list(`${route}?pageSize=2`);
      expect(first).toMatchObject({
        status: 200,
        ids: ids.slice(0, 2),
        link: `<${route}?pageSize=2&page=2>; rel="next"`,
      });
      const second = await list(`${route}?pageSize=2&page=2`);
      expect(second).toMatchObject({
        status: 200,
        ids: ids.slice(2, 4),
        link: `<${route}?pageSize=2&page=3>; rel="next"`,
      });
      const last = await list(`${route}?pageSize=2&page=3`);
      expect(last).toMatchObject({ status: 200, ids: ids.slice(4), link: undefined });
      const beyond = await list(`${route}?pageSize=2&page=4`);
      expect(beyond).toMatchObject({ status: 200, ids: [], link: undefined });
      expect(beyond.body).toEqual({ succeeded: true, messages: [], data: [] });
    });

    it('has no Link when the last page is exactly full, and one when a single row follows', async () => {
      expect(await list(`${route}?pageSize=5`)).toMatchObject({ ids, link: undefined });
      expect(await list(`${route}?pageSize=4`)).toMatchObject({
        ids: ids.slice(0, 4),
        link: `<${route}?pageSize=4&page=2>; rel="next"`,
      });
      expect(await list(`${route}?pageSize=1&page=5`)).toMatchObject({ ids: ids.slice(4), link: undefined });
    });

    it('reaches every row exactly once by following the Link headers', async () => {
      const seen: string[] = [];
      let next: string | undefined = `${route}?pageSize=2`;
      let requests = 0;
      while (next) {
        const page = await list(next);
        expect(page.status).toBe(200);
        seen.push(...page.ids);
        next = page.link ? NEXT.exec(page.link)![1] : undefined;
        requests++;
      }
      expect(seen).toEqual(ids);
      expect(requests).toBe(3);
    });

    it('keeps the order stable when creation times tie: the id breaks the tie and pages never overlap', async () => {
      const tied = await seedTenant(t.app);
      await seed(tied);
      await db.query(`UPDATE ${table} SET created_at = '2026-01-01T00:00:00Z' WHERE tenant_id = $1`, [tied.id]);
      const byId: string[] = (await db.query(`SELECT id FROM ${table} WHERE tenant_id = $1`, [tied.id]))
        .map((row: { id: string }) => row.id)
        .sort();
      expect(byId).toHaveLength(5);
      for (let attempt = 0; attempt < 3; attempt++) {
        const pages: string[] = [];
        for (let page = 1; page <= 3; page++)
          pages.push(...(await list(`${route}?pageSize=2&page=${page}`, tied.admin)).ids);
        expect(pages).toEqual(byId);
      }
      expect((await list(route, tied.admin)).ids).toEqual(byId);
    });

    it('keeps every other query parameter in the Link, replacing page where it was', async () => {
      expect(await list(`${route}?page=1&pageSize=3`)).toMatchObject({
        ids: ids.slice(0, 3),
        link: `<${route}?page=2&pageSize=3>; rel="next"`,
      });
    });

    it('lets a ReadOnly key page too', async () => {
      expect(await list(`${route}?pageSize=2&page=2`, tenant.readOnly)).toMatchObject({
        status: 200,
        ids: ids.slice(2, 4),
        link: `<${route}?pageSize=2&page=3>; rel="next"`,
      });
    });

    it('accepts pageSize 1 and 500', async () => {
      expect(await list(`${route}?pageSize=1`)).toMatchObject({
        status: 200,
        ids: ids.slice(0, 1),
        link: `<${route}?pageSize=1&page=2>; rel="next"`,
      });
      expect(await list(`${route}?pageSize=500`)).toMatchObject({ status: 200, ids, link: undefined });
    });

    it.each([
      ['?pageSize=501', ['pageSize must not be greater than 500']],
      ['?pageSize=0', ['pageSize must not be less than 1']],
      ['?pageSize=abc', ['pageSize must be an integer']],
      ['?pageSize=2.5', ['pageSize must be an integer']],
      ['?page=0', ['page must not be less than 1']],
      ['?page=-1', ['page must not be less than 1']],
      ['?page=x&pageSize=1000', ['page must be an integer', 'pageSize must not be greater than 500']],
    ])('rejects %s with 400 naming the field', async (query, messages) => {
      const res = await list(`${route}${query}`);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { succeeded: false, messages, data: null },
      });
      expect(res.link).toBeUndefined();
    });
  });

  describe('endpoint filters with pages', () => {
    let tenant: SeededTenant;
    let ids: string[];

    beforeAll(async () => {
      tenant = await seedTenant(t.app);
      ids = await resources[1].seed(tenant);
    });

    const get = (query: string) => t.http.get(`/admin/v1/endpoints${query}`).set(auth(tenant.admin));

    it('pages the filtered rows and carries the filters, as sent, into the Link', async () => {
      // Public: endpoints 1, 3 and 5.
      const first = await get('?visibility=Public&search=paged%20&pageSize=2');
      expect(first.status).toBe(200);
      expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0], ids[2]]);
      expect(first.headers.link).toBe(
        '</admin/v1/endpoints?visibility=Public&search=paged%20&pageSize=2&page=2>; rel="next"',
      );
      const second = await t.http.get(/^<([^>]+)>/.exec(first.headers.link)![1]).set(auth(tenant.admin));
      expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4]]);
      expect(second.headers.link).toBeUndefined();
    });

    it('pages the soft-deleted endpoints with deleted=true', async () => {
      for (const id of [ids[1], ids[3]]) {
        expect((await t.http.delete(`/admin/v1/endpoints/${id}`).set(auth(tenant.admin))).status).toBe(200);
      }
      const first = await get('?deleted=true&pageSize=1');
      expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([ids[1]]);
      expect(first.headers.link).toBe('</admin/v1/endpoints?deleted=true&pageSize=1&page=2>; rel="next"');
      const second = await get('?deleted=true&pageSize=1&page=2');
      expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([ids[3]]);
      expect(second.headers.link).toBeUndefined();
      const active = await get('?pageSize=2');
      expect(active.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0], ids[2]]);
      expect(active.headers.link).toBe('</admin/v1/endpoints?pageSize=2&page=2>; rel="next"');
    });

    it('still includes the fields of each endpoint on a page', async () => {
      const field = await t.http
        .post(`/admin/v1/endpoints/${ids[4]}/input-fields`)
        .set(auth(tenant.admin))
        .send({ name: 'text', dataType: 'string' });
      expect(field.status).toBe(201);
      const res = await get('?pageSize=1&page=3');
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({
        id: ids[4],
        inputFields: [expect.objectContaining({ name: 'text' })],
        outputFields: [],
      });
    });
  });
});
