import { expectExecutionError, expectFailure, MISSING, UUID } from '../support/envelope';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { connectMcp, toolJson } from '../support/mcp-client';
import { useTestApp, useTwoInstances } from '../support/app-suite';
import { eventually } from '../support/eventually';
import { auth, seedTenant, type SeededTenant } from '../support/seed';
import type { TestApp } from '../support/test-app';

/** An endpoint of `tenant` answered by mock-echo, and a function running it with a key: the answer's request id. */
async function scoredEndpoint(t: TestApp, tenant: SeededTenant) {
  const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
  await createPrompt(t, tenant.admin, endpoint.id, { template: 'Say {{ inputs.text }}' });
  return async (key: string, text = 'hi'): Promise<string> => {
    const res = await t.http.post(endpoint.path).set(auth(key)).send({ text });
    expect(res.status).toBe(200);
    return res.headers['x-request-id'];
  };
}

/** The log row of `requestId`, once written (read through GET /logs, then its detail). */
async function logOf(t: TestApp, key: string, requestId: string): Promise<any> {
  const row = await eventually(async () => {
    const res = await t.http.get(`/admin/v1/logs?requestId=${requestId}`).set(auth(key));
    return res.body.data.items[0];
  }, `the log row of ${requestId}`);
  return (await t.http.get(`/admin/v1/logs/${row.id}`).set(auth(key))).body.data;
}

/**
 * Feedback scores: the score configs a tenant declares, scores recorded on executions through the execution API
 * (`POST /api/v1/_scores`), admin annotations and MCP, shown in log detail and filtered by in GET /logs.
 */
describe('feedback scores', () => {
  const { t, tenant, other } = useTestApp({ other: true, listen: true });

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
        'numeric with a bound so large its sums of squares would overflow',
        { name: 'x1', dataType: 'numeric', minimum: 1e308, maximum: 1.7976931348623157e308 },
        'maximum must be from -1000000000000000 to 1000000000000000',
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

  describe('scores', () => {
    let run: Awaited<ReturnType<typeof scoredEndpoint>>;
    const score = (key: string, body: unknown, host?: string) => {
      const call = t.http.post('/api/v1/_scores').set(auth(key));
      if (host) call.set('Host', host);
      return call.send(body as object);
    };
    const annotate = (key: string, logId: string, body: object) =>
      t.http.post(`/admin/v1/logs/${logId}/scores`).set(auth(key)).send(body);

    beforeAll(async () => {
      run = await scoredEndpoint(t, tenant);
      for (const body of [
        { name: 'helpful', dataType: 'boolean' },
        { name: 'stars', dataType: 'numeric', minimum: 1, maximum: 5 },
        { name: 'tone', dataType: 'categorical', categories: ['formal', 'casual'] },
        { name: 'unused', dataType: 'boolean' },
      ]) {
        const res = await configs().create(body);
        if (![201, 409].includes(res.status)) throw new Error(JSON.stringify(res.body));
      }
    });

    it('records the first score of a name with 201 and replaces it with 200, right after the execution', async () => {
      const requestId = await run(tenant.endpointKey);
      const first = await score(tenant.endpointKey, { requestId, name: 'helpful', value: true, comment: 'spot on' });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        requestId,
        name: 'helpful',
        value: true,
        comment: 'spot on',
        source: 'api',
        createdAt: expect.any(String),
      });
      const second = await score(tenant.endpointKey, { requestId, name: 'helpful', value: false });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ value: false, comment: null, createdAt: first.body.createdAt });
      const log = await logOf(t, tenant.admin, requestId);
      expect(log.scores).toEqual([
        { name: 'helpful', value: false, comment: null, source: 'api', createdAt: first.body.createdAt },
      ]);
    });

    it('types each value back in log detail: a boolean, a number, a category', async () => {
      const requestId = await run(tenant.endpointKey);
      expect((await score(tenant.endpointKey, { requestId, name: 'helpful', value: true })).status).toBe(201);
      expect((await score(tenant.endpointKey, { requestId, name: 'stars', value: 4.5 })).status).toBe(201);
      expect((await score(tenant.endpointKey, { requestId, name: 'tone', value: 'formal' })).status).toBe(201);
      const log = await logOf(t, tenant.admin, requestId);
      expect(log.scores.map((s: any) => [s.name, s.value])).toEqual([
        ['helpful', true],
        ['stars', 4.5],
        ['tone', 'formal'],
      ]);
    });

    it('takes any admin key of the tenant, ReadOnly ones too, on the tenant host', async () => {
      const requestId = await run(tenant.endpointKey);
      const res = await score(tenant.readOnly, { requestId, name: 'stars', value: 1 }, `${tenant.slug}.localhost`);
      expect(res.status).toBe(201);
      expect((await score(tenant.admin, { requestId, name: 'stars', value: 5 })).status).toBe(200);
    });

    it('answers 404 not_found for an unknown request id, another tenant’s, and one another endpoint key made', async () => {
      const requestId = await run(tenant.endpointKey);
      const created = await t.http
        .post('/admin/v1/keys')
        .set(auth(tenant.admin))
        .send({ name: 'second caller', type: 'endpoint', environment: 'live' });
      const secondKey = created.body.data.key as string;
      expectExecutionError(await score(secondKey, { requestId, name: 'helpful', value: true }), 404, 'not_found');
      expectExecutionError(await score(other.admin, { requestId, name: 'helpful', value: true }), 404, 'not_found');
      expectExecutionError(
        await score(tenant.endpointKey, { requestId: 'no-such-request', name: 'helpful', value: true }),
        404,
        'not_found',
      );
      // The key that made it still may.
      expect((await score(tenant.endpointKey, { requestId, name: 'helpful', value: true })).status).toBe(201);
    });

    it.each([
      ['an undeclared name', { name: 'nope', value: true }, 'name'],
      ['a name of another type', { name: 'helpful', value: 'yes' }, 'value'],
      ['a number for a boolean score', { name: 'helpful', value: 1 }, 'value'],
      ['a number below the minimum', { name: 'stars', value: 0.5 }, 'value'],
      ['a number above the maximum', { name: 'stars', value: 6 }, 'value'],
      ['a string for a numeric score', { name: 'stars', value: '4' }, 'value'],
      ['a value that is not a category', { name: 'tone', value: 'rude' }, 'value'],
      ['no value', { name: 'tone' }, 'value'],
      ['no name', { value: true }, 'name'],
      ['a comment of 2001 characters', { name: 'helpful', value: true, comment: 'c'.repeat(2001) }, 'comment'],
    ])('refuses %s with 400 validation_error naming the field', async (_, body, field) => {
      const requestId = await run(tenant.endpointKey);
      expectExecutionError(await score(tenant.endpointKey, { requestId, ...body }), 400, 'validation_error', field);
    });

    it('refuses a body without requestId, and one that is not an object', async () => {
      expectExecutionError(
        await score(tenant.endpointKey, { name: 'helpful', value: true }),
        400,
        'validation_error',
        'requestId',
      );
      expectExecutionError(await score(tenant.endpointKey, [1, 2]), 400, 'validation_error', null as never);
    });

    it('refuses a request without a valid key with 401', async () => {
      const res = await t.http.post('/api/v1/_scores').send({ requestId: 'x', name: 'helpful', value: true });
      expect(res.status).toBe(401);
    });

    it('keeps _scores from ever being an endpoint path', async () => {
      const res = await t.http
        .post('/admin/v1/endpoints')
        .set(auth(tenant.admin))
        .send({ name: 'shadow', path: '/api/v1/_scores' });
      expectFailure(res, 400, [/^path must match/]);
    });

    it('fixes a config’s name and type and refuses its deletion once a score uses it', async () => {
      const created = await configs().create({ name: 'fixed', dataType: 'boolean' });
      const id = created.body.data.id;
      const requestId = await run(tenant.endpointKey);
      expect((await score(tenant.endpointKey, { requestId, name: 'fixed', value: true })).status).toBe(201);
      expectFailure(await configs().update(id, { name: 'renamed' }), 409, [
        "Score config 'fixed' is used by recorded scores, so its name cannot change",
      ]);
      expectFailure(await configs().update(id, { dataType: 'numeric', minimum: 0, maximum: 1 }), 409, [
        "Score config 'fixed' is used by recorded scores, so its dataType cannot change",
      ]);
      expectFailure(await configs().remove(id), 409, [
        "Score config 'fixed' is used by recorded scores, so it cannot be deleted",
      ]);
      expect((await configs().update(id, { description: 'still fine' })).status).toBe(200);
      expect((await configs().get(id)).body.data.name).toBe('fixed');
    });

    describe('annotations', () => {
      it('records an admin’s score with source annotation: 201, then 200 when it replaces one', async () => {
        const requestId = await run(tenant.endpointKey);
        const log = await logOf(t, tenant.admin, requestId);
        const first = await annotate(tenant.admin, log.id, { name: 'tone', value: 'casual', comment: 'chatty' });
        expect(first.status).toBe(201);
        expect(first.body.data).toEqual({
          name: 'tone',
          value: 'casual',
          comment: 'chatty',
          source: 'annotation',
          createdAt: expect.any(String),
        });
        const again = await annotate(tenant.admin, log.id, { name: 'tone', value: 'formal' });
        expect(again.status).toBe(200);
        expect((await logOf(t, tenant.admin, requestId)).scores).toEqual([
          { name: 'tone', value: 'formal', comment: null, source: 'annotation', createdAt: first.body.data.createdAt },
        ]);
      });

      it('refuses ReadOnly keys (403), unknown and other tenants’ logs (404), and bad scores (400)', async () => {
        const requestId = await run(tenant.endpointKey);
        const log = await logOf(t, tenant.admin, requestId);
        expectFailure(await annotate(tenant.readOnly, log.id, { name: 'helpful', value: true }), 403);
        expectFailure(await annotate(tenant.admin, MISSING, { name: 'helpful', value: true }), 404);
        expectFailure(await annotate(other.admin, log.id, { name: 'helpful', value: true }), 404);
        expectFailure(await annotate(tenant.admin, log.id, { name: 'stars', value: 9 }), 400, [
          "value of score 'stars' must be between 1 and 5",
        ]);
        expectFailure(await annotate(tenant.admin, log.id, { name: 'nope', value: true }), 400, [
          "name: no score config is named 'nope'",
        ]);
        expectFailure(await annotate(tenant.admin, log.id, { name: 'helpful', value: { a: 1 } }), 400, [
          'value must be a boolean, a number or a category',
        ]);
        expect((await logOf(t, tenant.admin, requestId)).scores).toEqual([]);
      });
    });

    describe('MCP', () => {
      it('score_execution records an annotation; list_logs takes the score filter; get_log shows scores', async () => {
        const requestId = await run(tenant.endpointKey);
        const log = await logOf(t, tenant.admin, requestId);
        const client = await connectMcp(t.url, tenant.admin);
        try {
          const first = await client.callTool({
            name: 'score_execution',
            arguments: { id: log.id, name: 'stars', value: 3, comment: 'ok' },
          });
          expect(first.isError).toBeFalsy();
          expect(toolJson(first)).toEqual({
            score: { name: 'stars', value: 3, comment: 'ok', source: 'annotation', createdAt: expect.any(String) },
            created: true,
          });
          const again = await client.callTool({
            name: 'score_execution',
            arguments: { id: log.id, name: 'stars', value: 4 },
          });
          expect(toolJson(again).created).toBe(false);
          const bad = await client.callTool({
            name: 'score_execution',
            arguments: { id: log.id, name: 'stars', value: 7 },
          });
          expect(bad.isError).toBe(true);
          expect(JSON.stringify(bad.content)).toContain("value of score 'stars' must be between 1 and 5");
          const listed = toolJson(await client.callTool({ name: 'list_logs', arguments: { score: ['stars:4'] } }));
          expect(listed.items.map((row: any) => row.id)).toContain(log.id);
          const detail = toolJson(await client.callTool({ name: 'get_log', arguments: { id: log.id } }));
          expect(detail.scores).toMatchObject([{ name: 'stars', value: 4, source: 'annotation' }]);
        } finally {
          await client.close();
        }
      });

      it('does not offer score_execution to ReadOnly keys', async () => {
        const reader = await connectMcp(t.url, tenant.readOnly);
        try {
          const names = (await reader.listTools()).tools.map((tool) => tool.name);
          expect(names).toContain('list_logs');
          expect(names).not.toContain('score_execution');
        } finally {
          await reader.close();
        }
      });
    });

    describe('GET /logs?score=', () => {
      let ids: Record<string, string>;

      beforeAll(async () => {
        const scored = async (scores: [string, unknown][]) => {
          const requestId = await run(tenant.endpointKey, 'filter');
          for (const [name, value] of scores) {
            const res = await score(tenant.endpointKey, { requestId, name, value });
            if (res.status !== 201) throw new Error(JSON.stringify(res.body));
          }
          return (await logOf(t, tenant.admin, requestId)).id as string;
        };
        ids = {
          good: await scored([
            ['helpful', true],
            ['stars', 4.5],
            ['tone', 'formal'],
          ]),
          bad: await scored([
            ['helpful', false],
            ['stars', 2],
            ['tone', 'casual'],
          ]),
          none: await scored([]),
        };
      });

      const listed = async (query: string) => {
        const res = await t.http.get(`/admin/v1/logs?pageSize=50&${query}`).set(auth(tenant.readOnly));
        expect(res.status).toBe(200);
        const found = new Set(res.body.data.items.map((item: any) => item.id));
        return Object.keys(ids).filter((name) => found.has(ids[name]));
      };

      it.each([
        ['score=helpful', ['good', 'bad']],
        ['score=helpful:true', ['good']],
        ['score=helpful:false', ['bad']],
        ['score=stars:4.5', ['good']],
        ['score=stars:2', ['bad']],
        ['score=tone:formal', ['good']],
        ['score=tone:formal&score=tone:casual', ['good', 'bad']],
        ['score=tone:formal&score=helpful:false', []],
        ['score=tone:casual&score=helpful:false&score=stars', ['bad']],
        ['score=unused', []],
      ])('%s lists the executions with those scores', async (query, expected) => {
        expect(await listed(query)).toEqual(expected);
      });

      it('counts what it filters', async () => {
        const res = await t.http.get('/admin/v1/logs?score=helpful:true&score=stars:4.5').set(auth(tenant.admin));
        expect(res.body.data.total).toBeGreaterThanOrEqual(1);
        expect(res.body.data.items.every((item: any) => item.id !== ids.bad)).toBe(true);
      });

      it.each(['Helpful', 'helpful:', `helpful:${'x'.repeat(65)}`])('refuses score=%s with 400', async (value) => {
        const res = await t.http.get(`/admin/v1/logs?score=${encodeURIComponent(value)}`).set(auth(tenant.admin));
        expectFailure(res, 400, [/^score: each score must be a score name, or name:value/]);
      });
    });
  });
});

describe('the score rate limit', () => {
  const { t, tenant } = useTestApp({ env: { SCORE_RATE_LIMIT_PER_MINUTE: '2' } });

  it('counts scores in their own per-key window: the third in a minute gets 429 with Retry-After', async () => {
    const run = await scoredEndpoint(t, tenant);
    await t.http.post('/admin/v1/score-configs').set(auth(tenant.admin)).send({ name: 'ok', dataType: 'boolean' });
    const requestId = await run(tenant.endpointKey);
    const score = () =>
      t.http.post('/api/v1/_scores').set(auth(tenant.endpointKey)).send({ requestId, name: 'ok', value: true });
    expect((await score()).status).toBe(201);
    const second = await score();
    expect(second.status).toBe(200);
    expect(second.headers['x-ratelimit-limit']).toBe('2');
    const refused = await score();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'rate_limit_exceeded',
      message: expect.any(String),
      retry_after: Number(refused.headers['retry-after']),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Executions are counted apart.
    expect(await run(tenant.endpointKey)).toEqual(expect.any(String));
  });
});

// Two instances on one PostgreSQL and one Redis: a score recorded on one shows in log detail on the other.
const shared = process.env.DATABASE_URL && process.env.REDIS_URL ? describe : describe.skip;

shared('scores on two instances (skipped unless DATABASE_URL and REDIS_URL are set)', () => {
  const { a, b, tenant } = useTwoInstances();

  it('shows a score recorded on one instance, for an execution run on the other, in log detail within 5 s', async () => {
    const run = await scoredEndpoint(a, tenant);
    await a.http.post('/admin/v1/score-configs').set(auth(tenant.admin)).send({ name: 'shared', dataType: 'boolean' });
    const requestId = await run(tenant.endpointKey);
    // Sent to B at once: A may not have written the log row yet.
    const recorded = await b.http
      .post('/api/v1/_scores')
      .set(auth(tenant.endpointKey))
      .send({ requestId, name: 'shared', value: true });
    expect(recorded.status).toBe(201);
    const started = Date.now();
    const log = await logOf(a, tenant.admin, requestId);
    const scores = await eventually(async () => {
      const detail = await a.http.get(`/admin/v1/logs/${log.id}`).set(auth(tenant.admin));
      return detail.body.data.scores.length > 0 ? detail.body.data.scores : undefined;
    }, 'the score on the other instance');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(scores).toEqual([
      { name: 'shared', value: true, comment: null, source: 'api', createdAt: expect.any(String) },
    ]);
  });
});
