import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { useTestApp } from '../support/app-suite';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { expectFailure, MISSING } from '../support/envelope';
import { auth } from '../support/seed';

interface Event {
  type: string;
  promptId: string | null;
  versionNumber: number | null;
  keyId: string | null;
  keyName: string | null;
  createdAt: string;
  details: Record<string, unknown>;
}

/**
 * The history of prompts and endpoints: every change made through the admin API is listed, newest first and paged
 * like the logs, with the key that made it and what a reader needs; it is written in the change's own transaction,
 * so a change that fails leaves none.
 */
describe('prompt and endpoint events', () => {
  const { t, tenant, other } = useTestApp({ other: true, env: { ADMIN_RATE_LIMIT_PER_MINUTE: '100000' } });
  let adminKeyId: string;

  beforeAll(async () => {
    adminKeyId = (await get('/session')).body.data.key.id;
  });

  const get = (path: string, key = tenant.admin) => t.http.get(`/admin/v1${path}`).set(auth(key));
  const post = (path: string, body: object = {}, key = tenant.admin) =>
    t.http.post(`/admin/v1${path}`).set(auth(key)).send(body);
  const put = (path: string, body: object, key = tenant.admin) =>
    t.http.put(`/admin/v1${path}`).set(auth(key)).send(body);

  async function eventsOf(path: string, key = tenant.admin): Promise<Event[]> {
    const res = await get(`${path}/events?pageSize=50`, key);
    expect(res.status).toBe(200);
    return res.body.data.items;
  }
  const promptEvents = (id: string) => eventsOf(`/prompts/${id}`);
  const endpointEvents = (id: string) => eventsOf(`/endpoints/${id}`);
  const typesOf = (events: Event[]) => events.map((event) => [event.type, event.versionNumber]);

  it('records created, saved, promoted and default_set with the key, newest first', async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const created = await post('/prompts', {
      endpointId: endpoint.id,
      name: 'Greeter',
      template: 'Hello',
      llmModel: 'mock-echo',
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect((await put(`/prompts/${id}`, { template: 'Hello again', changeNotes: 'friendlier' })).status).toBe(200);
    // A change of the name only makes no version, and so no event.
    expect((await put(`/prompts/${id}`, { name: 'Greeter two' })).status).toBe(200);
    expect((await post(`/prompts/${id}/promote`)).status).toBe(200);
    expect((await post(`/prompts/${id}/set-default`)).status).toBe(200);
    // Already the default: nothing changes, nothing is recorded.
    expect((await post(`/prompts/${id}/set-default`)).status).toBe(200);
    expect((await put(`/prompts/${id}`, { temperature: 0.2, template: 'Hi' })).status).toBe(200);

    const events = await promptEvents(id);
    expect(typesOf(events)).toEqual([
      ['saved', 3],
      ['default_set', 2],
      ['promoted', 2],
      ['saved', 2],
      ['created', 1],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ promptId: id, keyId: adminKeyId, keyName: 'admin' });
      expect(new Date(event.createdAt).toISOString()).toBe(event.createdAt);
    }
    const times = events.map((event) => Date.parse(event.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(events.map((event) => event.details)).toEqual([
      {
        previousVersionNumber: 2,
        status: 'Live',
        trafficShare: 100,
        changed: ['template', 'temperature'],
        changeNotes: null,
      },
      { previousDefaultPromptId: null, trafficShare: 100, previousDefaultTrafficShare: null },
      { gate: null, trafficShare: 0 },
      { previousVersionNumber: 1, status: 'Draft', trafficShare: 0, changed: ['template'], changeNotes: 'friendlier' },
      { name: 'Greeter' },
    ]);
  });

  it('records split_changed on the endpoint, a split prompt save with its share, demoted, archived and unarchived', async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const a = await createPrompt(t, tenant.admin, endpoint.id, { template: 'A' }, 'default');
    const b = await createPrompt(t, tenant.admin, endpoint.id, { template: 'B' }, 'Live');
    const split = {
      variants: [
        { promptId: a.id, weight: 70 },
        { promptId: b.id, weight: 30 },
      ],
      stickyBy: 'key',
    };
    expect((await put(`/endpoints/${endpoint.id}`, { trafficSplit: split })).status).toBe(200);
    // The same split again changes nothing: no second event.
    expect((await put(`/endpoints/${endpoint.id}`, { trafficSplit: split })).status).toBe(200);
    expect((await put(`/prompts/${b.id}`, { template: 'B2' })).status).toBe(200);
    expect((await put(`/endpoints/${endpoint.id}`, { trafficSplit: null })).status).toBe(200);
    expect((await post(`/prompts/${a.id}/demote`)).status).toBe(200);
    expect((await post(`/prompts/${b.id}/archive`)).status).toBe(200);
    expect((await post(`/prompts/${b.id}/unarchive`)).status).toBe(200);

    const all = await endpointEvents(endpoint.id);
    expect(all.map((event) => [event.type, event.promptId, event.versionNumber])).toEqual([
      ['unarchived', b.id, 2],
      ['archived', b.id, 2],
      ['demoted', a.id, 1],
      ['split_changed', null, null],
      ['saved', b.id, 2],
      ['split_changed', null, null],
      ['promoted', b.id, 1],
      ['created', b.id, 1],
      ['default_set', a.id, 1],
      ['promoted', a.id, 1],
      ['created', a.id, 1],
    ]);
    expect(all[3].details).toEqual({ trafficSplit: null, previous: split, defaultPromptId: a.id });
    expect(all[5].details).toEqual({ trafficSplit: split, previous: null, defaultPromptId: a.id });
    expect(all[5]).toMatchObject({ keyId: adminKeyId, keyName: 'admin' });
    expect(all[4].details).toMatchObject({ status: 'Live', trafficShare: 30 });
    expect(all[2].details).toEqual({ wasDefault: true });
    expect([all[0].details, all[1].details]).toEqual([{}, {}]);

    // A prompt's own list holds its events only.
    expect(typesOf(await promptEvents(b.id))).toEqual([
      ['unarchived', 2],
      ['archived', 2],
      ['saved', 2],
      ['promoted', 1],
      ['created', 1],
    ]);
  });

  it("records what each prompt answers after a change: the promoted share, the replaced default's, the default at a split change", async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const a = await createPrompt(t, tenant.admin, endpoint.id, { template: 'A' }, 'Live');
    const b = await createPrompt(t, tenant.admin, endpoint.id, { template: 'B' }, 'Live');
    expect((await post(`/prompts/${a.id}/set-default`)).status).toBe(200);
    const split = {
      variants: [
        { promptId: a.id, weight: 60 },
        { promptId: b.id, weight: 40 },
      ],
      stickyBy: 'none',
    };
    expect((await put(`/endpoints/${endpoint.id}`, { trafficSplit: split })).status).toBe(200);
    // Within the split, the replaced default keeps its weight.
    expect((await post(`/prompts/${b.id}/set-default`)).status).toBe(200);
    expect((await put(`/endpoints/${endpoint.id}`, { trafficSplit: null })).status).toBe(200);
    // Without a split, the replaced default answers nothing but calls that pin it with ?prompt=.
    expect((await post(`/prompts/${a.id}/set-default`)).status).toBe(200);
    const c = await createPrompt(t, tenant.admin, endpoint.id, { template: 'C' }, 'Draft');
    expect((await post(`/prompts/${c.id}/promote`)).status).toBe(200);

    const all = await endpointEvents(endpoint.id);
    expect(all.map((event) => [event.type, event.promptId, event.details])).toEqual([
      ['promoted', c.id, { gate: null, trafficShare: 0 }],
      ['created', c.id, expect.anything()],
      ['default_set', a.id, { previousDefaultPromptId: b.id, trafficShare: 100, previousDefaultTrafficShare: 0 }],
      ['split_changed', null, { trafficSplit: null, previous: split, defaultPromptId: b.id }],
      ['default_set', b.id, { previousDefaultPromptId: a.id, trafficShare: 40, previousDefaultTrafficShare: 60 }],
      ['split_changed', null, { trafficSplit: split, previous: null, defaultPromptId: a.id }],
      ['default_set', a.id, { previousDefaultPromptId: null, trafficShare: 100, previousDefaultTrafficShare: null }],
      ['promoted', b.id, { gate: null, trafficShare: 0 }],
      ['created', b.id, expect.anything()],
      ['promoted', a.id, { gate: null, trafficShare: 0 }],
      ['created', a.id, expect.anything()],
    ]);
  });

  it('records duplicated and restored on the new prompt, naming the source', async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const source = await createPrompt(t, tenant.admin, endpoint.id, { name: 'Source', template: 'one' }, 'Draft');
    expect((await put(`/prompts/${source.id}`, { template: 'two' })).status).toBe(200);
    const copy = await post(`/prompts/${source.id}/duplicate`);
    expect(copy.status).toBe(201);
    const restored = await post(`/prompts/${source.id}/versions/1/restore`);
    expect(restored.status).toBe(201);

    expect(await promptEvents(copy.body.data.id)).toEqual([
      expect.objectContaining({
        type: 'duplicated',
        promptId: copy.body.data.id,
        versionNumber: 1,
        keyName: 'admin',
        details: { name: 'Source (copy)', sourcePromptId: source.id, sourceName: 'Source', sourceVersionNumber: 2 },
      }),
    ]);
    expect(await promptEvents(restored.body.data.id)).toEqual([
      expect.objectContaining({
        type: 'restored',
        promptId: restored.body.data.id,
        versionNumber: 1,
        details: { name: 'Source (v1)', sourcePromptId: source.id, sourceName: 'Source', sourceVersionNumber: 1 },
      }),
    ]);
    // The source's history is unchanged by them.
    expect(typesOf(await promptEvents(source.id))).toEqual([
      ['saved', 2],
      ['created', 1],
    ]);
  });

  it('records gate_forced with its reason and run when a promotion is forced past the promotion gate', async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const dataset = await post(`/endpoints/${endpoint.id}/datasets`, { name: `gate-${randomUUID().slice(0, 8)}` });
    expect(dataset.status).toBe(201);
    expect(
      (await put(`/endpoints/${endpoint.id}`, { promotionGate: { datasetId: dataset.body.data.id } })).status,
    ).toBe(200);
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'gated' }, 'Draft');
    expect((await post(`/prompts/${prompt.id}/promote`)).status).toBe(409);
    const forced = await post(`/prompts/${prompt.id}/promote`, { force: true, reason: 'Hotfix approved' });
    expect(forced.status).toBe(200);

    const events = await promptEvents(prompt.id);
    expect(events.map((event) => [event.type, event.versionNumber, event.details])).toEqual([
      ['gate_forced', 1, { reason: 'Hotfix approved', runId: null }],
      ['promoted', 1, { gate: { forced: true, runId: null }, trafficShare: 0 }],
      ['created', 1, { name: prompt.name }],
    ]);
  });

  it('pages like the logs: page and pageSize, total, and a 400 naming a bad page size', async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'v1' }, 'Draft');
    for (let version = 2; version <= 5; version++) {
      expect((await put(`/prompts/${prompt.id}`, { template: `v${version}` })).status).toBe(200);
    }
    const first = await get(`/prompts/${prompt.id}/events?pageSize=2`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ page: 1, pageSize: 2, total: 5, totalIsExact: true });
    expect(typesOf(first.body.data.items)).toEqual([
      ['saved', 5],
      ['saved', 4],
    ]);
    const third = await get(`/prompts/${prompt.id}/events?pageSize=2&page=3`);
    expect(third.body.data).toMatchObject({ page: 3, pageSize: 2, total: 5 });
    expect(typesOf(third.body.data.items)).toEqual([['created', 1]]);
    const beyond = await get(`/prompts/${prompt.id}/events?pageSize=2&page=4`);
    expect(beyond.body.data).toMatchObject({ items: [], page: 4, total: 5 });
    const byDefault = await get(`/endpoints/${endpoint.id}/events`);
    expect(byDefault.body.data).toMatchObject({ page: 1, pageSize: 20, total: 5 });

    expectFailure(await get(`/prompts/${prompt.id}/events?pageSize=51`), 400, [/pageSize/]);
    expectFailure(await get(`/endpoints/${endpoint.id}/events?page=0`), 400, [/page/]);
    expectFailure(await get(`/prompts/not-a-uuid/events`), 400, [/id/]);
  });

  it("answers 404 for another tenant's prompt or endpoint and a missing one; ReadOnly keys may read", async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'mine' }, 'Draft');
    expectFailure(await get(`/prompts/${prompt.id}/events`, other.admin), 404);
    expectFailure(await get(`/endpoints/${endpoint.id}/events`, other.admin), 404);
    expectFailure(await get(`/prompts/${MISSING}/events`), 404);
    expectFailure(await get(`/endpoints/${MISSING}/events`), 404);
    expect(typesOf(await eventsOf(`/prompts/${prompt.id}`, tenant.readOnly))).toEqual([['created', 1]]);
    expect((await get(`/prompts/${prompt.id}/events`)).status).toBe(200);
    expect((await t.http.get(`/admin/v1/prompts/${prompt.id}/events`)).status).toBe(401);

    // A soft-deleted endpoint hides its history with its prompts.
    expect((await t.http.delete(`/admin/v1/endpoints/${endpoint.id}`).set(auth(tenant.admin))).status).toBe(200);
    expectFailure(await get(`/prompts/${prompt.id}/events`), 404);
    expectFailure(await get(`/endpoints/${endpoint.id}/events`), 404);
  });

  it('names the key as it is named now, and a change another key makes names that key', async () => {
    const endpoint = await createEndpoint(t, tenant.admin);
    const created = await post('/keys', { name: 'deployer', type: 'admin', permission: 'ReadWrite' });
    expect(created.status).toBe(201);
    const deployer = created.body.data;
    const prompt = await createPrompt(t, deployer.key, endpoint.id, { template: 'by deployer' }, 'Draft');
    expect((await put(`/keys/${deployer.id}`, { name: 'release bot' })).status).toBe(200);
    expect(await promptEvents(prompt.id)).toEqual([
      expect.objectContaining({ type: 'created', keyId: deployer.id, keyName: 'release bot' }),
    ]);
  });

  describe('a change that fails records nothing', () => {
    let db: DataSource;
    beforeAll(() => {
      db = t.app.get(DataSource);
    });

    /** Runs `work` while every `event` on `table` for this tenant's rows fails in the database. */
    async function whileFailing<T>(event: 'INSERT' | 'UPDATE', table: string, work: () => Promise<T>): Promise<T> {
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

    it('a refused change (409) records no event', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const a = await createPrompt(t, tenant.admin, endpoint.id, { name: 'Taken', template: 'A' }, 'default');
      const b = await createPrompt(t, tenant.admin, endpoint.id, { template: 'B' }, 'Draft');
      const before = await endpointEvents(endpoint.id);
      expect((await post(`/prompts/${a.id}/promote`)).status).toBe(409);
      expect((await post(`/prompts/${a.id}/archive`)).status).toBe(409);
      expect((await put(`/prompts/${b.id}`, { name: 'Taken', template: 'B2' })).status).toBe(409);
      const split = {
        variants: [
          { promptId: a.id, weight: 50 },
          { promptId: b.id, weight: 50 },
        ],
        stickyBy: 'none',
      };
      expect((await put(`/endpoints/${endpoint.id}`, { trafficSplit: split })).status).toBe(409);
      expect(await endpointEvents(endpoint.id)).toEqual(before);
    });

    it('a save whose last step fails in the database leaves no saved event', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'first' }, 'Draft');
      // The version and the event are written first, then the prompt row is updated: the update fails.
      const failed = await whileFailing('UPDATE', 'prompts', () =>
        put(`/prompts/${prompt.id}`, { template: 'second' }),
      );
      expect(failed.status).toBe(500);
      expect(typesOf(await promptEvents(prompt.id))).toEqual([['created', 1]]);
    });

    it('an event that cannot be written undoes its change', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'draft' }, 'Draft');
      const failed = await whileFailing('INSERT', 'prompt_events', () => post(`/prompts/${prompt.id}/promote`));
      expect(failed.status).toBe(500);
      expect((await get(`/prompts/${prompt.id}`)).body.data.status).toBe('Draft');
      const notCreated = await whileFailing('INSERT', 'prompt_events', () =>
        post('/prompts', { endpointId: endpoint.id, name: 'Never', template: 'x', llmModel: 'mock-echo' }),
      );
      expect(notCreated.status).toBe(500);
      const names = (await get(`/prompts?endpointId=${endpoint.id}`)).body.data.map((p: { name: string }) => p.name);
      expect(names).not.toContain('Never');
      expect(typesOf(await promptEvents(prompt.id))).toEqual([['created', 1]]);
    });
  });
});
