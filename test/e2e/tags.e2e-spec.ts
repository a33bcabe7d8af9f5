import { runCliCommand } from '../../src/cli/cli-commands';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import type { NewExecutionLog } from '../../src/modules/logs/new-execution-log';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { FakeLlmServer, localModelsFile } from '../support/fake-llm-server';
import { logEntry } from '../support/log-fixtures';
import { connectMcp, toolJson } from '../support/mcp-client';
import { auth, seedTenant, type SeededTenant } from '../support/seed';
import { createTestApp, type TestApp } from '../support/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Periods holding more executions than this are answered from the rollups (percentiles estimated). */
const EXACT_ROWS = 20;

/**
 * Request tags: given by X-Tags (plain and streamed calls), a test run's `tags`, MCP's `tags` and a key's
 * `defaultTags`; stored on each log row; filtered and grouped by in GET /logs, GET /stats and their MCP tools.
 */
describe('request tags', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let fake: FakeLlmServer;
  let models: ReturnType<typeof localModelsFile>;
  let endpoint: { id: string; path: string };
  let promptId: string;

  beforeAll(async () => {
    fake = await FakeLlmServer.start();
    fake.replyBy(() => ({ text: 'fake answer', inputTokens: 3, outputTokens: 2 }));
    models = localModelsFile(fake);
    t = await createTestApp({ statsExactPercentileRows: EXACT_ROWS }, { MODELS_FILE: models.file });
    await t.app.listen(0, '127.0.0.1');
    tenant = await seedTenant(t.app);
    endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
    promptId = (
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'Say {{ inputs.text }}', llmModel: 'llama-test' })
    ).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    models.remove();
  });

  const execute = (path: string, key: string, tags?: string, body: object = { text: 'hi' }) => {
    const call = t.http.post(path).set(auth(key));
    if (tags !== undefined) call.set('X-Tags', tags);
    return call.send(body);
  };
  /** A streamed call of the endpoint with the header X-Tags `tags`. */
  const streamed = (tags: string) =>
    t.http
      .post(`${endpoint.path}?stream=true`)
      .set({ ...auth(tenant.endpointKey), 'X-Tags': tags })
      .send({ text: 'hi' });

  /** The log rows matching `query` (an endpoint's, say), once at least `count` are written. */
  async function logs(query: string, count: number): Promise<any[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await t.http.get(`/admin/v1/logs?pageSize=50&${query}`).set(auth(tenant.admin));
      expect(res.status).toBe(200);
      if (res.body.data.items.length >= count || Date.now() > deadline) return res.body.data.items;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The tags of the row answered with `requestId`. */
  async function tagsOf(requestId: string): Promise<Record<string, string>> {
    const [row] = await logs(`requestId=${requestId}`, 1);
    expect(row).toBeDefined();
    const detail = await t.http.get(`/admin/v1/logs/${row.id}`).set(auth(tenant.admin));
    expect(detail.body.data.tags).toEqual(row.tags);
    return row.tags;
  }

  describe('X-Tags on executions', () => {
    it('stores the tags of a plain call on its log row, percent-decoded', async () => {
      const res = await execute(endpoint.path, tenant.endpointKey, 'team=search, q=100%25,list=a%2Cb,eq=x%3Dy');
      expect(res.status).toBe(200);
      expect(await tagsOf(res.headers['x-request-id'])).toEqual({ team: 'search', q: '100%', list: 'a,b', eq: 'x=y' });
    });

    it('stores the tags of a streamed call', async () => {
      const res = await streamed('mode=stream');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(await tagsOf(res.headers['x-request-id'])).toEqual({ mode: 'stream' });
    });

    it('logs `{}` for a call without tags', async () => {
      const res = await execute(endpoint.path, tenant.endpointKey);
      expect(await tagsOf(res.headers['x-request-id'])).toEqual({});
    });

    const refusals: [string, string, string][] = [
      [
        'an upper-case key',
        'Team=x',
        "X-Tags: the key 'Team' is not a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -",
      ],
      [
        'a key of 41 characters',
        `k${'a'.repeat(40)}=x`,
        `X-Tags: the key 'k${'a'.repeat(40)}' is not a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -`,
      ],
      ['an entry without =', 'team', "X-Tags: the tag 'team' is not key=value"],
      ['an empty value', 'team=', "X-Tags: the tag 'team' has an empty value"],
      [
        'a value of 129 characters',
        `team=${'v'.repeat(129)}`,
        "X-Tags: the value of tag 'team' is longer than 128 characters",
      ],
      ['a key given twice', 'team=a,team=b', "X-Tags: the tag 'team' is given more than once"],
      ['a bad percent-encoding', 'team=50%', "X-Tags: the value of tag 'team' has an invalid percent-encoding"],
      [
        '11 tags',
        Array.from({ length: 11 }, (_, i) => `t${i}=v`).join(','),
        "X-Tags has more than 10 tags, from 't10=v' on",
      ],
      ['a header over 2 KiB', `a=${'v'.repeat(2100)}`, 'X-Tags is longer than 2048 bytes'],
      ['an empty entry', 'a=1,,b=2', 'X-Tags has an empty entry: each tag is key=value'],
      [
        'a raw UTF-8 value (not percent-encoded)',
        Buffer.from('city=Köln').toString('latin1'),
        'X-Tags has a character that is not printable ASCII at position 7: percent-encode it as UTF-8',
      ],
    ];
    it.each(refusals)(
      'refuses %s with 400 naming the tag, before the model is called, without a log row',
      async (_label, header, message) => {
        const before = fake.requests.length;
        const res = await execute(endpoint.path, tenant.endpointKey, header);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'validation_error', field: 'X-Tags', message });
        expect(fake.requests.length).toBe(before);
        // A later call's row is written; the refused call's never is.
        const next = await execute(endpoint.path, tenant.endpointKey);
        await logs(`requestId=${next.headers['x-request-id']}`, 1);
        expect(await logs(`requestId=${res.headers['x-request-id']}`, 0)).toEqual([]);
      },
    );

    it('refuses a bad header on a streamed call as a plain 400', async () => {
      const res = await streamed('bad key=x');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_error', field: 'X-Tags' });
    });

    it('logs a cache hit with its own request tags (tags are not part of the cache key)', async () => {
      const cached = await createEndpoint(t, tenant.admin, {
        cacheEnabled: true,
        cacheDurationSeconds: 300,
        inputs: [{ name: 'text', dataType: 'string' }],
      });
      await createPrompt(t, tenant.admin, cached.id, { template: 'Cached {{ inputs.text }}', llmModel: 'llama-test' });
      const first = await execute(cached.path, tenant.endpointKey, 'user=alice', { text: 'same' });
      expect(first.headers['x-cache']).toBe('MISS');
      const second = await execute(cached.path, tenant.endpointKey, 'user=bob', { text: 'same' });
      expect(second.headers['x-cache']).toBe('HIT');
      expect(await tagsOf(first.headers['x-request-id'])).toEqual({ user: 'alice' });
      expect(await tagsOf(second.headers['x-request-id'])).toEqual({ user: 'bob' });
    });
  });

  describe("a key's defaultTags", () => {
    it('are given at creation, shown on the key, and added under the request tags (the request wins)', async () => {
      const created = await t.http
        .post('/admin/v1/keys')
        .set(auth(tenant.admin))
        .send({ name: 'tagged', type: 'endpoint', defaultTags: { team: 'billing', env: 'prod' } });
      expect(created.status).toBe(201);
      expect(created.body.data.defaultTags).toEqual({ team: 'billing', env: 'prod' });
      const listed = await t.http.get(`/admin/v1/keys/${created.body.data.id}`).set(auth(tenant.admin));
      expect(listed.body.data.defaultTags).toEqual({ team: 'billing', env: 'prod' });
      const plain = await execute(endpoint.path, created.body.data.key);
      expect(await tagsOf(plain.headers['x-request-id'])).toEqual({ team: 'billing', env: 'prod' });
      const own = await execute(endpoint.path, created.body.data.key, 'team=search,user=u1');
      expect(await tagsOf(own.headers['x-request-id'])).toEqual({ team: 'search', env: 'prod', user: 'u1' });
    });

    it('are `{}` on a key created without them', async () => {
      const created = await t.http.post('/admin/v1/keys').set(auth(tenant.admin)).send({ name: 'x', type: 'admin' });
      expect(created.body.data.defaultTags).toEqual({});
    });

    it.each([
      [
        { Team: 'x' },
        "defaultTags: the key 'Team' is not a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -",
      ],
      [{ team: '' }, "defaultTags: the tag 'team' has an empty value"],
      [{ team: 7 }, "defaultTags: the value of tag 'team' must be a string"],
      [['team'], 'defaultTags must be an object of tag values (strings) by key'],
      [
        Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`t${i}`, 'v'])),
        'defaultTags has 11 tags; at most 10 are allowed',
      ],
    ])('refuses defaultTags %j with 400 naming the tag', async (defaultTags, message) => {
      const res = await t.http
        .post('/admin/v1/keys')
        .set(auth(tenant.admin))
        .send({ name: 'bad', type: 'endpoint', defaultTags });
      expect(res.status).toBe(400);
      expect(res.body.messages).toEqual([message]);
    });

    it('are given by the CLI with --tag key=value', async () => {
      const keyByCli = (...tags: string[]) =>
        runCliCommand(t.app, [
          ...['key', 'create', '--tenant', tenant.slug, '--type', 'endpoint'],
          ...tags.flatMap((tag) => ['--tag', tag]),
        ]);
      const result = await keyByCli('team=cli', 'expr=a=b');
      expect(result).toMatchObject({ exitCode: 0 });
      const key = result.stdout.at(-1)!;
      const res = await execute(endpoint.path, key);
      expect(await tagsOf(res.headers['x-request-id'])).toEqual({ team: 'cli', expr: 'a=b' });
      const bad = await keyByCli('Team=x');
      expect(bad.exitCode).not.toBe(0);
      expect(bad.stderr.join('\n')).toContain("defaultTags: the key 'Team' is not");
    });
  });

  describe('test runs and MCP', () => {
    it("stores a test run's tags, and refuses bad ones naming the tag", async () => {
      const run = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(auth(tenant.admin))
        .send({ promptId, inputs: { text: 'x' }, tags: { source: 'dashboard', 'case.id': '42' } });
      expect(run.status).toBe(200);
      const detail = await t.http.get(`/admin/v1/logs/${run.body.data.logId}`).set(auth(tenant.admin));
      expect(detail.body.data.tags).toEqual({ source: 'dashboard', 'case.id': '42' });
      const bad = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(auth(tenant.admin))
        .send({ promptId, inputs: { text: 'x' }, tags: { source: 'v'.repeat(129) } });
      expect(bad.status).toBe(400);
      expect(bad.body.messages).toEqual(["tags: the value of tag 'source' is longer than 128 characters"]);
    });

    it('run_endpoint takes tags; list_logs and get_stats take the tag filters', async () => {
      const client = await connectMcp(await t.app.getUrl(), tenant.admin);
      try {
        const ran = await client.callTool({
          name: 'run_endpoint',
          arguments: { endpointId: endpoint.id, inputs: { text: 'mcp' }, tags: { via: 'mcp-tool' } },
        });
        expect(ran.isError).toBeFalsy();
        const bad = await client.callTool({
          name: 'run_endpoint',
          arguments: { endpointId: endpoint.id, inputs: { text: 'mcp' }, tags: { Via: 'x' } },
        });
        expect(bad.isError).toBe(true);
        expect(JSON.stringify(bad.content)).toContain("the key 'Via' is not");
        await logs('tag=via:mcp-tool', 1);
        const listed = toolJson(await client.callTool({ name: 'list_logs', arguments: { tag: ['via:mcp-tool'] } }));
        expect(listed.items.map((row: any) => [row.source, row.tags])).toEqual([['Internal', { via: 'mcp-tool' }]]);
        const present = toolJson(await client.callTool({ name: 'list_logs', arguments: { hasTag: ['via'] } }));
        expect(present.items).toHaveLength(1);
        const stats = toolJson(
          await client.callTool({ name: 'get_stats', arguments: { tag: ['via:mcp-tool'], groupBy: 'tag:via' } }),
        );
        expect(stats.totals.calls).toBe(1);
        expect(stats.groups[0]).toMatchObject({ tag: { key: 'via', value: 'mcp-tool' }, totals: { calls: 1 } });
      } finally {
        await client.close();
      }
    });
  });

  describe('GET /logs and GET /stats filters', () => {
    let own: SeededTenant;
    let endpointId: string;
    /** UTC midnight three days ago: the seeded rows lie in its first hours. */
    const day = new Date(Math.floor(Date.now() / DAY) * DAY - 3 * DAY);
    const at = (hours: number, minutes = 0) => new Date(day.getTime() + hours * HOUR + minutes * 60_000);
    const seeded: NewExecutionLog[] = [];

    const list = async (query: string) => {
      const res = await t.http.get(`/admin/v1/logs?pageSize=50&${query}`).set(auth(own.admin));
      expect(res.status).toBe(200);
      return res.body.data;
    };
    const stats = async (query: string) => {
      const res = await t.http.get(`/admin/v1/stats?${query}`).set(auth(own.admin));
      expect(res.status).toBe(200);
      return res.body.data;
    };
    const period = (fromHour: number, toHour: number) =>
      `from=${at(fromHour).toISOString()}&to=${at(toHour).toISOString()}`;

    beforeAll(async () => {
      own = await seedTenant(t.app);
      endpointId = (await createEndpoint(t, own.admin, { name: 'tagged' })).id;
      const writer = t.app.get(ExecutionLogsService);
      // 10:00-11:59: 105 customers, customer c000 with 10 calls, c001 with 9 … c009 with 1, the other 95 with 1;
      // teams a (even) and b (odd) on every third row; 30 untagged rows.
      let n = 0;
      const add = (tags: Record<string, string>, extra: Partial<NewExecutionLog> = {}) => {
        const entry = logEntry(own.id, endpointId, {
          tags,
          createdAt: at(10 + (n % 2), n % 60),
          latencyMs: 100 + (n % 50),
          ...extra,
        });
        n++;
        seeded.push(entry);
        writer.record(entry);
      };
      for (let c = 0; c < 105; c++) {
        const customer = `c${String(c).padStart(3, '0')}`;
        for (let i = 0; i < Math.max(1, 10 - c); i++) {
          const team: Record<string, string> = n % 3 === 0 ? { team: n % 2 === 0 ? 'a' : 'b' } : {};
          add({ customer, ...team }, c === 1 && i === 0 ? { status: 'error', errorCode: 'timeout' } : {});
        }
      }
      for (let i = 0; i < 30; i++) add({}, i === 0 ? { status: 'error', errorCode: 'upstream_error' } : {});
      const deadline = Date.now() + 15_000;
      while ((await list(`endpointId=${endpointId}`)).total < seeded.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });

    const count = (predicate: (tags: Record<string, string>) => boolean) =>
      seeded.filter((entry) => predicate(entry.tags)).length;

    it('lists rows with a tag; the same key repeated means either value; different keys must all match', async () => {
      expect((await list('tag=customer:c000')).total).toBe(10);
      const either = await list('tag=customer:c000&tag=customer:c001');
      expect(either.total).toBe(19);
      expect(either.items.every((row: any) => ['c000', 'c001'].includes(row.tags.customer))).toBe(true);
      const both = await list('tag=customer:c000&tag=team:a');
      expect(both.total).toBe(count((tags) => tags.customer === 'c000' && tags.team === 'a'));
      expect(both.items.every((row: any) => row.tags.team === 'a' && row.tags.customer === 'c000')).toBe(true);
      expect((await list('hasTag=team')).total).toBe(count((tags) => 'team' in tags));
      expect((await list('hasTag=team&tag=customer:c002')).total).toBe(
        count((tags) => 'team' in tags && tags.customer === 'c002'),
      );
      expect((await list('tag=customer:nobody')).total).toBe(0);
      // A value holding a colon: split at the first one.
      expect((await list(`tag=${encodeURIComponent('customer:c000:x')}`)).total).toBe(0);
    });

    it('counts the rows of a tag exactly within a period and an endpoint, partial hours included', async () => {
      const within = (from?: Date, to?: Date) =>
        seeded.filter((row) => (!from || row.createdAt >= from) && (!to || row.createdAt < to));
      const bounds = (from?: Date, to?: Date) =>
        [from && `from=${from.toISOString()}`, to && `to=${to.toISOString()}`].filter(Boolean).join('&');
      for (const [from, to] of [
        [at(10), at(12)],
        [at(10, 30), at(11, 59)],
        [at(10, 15), at(10, 45)],
        [at(10, 30), undefined],
        [undefined, at(11, 20)],
        [at(-48), at(72)],
      ]) {
        const rows = within(from, to);
        const total = async (query: string) => (await list(`${bounds(from, to)}&${query}`)).total;
        expect(await total('tag=customer:c000')).toBe(rows.filter((r) => r.tags.customer === 'c000').length);
        expect(await total('tag=customer:c000&tag=customer:c001')).toBe(
          rows.filter((r) => ['c000', 'c001'].includes(r.tags.customer)).length,
        );
        expect(await total('hasTag=team')).toBe(rows.filter((r) => 'team' in r.tags).length);
        expect(await total(`hasTag=customer&endpointId=${endpointId}`)).toBe(
          rows.filter((r) => 'customer' in r.tags).length,
        );
      }
      const other = await createEndpoint(t, own.admin, { name: 'untagged' });
      expect((await list(`endpointId=${other.id}&tag=customer:c000`)).total).toBe(0);
      expect((await list(`endpointId=${other.id}&hasTag=team`)).total).toBe(0);
    });

    it.each([
      ['tag=team', 'tag: each tag must be key:value (a tag key, a colon, and a value of 1 to 128 characters)'],
      ['tag=Team:a', 'tag: each tag must be key:value (a tag key, a colon, and a value of 1 to 128 characters)'],
      ['tag=team:', 'tag: each tag must be key:value (a tag key, a colon, and a value of 1 to 128 characters)'],
      ['hasTag=Team', 'hasTag: each hasTag must be a tag key'],
    ])('refuses %s with 400 naming the parameter', async (query, message) => {
      for (const path of ['/admin/v1/logs', '/admin/v1/stats']) {
        const res = await t.http.get(`${path}?${query}`).set(auth(own.admin));
        expect(res.status).toBe(400);
        expect(res.body.messages).toEqual([message]);
      }
      const res = await t.http.get('/admin/v1/stats?groupBy=tag:Team').set(auth(own.admin));
      expect(res.status).toBe(400);
      expect(res.body.messages).toEqual(['groupBy must be prompt or tag:<key>']);
    });

    /** The groups the seeded rows of customer tags should give, computed here. */
    function expectedCustomerGroups(rows: NewExecutionLog[]) {
      const calls = new Map<string, number>();
      for (const row of rows)
        if (row.tags.customer) calls.set(row.tags.customer, (calls.get(row.tags.customer) ?? 0) + 1);
      const top = [...calls].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).slice(0, 100);
      const named = new Set(top.map(([value]) => value));
      return [
        ...top.map(([value, n]) => ({ value, calls: n })),
        { value: null, calls: rows.filter((row) => !named.has(row.tags.customer)).length },
      ];
    }

    for (const [name, fromHour, toHour] of [
      ['from the rollups (whole hours, more rows than the exact limit)', 10, 12],
      ['from the rows of partial hours', 10.5, 11.99],
      ['from the rows of a partial hour and the rollups of a whole one', 10.5, 12],
    ] as const) {
      describe(name, () => {
        const inPeriod = () => seeded.filter((row) => row.createdAt >= at(fromHour) && row.createdAt < at(toHour));

        it('filters the totals by a tag, by either value of a key, and by a key', async () => {
          const rows = inPeriod();
          const totals = async (query: string) => (await stats(`${period(fromHour, toHour)}&${query}`)).totals;
          expect((await totals('tag=customer:c000')).calls).toBe(rows.filter((r) => r.tags.customer === 'c000').length);
          const c001 = await totals('tag=customer:c001');
          expect(c001).toMatchObject({
            calls: rows.filter((r) => r.tags.customer === 'c001').length,
            errors: rows.filter((r) => r.tags.customer === 'c001' && r.status === 'error').length,
          });
          expect((await totals('tag=customer:c000&tag=customer:c001')).calls).toBe(
            rows.filter((r) => ['c000', 'c001'].includes(r.tags.customer)).length,
          );
          expect((await totals('hasTag=team')).calls).toBe(rows.filter((r) => 'team' in r.tags).length);
          expect((await totals('tag=team:a&tag=customer:c000')).calls).toBe(
            rows.filter((r) => r.tags.team === 'a' && r.tags.customer === 'c000').length,
          );
          // With groups by prompt: from the rows (the tag sums are not kept per prompt); these rows ran no prompt.
          const byPrompt = await stats(`${period(fromHour, toHour)}&tag=customer:c000&groupBy=prompt`);
          expect(byPrompt.totals.calls).toBe(rows.filter((r) => r.tags.customer === 'c000').length);
          expect(byPrompt.groups).toEqual([]);
        });

        it('groups by a tag key: the 100 most frequent values, then one group for the rest and the untagged', async () => {
          const rows = inPeriod();
          const data = await stats(`${period(fromHour, toHour)}&groupBy=tag:customer`);
          expect(data.totals.calls).toBe(rows.length);
          const groups = data.groups.map((group: any) => ({ value: group.tag.value, calls: group.totals.calls }));
          expect(groups).toEqual(expectedCustomerGroups(rows));
          expect(data.groups.every((group: any) => group.tag.key === 'customer')).toBe(true);
          const rest = data.groups.at(-1);
          expect(rest.totals.errorsByCode).toEqual(
            rows.some((r) => r.errorCode === 'upstream_error') ? { upstream_error: 1 } : {},
          );
          // Filtered by the same key: only that key's values, the rest group empty.
          const filtered = await stats(`${period(fromHour, toHour)}&groupBy=tag:customer&tag=customer:c001`);
          expect(filtered.groups.map((group: any) => [group.tag.value, group.totals.calls])).toEqual([
            ['c001', rows.filter((r) => r.tags.customer === 'c001').length],
            [null, 0],
          ]);
          // Filtered by another key: from the rows.
          const teamA = await stats(`${period(fromHour, toHour)}&groupBy=tag:customer&tag=team:a`);
          expect(teamA.totals.calls).toBe(rows.filter((r) => r.tags.team === 'a').length);
          expect(teamA.groups.map((group: any) => ({ value: group.tag.value, calls: group.totals.calls }))).toEqual(
            expectedCustomerGroups(rows.filter((r) => r.tags.team === 'a')),
          );
        });
      });
    }
  });

  it('describes X-Tags on every execution operation of the tenant document', async () => {
    const res = await t.http.get('/api/v1/openapi.json').set(auth(tenant.endpointKey));
    expect(res.status).toBe(200);
    // Every endpoint's operation (the scores route executes nothing).
    const operations = Object.entries(res.body.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path !== '/api/v1/_scores')
      .map(([, item]) => item.post);
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations) {
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ name: 'X-Tags', in: 'header', required: false, schema: expect.any(Object) }),
      );
    }
  });

  it('labels no metric with a tag', async () => {
    await execute(endpoint.path, tenant.endpointKey, 'metricprobe=zebra-value');
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('zebra-value');
    expect(res.text).not.toContain('metricprobe');
  });
});
