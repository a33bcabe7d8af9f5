import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { TemplateService } from '../../src/modules/prompts/template/template.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';

/**
 * The execution hot path keeps keys, endpoint definitions and resolved prompts in memory, so these tests
 * prove both halves: a warm call touches no table but the batched log insert, and every change an admin makes is
 * seen by the very next call.
 */
/**
 * Statements of the service's own timers (the evaluation runner's poll, the keys' last-used flush), which may fall
 * inside the measured window on a loaded machine; none of them is issued by a call.
 */
const background = (sql: string) =>
  /FROM eval_runs WHERE status IN \('queued', 'running'\)/.test(sql) ||
  /^\s*UPDATE api_keys AS k SET last_used_at/.test(sql);

describe('execution hot path: in-memory definitions and their invalidation', () => {
  const { t, tenant } = useTestApp();

  const run = (path: string, body: unknown, query = '') =>
    t.http
      .post(path + query)
      .set(auth(tenant.endpointKey))
      .send(body as object);

  it('answers a warm cache-less call without a database query besides the batched log write', async () => {
    const { id, path } = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    await createPrompt(t, tenant.admin, id, { name: 'main', template: 'Say {{ inputs.text }}' });
    expect((await run(path, { text: 'warm-up' })).status).toBe(200);
    expect((await run(path, { text: 'warm-up' }, '?prompt=main')).status).toBe(200);
    await t.app.get(ExecutionLogsService).flush();

    const statements: string[] = [];
    const original = PostgresQueryRunner.prototype.query;
    const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (
      this: PostgresQueryRunner,
      ...args: Parameters<typeof original>
    ) {
      statements.push(String(args[0]));
      return original.apply(this, args);
    });
    try {
      const answer = await run(path, { text: 'hello' });
      expect(answer.status).toBe(200);
      expect(answer.body).toBe('Say hello');
      const byName = await run(path, { text: 'named' }, '?prompt=main');
      expect(byName.body).toBe('Say named');
    } finally {
      spy.mockRestore();
    }
    expect(statements.filter((sql) => !/INSERT INTO "?execution_logs"?/i.test(sql) && !background(sql))).toEqual([]);
  });

  it('answers a cache hit without rendering the template again, and logs the prompt the answer came from', async () => {
    const { id, path } = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      cacheEnabled: true,
      cacheDurationSeconds: 300,
    });
    await createPrompt(t, tenant.admin, id, { template: 'Cached {{ inputs.text }}' });
    const miss = await run(path, { text: 'once' });
    expect([miss.status, miss.body, miss.headers['x-cache']]).toEqual([200, 'Cached once', 'MISS']);

    const render = jest.spyOn(t.app.get(TemplateService), 'render');
    try {
      const hit = await run(path, { text: 'once' });
      expect([hit.status, hit.body, hit.headers['x-cache']]).toEqual([200, 'Cached once', 'HIT']);
      expect(render).not.toHaveBeenCalled();
    } finally {
      render.mockRestore();
    }
    await t.app.get(ExecutionLogsService).flush();
    const logs = await t.http.get(`/admin/v1/logs?endpointId=${id}`).set(auth(tenant.admin));
    expect(logs.status).toBe(200);
    const rows = logs.body.data.items ?? logs.body.data;
    expect(rows.map((row: { cached: boolean }) => row.cached).sort()).toEqual([false, true]);
    for (const row of rows) {
      const detail = await t.http.get(`/admin/v1/logs/${row.id}`).set(auth(tenant.admin));
      expect(detail.body.data.renderedPrompt).toBe('Cached once');
    }
  });

  it('sees a new template version, a new default, a new field, a setting change and a soft delete on the next call', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    const first = await createPrompt(t, tenant.admin, endpoint.id, {
      name: 'first',
      template: 'First {{ inputs.text }}',
    });
    expect((await run(endpoint.path, { text: 'a' })).body).toBe('First a');

    const updated = await t.http
      .put(`/admin/v1/prompts/${first.id}`)
      .set(auth(tenant.admin))
      .send({ template: 'Updated {{ inputs.text }}' });
    expect(updated.status).toBe(200);
    expect((await run(endpoint.path, { text: 'b' })).body).toBe('Updated b');

    const second = await createPrompt(
      t,
      tenant.admin,
      endpoint.id,
      { name: 'second', template: 'Second {{ inputs.text }}' },
      'Live',
    );
    expect((await run(endpoint.path, { text: 'c' })).body).toBe('Updated c');
    expect((await run(endpoint.path, { text: 'c' }, '?prompt=second')).body).toBe('Second c');
    const setDefault = await t.http.post(`/admin/v1/prompts/${second.id}/set-default`).set(auth(tenant.admin));
    expect(setDefault.status).toBe(200);
    expect((await run(endpoint.path, { text: 'd' })).body).toBe('Second d');
    expect((await run(endpoint.path, { text: 'd' }, '?prompt=first')).body).toBe('Updated d');

    const renamed = await t.http.put(`/admin/v1/prompts/${first.id}`).set(auth(tenant.admin)).send({ name: 'renamed' });
    expect(renamed.status).toBe(200);
    // The old name still selects the prompt, now answering under its new slug (the kept resolution was dropped).
    const byOldName = await run(endpoint.path, { text: 'e' }, '?prompt=first');
    expect(byOldName.body).toBe('Updated e');
    expect(byOldName.headers['x-prompt']).toMatch(/^renamed@/);
    expect((await run(endpoint.path, { text: 'e' }, '?prompt=renamed')).body).toBe('Updated e');
    const demoted = await t.http.post(`/admin/v1/prompts/${first.id}/demote`).set(auth(tenant.admin));
    expect(demoted.status).toBe(200);
    const notLive = await run(endpoint.path, { text: 'f' }, '?prompt=renamed');
    expect(notLive.status).toBe(409);
    expect(notLive.body.error).toBe('prompt_not_live');

    expect((await run(endpoint.path, { text: 'f' })).body).toBe('Second f');
    const demoteDefault = await t.http.post(`/admin/v1/prompts/${second.id}/demote`).set(auth(tenant.admin));
    expect(demoteDefault.status).toBe(200);
    const noDefault = await run(endpoint.path, { text: 'f' });
    expect(noDefault.status).toBe(409);
    expect(noDefault.body.error).toBe('no_default_prompt');
    await t.http.post(`/admin/v1/prompts/${second.id}/promote`).set(auth(tenant.admin)).expect(200);
    await t.http.post(`/admin/v1/prompts/${second.id}/set-default`).set(auth(tenant.admin)).expect(200);
    expect((await run(endpoint.path, { text: 'f' })).body).toBe('Second f');

    const field = await t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/input-fields`)
      .set(auth(tenant.admin))
      .send({ name: 'tone', dataType: 'string', isRequired: true });
    expect(field.status).toBe(201);
    const missing = await run(endpoint.path, { text: 'g' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'validation_error', message: "Field 'tone' is required", field: 'tone' });

    const moved = await t.http
      .put(`/admin/v1/endpoints/${endpoint.id}`)
      .set(auth(tenant.admin))
      .send({ visibility: 'Private' });
    expect(moved.status).toBe(200);
    expect((await run(endpoint.path, { text: 'h', tone: 'x' })).status).toBe(403);

    const deleted = await t.http.delete(`/admin/v1/endpoints/${endpoint.id}`).set(auth(tenant.admin));
    expect(deleted.status).toBe(200);
    const gone = await t.http.post(endpoint.path).set(auth(tenant.admin)).send({ text: 'i', tone: 'x' });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('not_found');
  });
});
