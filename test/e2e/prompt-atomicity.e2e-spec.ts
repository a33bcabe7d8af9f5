import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';

// Multi-step prompt operations write all their rows or none. A trigger installed for this file's tenant only makes a
// later step of the operation fail in the database itself, as a constraint or an outage would; what the earlier steps
// wrote must be gone. Other test files sharing the database are not affected: the trigger matches this tenant's rows.
describe('prompt operations are atomic', () => {
  const { t, tenant } = useTestApp();
  let db: DataSource;

  beforeAll(async () => {
    db = t.app.get(DataSource);
  });

  /** Runs `work` while every `event` on `table` for this tenant's rows fails in the database. */
  async function whileFailing<T>(
    event: 'INSERT' | 'UPDATE',
    table: 'prompts' | 'prompt_versions',
    work: () => Promise<T>,
  ): Promise<T> {
    const name = `fail_${randomUUID().replace(/-/g, '')}`;
    await db.query(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
    );
    await db.query(
      `CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW WHEN (NEW.tenant_id = '${tenant.id}'::uuid) EXECUTE FUNCTION ${name}()`,
    );
    try {
      return await work();
    } finally {
      await db.query(`DROP TRIGGER ${name} ON ${table}`);
      await db.query(`DROP FUNCTION ${name}()`);
    }
  }

  const get = (path: string) => t.http.get(path).set(auth(tenant.admin));

  it('a content change whose prompt update fails leaves no new version, and the next save is version 2', async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'first' }, 'Draft');

    // The version row is inserted first, then the prompt row is updated: the update fails.
    const failed = await whileFailing('UPDATE', 'prompts', () =>
      t.http.put(`/admin/v1/prompts/${prompt.id}`).set(auth(tenant.admin)).send({ template: 'second' }),
    );
    expect([failed.status, failed.body.succeeded]).toEqual([500, false]);

    const versions = await get(`/admin/v1/prompts/${prompt.id}/versions`);
    expect(versions.body.data.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([1]);
    const unchanged = await get(`/admin/v1/prompts/${prompt.id}`);
    expect([unchanged.body.data.template, unchanged.body.data.currentVersion]).toEqual(['first', 1]);

    const saved = await t.http
      .put(`/admin/v1/prompts/${prompt.id}`)
      .set(auth(tenant.admin))
      .send({ template: 'second' });
    expect([saved.status, saved.body.data.currentVersion]).toEqual([200, 2]);
    const after = await get(`/admin/v1/prompts/${prompt.id}/versions`);
    expect(
      after.body.data.map((v: { versionNumber: number; template: string }) => [v.versionNumber, v.template]),
    ).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
  });

  it('demoting the default prompt when its status change fails keeps it Live and the default', async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'live' }, 'default');

    // The endpoint's default is cleared first, then the prompt's status is changed: the status change fails.
    const failed = await whileFailing('UPDATE', 'prompts', () =>
      t.http.post(`/admin/v1/prompts/${prompt.id}/demote`).set(auth(tenant.admin)).send(),
    );
    expect([failed.status, failed.body.succeeded]).toEqual([500, false]);

    const stored = await get(`/admin/v1/endpoints/${endpoint.id}`);
    expect(stored.body.data.defaultPromptId).toBe(prompt.id);
    const still = await get(`/admin/v1/prompts/${prompt.id}`);
    expect([still.body.data.status, still.body.data.isDefault]).toEqual(['Live', true]);
    const executed = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({});
    expect([executed.status, executed.body]).toEqual([200, 'live']);
  });

  it('a restore whose version 1 cannot be written leaves no restored prompt behind', async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { name: 'restorable', template: 'kept' }, 'Draft');

    // The new prompt row is inserted first, then its version 1: the version insert fails.
    const failed = await whileFailing('INSERT', 'prompt_versions', () =>
      t.http.post(`/admin/v1/prompts/${prompt.id}/versions/1/restore`).set(auth(tenant.admin)).send(),
    );
    expect([failed.status, failed.body.succeeded]).toEqual([500, false]);

    const listed = await get(`/admin/v1/prompts?endpointId=${endpoint.id}`);
    expect(listed.body.data.map((p: { name: string }) => p.name)).toEqual(['restorable']);
    const rows = await db.query('SELECT count(*)::int AS n FROM prompts WHERE tenant_id = $1 AND endpoint_id = $2', [
      tenant.id,
      endpoint.id,
    ]);
    expect(rows[0].n).toBe(1);

    const restored = await t.http
      .post(`/admin/v1/prompts/${prompt.id}/versions/1/restore`)
      .set(auth(tenant.admin))
      .send();
    expect([restored.status, restored.body.data.name]).toEqual([201, 'restorable (v1)']);
  });
});
