import { createTestApp, TestApp } from '../support/test-app';
import { auth, seedTenant } from '../support/seed';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists endpoints with an admin key', async () => {
    const tenant = await seedTenant(t.app);
    const res = await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ succeeded: true, messages: [], data: [] });
  });
});
