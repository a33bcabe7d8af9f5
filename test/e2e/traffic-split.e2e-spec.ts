import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomUUID } from 'node:crypto';
import { assignVariant, type TrafficSplit } from '../../src/modules/endpoints/traffic-split';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { connectMcp, toolJson, toolText } from '../support/mcp-client';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';

/** A traffic split sticky by `stickyBy` of `variants`, each given as [promptId, weight]. */
const splitOf = (stickyBy: string, ...variants: [string, number][]): TrafficSplit => ({
  variants: variants.map(([promptId, weight]) => ({ promptId, weight })),
  stickyBy,
});

interface Prompt {
  id: string;
  name: string;
  slug: string;
}

describe('traffic split', () => {
  const { t, tenant, other } = useTestApp({ listen: true, other: true });
  let mcp: Client;
  let caller: string;
  /** Key ids by key name ('admin', 'caller', …), for the assignments the split must make. */
  const keyIds = new Map<string, string>();

  beforeAll(async () => {
    // One key calls most of the endpoints here, more often than the default per-minute limit allows.
    const created = await t.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({ name: 'bulk', type: 'endpoint', rateLimitPerMinute: 2000, rateLimitPerHour: 2000 });
    caller = created.body.data.key as string;
    const keys = await t.http.get('/admin/v1/keys').set(auth(tenant.admin));
    for (const key of keys.body.data as { id: string; name: string }[]) keyIds.set(key.name, key.id);
    mcp = await connectMcp(await t.app.getUrl(), tenant.admin);
  });
  afterAll(async () => {
    await mcp?.close();
  });

  const setSplit = (endpointId: string, trafficSplit: unknown, key = tenant.admin) =>
    t.http.put(`/admin/v1/endpoints/${endpointId}`).set(auth(key)).send({ trafficSplit });
  const execute = (path: string, headers: Record<string, string> = {}, body: object = {}, key = caller) =>
    t.http
      .post(path)
      .set({ ...auth(key), ...headers })
      .send(body);
  const xPrompt = (prompt: Prompt, version = 1) => `${prompt.slug}@${version}`;
  const logsOf = async (query: Record<string, string>) => {
    await t.app.get(ExecutionLogsService).flush();
    const res = await t.http
      .get('/admin/v1/logs')
      .query({ pageSize: 50, ...query })
      .set(auth(tenant.admin));
    expect(res.status).toBe(200);
    return res.body.data.items as { promptId: string; assignment: string | null; source: string }[];
  };

  /** An endpoint with a Live default prompt "Control" and a Live prompt "Candidate" (templates say which answered). */
  async function splitEndpoint(settings: Record<string, unknown> = {}) {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string' }],
      ...settings,
    });
    const control: Prompt = await createPrompt(t, tenant.admin, endpoint.id, {
      name: 'Control',
      template: 'control {{ inputs.text }}',
    });
    const candidate: Prompt = await createPrompt(
      t,
      tenant.admin,
      endpoint.id,
      { name: 'Candidate', template: 'candidate {{ inputs.text }}' },
      'Live',
    );
    return { ...endpoint, control, candidate };
  }

  describe('validation', () => {
    it('refuses malformed splits with 400 naming the field, and stores nothing', async () => {
      const { id, control, candidate } = await splitEndpoint();
      const cases: [unknown, string][] = [
        [
          { variants: [{ promptId: control.id, weight: 100 }], stickyBy: 'key' },
          'trafficSplit.variants must contain at least 2 elements',
        ],
        [
          splitOf('key', [control.id, 100], [candidate.id, 0]),
          'trafficSplit.variants.1.weight must not be less than 1',
        ],
        [
          splitOf('key', [control.id, 90], [candidate.id, 10.5]),
          'trafficSplit.variants.1.weight must be an integer number',
        ],
        [
          splitOf('key', [control.id, 90], [candidate.id, 20]),
          'trafficSplit.variants weights must sum to 100 (they sum to 110)',
        ],
        [
          splitOf('key', [control.id, 50], [control.id, 50]),
          `trafficSplit.variants.1.promptId lists prompt ${control.id} a second time`,
        ],
        [splitOf('key', [control.id, 90], ['nope', 10]), 'trafficSplit.variants.1.promptId must be a UUID'],
        [
          splitOf('cookie:x', [control.id, 90], [candidate.id, 10]),
          'trafficSplit.stickyBy must be key, none or header:<header-name>',
        ],
        [
          splitOf('header:', [control.id, 90], [candidate.id, 10]),
          'trafficSplit.stickyBy must be key, none or header:<header-name>',
        ],
        [
          {
            variants: [
              { promptId: control.id, weight: 90, extra: 1 },
              { promptId: candidate.id, weight: 10 },
            ],
            stickyBy: 'key',
          },
          'property trafficSplit.variants.0.extra should not exist',
        ],
        [{ variants: [], stickyBy: 'key' }, 'trafficSplit.variants must contain at least 2 elements'],
        ['90/10', 'trafficSplit'],
      ];
      const sixVariants = Array.from({ length: 6 }, () => ({ promptId: control.id, weight: 1 }));
      cases.push([
        { variants: sixVariants, stickyBy: 'none' },
        'trafficSplit.variants must contain no more than 5 elements',
      ]);
      for (const [split, message] of cases) {
        const res = await setSplit(id, split);
        expect([res.status, res.body.succeeded]).toEqual([400, false]);
        expect(res.body.messages.join('\n')).toContain(message);
      }
      const stored = await t.http.get(`/admin/v1/endpoints/${id}`).set(auth(tenant.admin));
      expect(stored.body.data.trafficSplit).toBeNull();
    });

    it("refuses a prompt that is not one of the endpoint's (400) or not Live (409), naming the variant", async () => {
      const { id, control, candidate } = await splitEndpoint();
      const elsewhere = await splitEndpoint();
      const draft = await createPrompt(t, tenant.admin, id, { name: 'Draft one', template: 'draft' }, 'Draft');
      const foreign = await createEndpoint(t, other.admin);
      const othersPrompt = await createPrompt(t, other.admin, foreign.id, { template: 'x' });
      for (const promptId of [elsewhere.candidate.id, othersPrompt.id, randomUUID()]) {
        const res = await setSplit(id, splitOf('key', [control.id, 90], [promptId, 10]));
        expect(res.status).toBe(400);
        expect(res.body.messages).toEqual([`trafficSplit.variants.1.promptId: no prompt ${promptId} on this endpoint`]);
      }
      const notLive = await setSplit(id, splitOf('key', [draft.id, 50], [candidate.id, 50]));
      expect(notLive.status).toBe(409);
      expect(notLive.body.messages).toEqual([
        "trafficSplit.variants.0.promptId: prompt 'Draft one' is Draft: only Live prompts can be in a traffic split",
      ]);
      const stored = await t.http.get(`/admin/v1/endpoints/${id}`).set(auth(tenant.admin));
      expect(stored.body.data.trafficSplit).toBeNull();
    });

    it('is a write: ReadOnly keys get 403, another tenant gets 404', async () => {
      const { id, control, candidate } = await splitEndpoint();
      const split = splitOf('key', [control.id, 50], [candidate.id, 50]);
      expect((await setSplit(id, split, tenant.readOnly)).status).toBe(403);
      expect((await setSplit(id, split, other.admin)).status).toBe(404);
    });
  });

  it('stores the split (header names in lower case), shows it on the endpoint, and null removes it', async () => {
    const { id, control, candidate } = await splitEndpoint();
    const res = await setSplit(id, splitOf('header:X-User-Id', [control.id, 90], [candidate.id, 10]));
    expect(res.status).toBe(200);
    const expected = splitOf('header:x-user-id', [control.id, 90], [candidate.id, 10]);
    expect(res.body.data.trafficSplit).toEqual(expected);
    const listed = await t.http.get('/admin/v1/endpoints').query({ pageSize: 100 }).set(auth(tenant.admin));
    expect(listed.body.data.find((e: { id: string }) => e.id === id).trafficSplit).toEqual(expected);
    // Other settings change without touching the split.
    const renamed = await t.http.put(`/admin/v1/endpoints/${id}`).set(auth(tenant.admin)).send({ name: 'Renamed' });
    expect(renamed.body.data.trafficSplit).toEqual(expected);
    const removed = await setSplit(id, null);
    expect([removed.status, removed.body.data.trafficSplit]).toEqual([200, null]);
  });

  it('sticks by key: each key always gets the variant SHA-256 assigns it', async () => {
    const { id, path, control, candidate } = await splitEndpoint();
    const split: TrafficSplit = splitOf('key', [control.id, 50], [candidate.id, 50]);
    expect((await setSplit(id, split)).status).toBe(200);
    const bySlug = { [control.id]: control, [candidate.id]: candidate };
    for (const [name, key] of [
      ['bulk', caller],
      ['admin', tenant.admin],
    ]) {
      const expected = bySlug[assignVariant(split, id, keyIds.get(name)!)];
      for (let i = 0; i < 5; i++) {
        const res = await execute(path, { 'x-user-id': `ignored-${i}` }, { text: 'hi' }, key);
        expect([res.status, res.headers['x-prompt']]).toEqual([200, xPrompt(expected)]);
        expect(res.body).toBe(`${expected.name.toLowerCase()} hi`);
      }
    }
  });

  it('sticks by header: the same value always gets the same variant; without the header, random by weight', async () => {
    const { id, path, control, candidate } = await splitEndpoint();
    const split: TrafficSplit = splitOf('header:x-user-id', [control.id, 50], [candidate.id, 50]);
    expect((await setSplit(id, { ...split, stickyBy: 'header:X-User-Id' })).status).toBe(200);
    const slugOf = { [control.id]: xPrompt(control), [candidate.id]: xPrompt(candidate) };
    const seen = new Set<string>();
    for (let user = 0; user < 20; user++) {
      const expected = slugOf[assignVariant(split, id, `user-${user}`)];
      for (let call = 0; call < 2; call++) {
        const res = await execute(path, { 'X-User-Id': `user-${user}` }, { text: 'x' });
        expect([res.status, res.headers['x-prompt']]).toEqual([200, expected]);
        seen.add(res.headers['x-prompt']);
      }
    }
    expect(seen.size).toBe(2);
    const logs = await logsOf({ endpointId: id, assignment: 'split' });
    expect(logs).toHaveLength(40);
  });

  it('without a sticky value, meets the weights over HTTP too (90/10, 300 requests, stickyBy none)', async () => {
    const { id, path, control, candidate } = await splitEndpoint();
    await setSplit(id, splitOf('none', [control.id, 90], [candidate.id, 10])).expect(200);
    const counts = new Map<string, number>();
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 30 }, () => execute(path, {}, { text: 'x' })));
      for (const res of answers) {
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        counts.set(res.headers['x-prompt'], (counts.get(res.headers['x-prompt']) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 300 });
    // 300 draws at 10 %: 30 expected, a standard deviation of about 5.2; 10 to 55 is far beyond four of them.
    const candidates = counts.get(xPrompt(candidate)) ?? 0;
    expect([...counts.keys()].sort()).toEqual([xPrompt(candidate), xPrompt(control)].sort());
    expect(candidates).toBeGreaterThanOrEqual(10);
    expect(candidates).toBeLessThanOrEqual(55);
    expect(candidates + (counts.get(xPrompt(control)) ?? 0)).toBe(300);
  });

  it('?prompt= pins a prompt past the split; X-Prompt and the log assignment say how each answer was chosen', async () => {
    const { id, path, control, candidate } = await splitEndpoint();
    // No split yet: the default answers.
    const byDefault = await execute(path, {}, { text: 'a' });
    expect([byDefault.status, byDefault.headers['x-prompt']]).toEqual([200, xPrompt(control)]);
    await setSplit(id, splitOf('none', [control.id, 1], [candidate.id, 99])).expect(200);
    for (let i = 0; i < 5; i++) {
      const pinned = await execute(`${path}?prompt=${control.slug}`, {}, { text: 'b' });
      expect([pinned.status, pinned.headers['x-prompt'], pinned.body]).toEqual([200, xPrompt(control), 'control b']);
    }
    // A new version shows in X-Prompt.
    await t.http
      .put(`/admin/v1/prompts/${control.id}`)
      .set(auth(tenant.admin))
      .send({ template: 'control v2 {{ inputs.text }}' })
      .expect(200);
    const second = await execute(`${path}?prompt=Control`, {}, { text: 'c' });
    expect([second.headers['x-prompt'], second.body]).toEqual([xPrompt(control, 2), 'control v2 c']);
    // A validation failure comes before any prompt is selected; a test run is pinned to the prompt it names.
    const invalid = await execute(path, {}, { text: 5 });
    expect(invalid.status).toBe(400);
    await t.http
      .post(`/admin/v1/endpoints/${id}/test`)
      .set(auth(tenant.admin))
      .send({ promptId: candidate.id, inputs: { text: 't' } })
      .expect(200);

    const logs = await logsOf({ endpointId: id });
    const byAssignment = (assignment: string | null) => logs.filter((log) => log.assignment === assignment);
    expect(byAssignment('default').map((log) => log.promptId)).toEqual([control.id]);
    expect(byAssignment('pinned').filter((log) => log.source === 'Api')).toHaveLength(6);
    expect(
      byAssignment('pinned')
        .filter((log) => log.source === 'TestPage')
        .map((log) => log.promptId),
    ).toEqual([candidate.id]);
    // The validation failure happened before any prompt was selected.
    expect(byAssignment(null)).toHaveLength(1);
    const filtered = await logsOf({ endpointId: id, assignment: 'default' });
    expect(filtered.map((log) => log.assignment)).toEqual(['default']);
    const bad = await t.http.get('/admin/v1/logs').query({ assignment: 'sometimes' }).set(auth(tenant.admin));
    expect(bad.status).toBe(400);
  });

  it('refuses to demote or archive a prompt of the split (409 naming the split) until the split drops it', async () => {
    const { id, control, candidate } = await splitEndpoint();
    const third = await createPrompt(t, tenant.admin, id, { name: 'Third', template: 'third' }, 'Live');
    await setSplit(id, splitOf('key', [control.id, 50], [candidate.id, 50])).expect(200);
    for (const action of ['demote', 'archive']) {
      const res = await t.http.post(`/admin/v1/prompts/${candidate.id}/${action}`).set(auth(tenant.admin));
      expect(res.status).toBe(409);
      expect(res.body.messages).toEqual([
        `A prompt in the endpoint's traffic split cannot be ${action}d: remove it from trafficSplit first`,
      ]);
    }
    const still = await t.http.get(`/admin/v1/prompts/${candidate.id}`).set(auth(tenant.admin));
    expect(still.body.data.status).toBe('Live');
    // Once the split lists Third instead, Candidate can go.
    await setSplit(id, splitOf('key', [control.id, 50], [third.id, 50])).expect(200);
    await t.http.post(`/admin/v1/prompts/${candidate.id}/demote`).set(auth(tenant.admin)).expect(200);
    await t.http.post(`/admin/v1/prompts/${candidate.id}/archive`).set(auth(tenant.admin)).expect(200);
    // Third's other actions are unaffected; the split survives a soft delete and a restore of its endpoint.
    await t.http.post(`/admin/v1/prompts/${third.id}/set-default`).set(auth(tenant.admin)).expect(200);
    await t.http.delete(`/admin/v1/endpoints/${id}`).set(auth(tenant.admin)).expect(200);
    const restored = await t.http.post(`/admin/v1/endpoints/${id}/restore`).set(auth(tenant.admin));
    expect(restored.body.data.trafficSplit.variants.map((v: { promptId: string }) => v.promptId)).toEqual([
      control.id,
      third.id,
    ]);
  });

  it('never answers one variant from the cache of another (the cache key holds the prompt and its version)', async () => {
    const { id, path, control, candidate } = await splitEndpoint({ cacheEnabled: true });
    const split: TrafficSplit = splitOf('header:x-user-id', [control.id, 50], [candidate.id, 50]);
    await setSplit(id, split).expect(200);
    let userOf: Record<string, string> = {};
    for (let user = 0; Object.keys(userOf).length < 2; user++) {
      userOf = { [assignVariant(split, id, `u${user}`)]: `u${user}`, ...userOf };
    }
    const body = { text: 'same' };
    const controlUser = { 'x-user-id': userOf[control.id] };
    const candidateUser = { 'x-user-id': userOf[candidate.id] };
    const first = await execute(path, controlUser, body);
    expect([first.headers['x-cache'], first.headers['x-prompt'], first.body]).toEqual([
      'MISS',
      xPrompt(control),
      'control same',
    ]);
    const otherVariant = await execute(path, candidateUser, body);
    expect([otherVariant.headers['x-cache'], otherVariant.headers['x-prompt'], otherVariant.body]).toEqual([
      'MISS',
      xPrompt(candidate),
      'candidate same',
    ]);
    for (const [headers, prompt, text] of [
      [controlUser, control, 'control same'],
      [candidateUser, candidate, 'candidate same'],
    ] as const) {
      const hit = await execute(path, headers, body);
      expect([hit.headers['x-cache'], hit.headers['x-prompt'], hit.body]).toEqual(['HIT', xPrompt(prompt), text]);
    }
  });

  it('GET /admin/v1/stats?groupBy=prompt gives each prompt its totals, beside the endpoint totals', async () => {
    const { id, path, control, candidate } = await splitEndpoint();
    const split: TrafficSplit = splitOf('header:x-user-id', [control.id, 90], [candidate.id, 10]);
    await setSplit(id, split).expect(200);
    const expected = new Map<string, number>();
    for (let user = 0; user < 30; user++) {
      const res = await execute(path, { 'x-user-id': `s${user}` }, { text: 'x' });
      expect(res.status).toBe(200);
      const promptId = assignVariant(split, id, `s${user}`);
      expected.set(promptId, (expected.get(promptId) ?? 0) + 1);
    }
    // A failure before selection has no prompt: counted in the totals, in no group.
    await execute(path, {}, { text: 42 }).expect(400);
    await t.app.get(ExecutionLogsService).flush();
    const res = await t.http
      .get('/admin/v1/stats')
      .query({ endpointId: id, groupBy: 'prompt' })
      .set(auth(tenant.admin));
    expect(res.status).toBe(200);
    const { totals, groups } = res.body.data;
    expect(totals.calls).toBe(31);
    const names = { [control.id]: 'Control', [candidate.id]: 'Candidate' };
    expect(
      groups.map((g: { promptId: string; promptName: string; totals: { calls: number } }) => [
        g.promptId,
        g.promptName,
        g.totals.calls,
      ]),
    ).toEqual(
      [...expected.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([promptId, calls]) => [promptId, names[promptId], calls]),
    );
    expect(Object.keys(groups[0].totals).sort()).toEqual(Object.keys(totals).sort());
    expect(groups[0].totals).toMatchObject({ errors: 0, errorRate: 0, cacheHits: 0 });
    const plain = await t.http.get('/admin/v1/stats').query({ endpointId: id }).set(auth(tenant.admin));
    expect(plain.body.data.groups).toBeUndefined();
    const bad = await t.http.get('/admin/v1/stats').query({ groupBy: 'model' }).set(auth(tenant.admin));
    expect(bad.status).toBe(400);
  });

  it('GET /admin/v1/stats?source=Api counts the execution API’s calls alone, not test runs or MCP runs', async () => {
    const { id, path, control, candidate } = await splitEndpoint();
    await setSplit(id, splitOf('none', [control.id, 50], [candidate.id, 50])).expect(200);
    for (let call = 0; call < 3; call++) await execute(path, {}, { text: `a${call}` }).expect(200);
    await execute(`${path}?prompt=${control.slug}`, {}, { text: 'pinned' }).expect(200);
    // A test run of the candidate, and an MCP run of the control: neither is a call through the API.
    await t.http
      .post(`/admin/v1/endpoints/${id}/test`)
      .set(auth(tenant.admin))
      .send({ promptId: candidate.id, inputs: { text: 't' } })
      .expect(200);
    const ran = await mcp.callTool({
      name: 'run_endpoint',
      arguments: { endpointId: id, prompt: control.slug, inputs: { text: 'm' } },
    });
    expect(ran.isError).toBeFalsy();
    await t.app.get(ExecutionLogsService).flush();
    const callsByPrompt = async (query: Record<string, string>) => {
      const res = await t.http
        .get('/admin/v1/stats')
        .query({ endpointId: id, groupBy: 'prompt', ...query })
        .set(auth(tenant.admin));
      expect(res.status).toBe(200);
      const groups = res.body.data.groups as { promptId: string; totals: { calls: number } }[];
      return {
        total: res.body.data.totals.calls as number,
        byPrompt: Object.fromEntries(groups.map((group) => [group.promptId, group.totals.calls])),
      };
    };
    const apiLogs = await logsOf({ endpointId: id, source: 'Api' });
    const apiCalls = (promptId: string) => apiLogs.filter((log) => log.promptId === promptId).length;
    const onlyApi = await callsByPrompt({ source: 'Api' });
    expect(onlyApi.total).toBe(4);
    expect(onlyApi.total).toBe(apiLogs.length);
    for (const prompt of [control, candidate]) expect(onlyApi.byPrompt[prompt.id] ?? 0).toBe(apiCalls(prompt.id));
    // Without the source, every source but evaluation runs counts: the test run and the MCP run too.
    const all = await callsByPrompt({});
    expect(all.total).toBe(6);
    expect(all.byPrompt[candidate.id]).toBe(apiCalls(candidate.id) + 1);
    expect(all.byPrompt[control.id]).toBe(apiCalls(control.id) + 1);
    const bad = await t.http
      .get('/admin/v1/stats')
      .query({ endpointId: id, source: 'TestPage' })
      .set(auth(tenant.admin));
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toEqual([expect.stringContaining('source')]);
  });

  it('through MCP: update_endpoint sets the split, run_endpoint follows it as REST does', async () => {
    const { id, path, control, candidate } = await splitEndpoint();
    const tools = await mcp.listTools();
    const update = tools.tools.find((tool) => tool.name === 'update_endpoint')!;
    expect(update.inputSchema.properties).toHaveProperty('trafficSplit');
    const split: TrafficSplit = splitOf('key', [control.id, 50], [candidate.id, 50]);
    const updated = await mcp.callTool({ name: 'update_endpoint', arguments: { id, trafficSplit: split } });
    expect(toolJson(updated).trafficSplit).toEqual(split);
    const invalid = await mcp.callTool({
      name: 'update_endpoint',
      arguments: { id, trafficSplit: { ...split, variants: [split.variants[0]] } },
    });
    expect(invalid.isError).toBe(true);
    expect(toolText(invalid)).toContain('trafficSplit.variants must contain at least 2 elements');

    // The admin key sticks to one variant: the same through REST and MCP.
    const rest = await execute(path, {}, { text: 'r' }, tenant.admin);
    const expected = assignVariant(split, id, keyIds.get('admin')!) === control.id ? control : candidate;
    expect(rest.headers['x-prompt']).toBe(xPrompt(expected));
    const ran = await mcp.callTool({ name: 'run_endpoint', arguments: { endpointId: id, inputs: { text: 'm' } } });
    expect(toolJson(ran)).toEqual({ output: `${expected.name.toLowerCase()} m` });
    const logs = await logsOf({ endpointId: id, source: 'Internal' });
    expect(logs.map((log) => [log.promptId, log.assignment])).toEqual([[expected.id, 'split']]);
  });
});
