import { runCliCommand } from '../../src/cli/cli-commands';
import { useTestApp } from '../support/app-suite';
import { createEndpoint, endpointWithPrompt } from '../support/endpoint-fixtures';
import { expectFailure, MISSING, UUID } from '../support/envelope';
import { logOf } from '../support/log-rows';
import { connectMcp, toolJson, toolText } from '../support/mcp-client';
import { auth } from '../support/seed';
import { namesOf, streamCall } from '../support/sse-client';

/**
 * The worst case of a call of 'Q: hi' (5 bytes, bounded by bytes: the priced model is not OpenAI's) on the priced
 * model with maxTokens 100: (5 + 16 overhead) input and 100 output tokens at $0.001 each.
 */
const WORST_CASE = 0.121;
/** What the fake provider's default answer costs on the priced model: 11 input and 7 output tokens. */
const ACTUAL = 0.018;
const PRICED = { template: 'Q: {{ inputs.text }}', llmModel: 'llama-priced', maxTokens: 100 };

/** Seconds from now to the next midnight UTC. */
function secondsToMidnight(): number {
  const now = new Date();
  return (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
}

describe('spend budgets', () => {
  const { t, tenant, other, fake } = useTestApp({
    fake: { priced: true },
    other: true,
    listen: true,
    env: { ADMIN_RATE_LIMIT_PER_MINUTE: '100000' },
  });

  const createBudget = (body: object, key = tenant.admin) => t.http.post('/admin/v1/budgets').set(auth(key)).send(body);
  const getBudget = async (id: string) =>
    (await t.http.get(`/admin/v1/budgets/${id}`).set(auth(tenant.admin))).body.data;
  const execute = (path: string, body: object = { text: 'hi' }, headers: Record<string, string> = {}) =>
    t.http
      .post(path)
      .set({ ...auth(tenant.endpointKey), ...headers })
      .send(body);
  /** A fresh endpoint whose default prompt is PRICED (`spec` changes it), with a budget of `limitUsd` a day on it. */
  async function budgetedEndpoint(limitUsd: number, spec: object = {}, endpointSettings: Record<string, unknown> = {}) {
    const { endpoint, prompt } = await endpointWithPrompt(t, tenant.admin, { ...PRICED, ...spec }, endpointSettings);
    const created = await createBudget({
      name: `endpoint ${endpoint.path}`,
      scope: { type: 'endpoint', endpointId: endpoint.id },
      period: 'day',
      limitUsd,
    });
    expect(created.status).toBe(201);
    return { endpoint, prompt, budget: created.body.data };
  }

  describe('the resource', () => {
    it('creates, reads, lists, changes and deletes a budget, each read with its status for the current UTC period', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const created = await createBudget({
        name: 'Partner endpoint',
        scope: { type: 'endpoint', endpointId: endpoint.id },
        period: 'month',
        limitUsd: 12.345678,
      });
      expect(created.status).toBe(201);
      const now = new Date();
      expect(created.body.data).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Partner endpoint',
        scope: { type: 'endpoint', endpointId: endpoint.id },
        period: 'month',
        limitUsd: 12.345678,
        enabled: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        status: {
          periodStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
          periodEnd: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
          spentUsd: 0,
          reservedUsd: 0,
          remainingUsd: 12.345678,
        },
      });
      const id = created.body.data.id;
      expect(await getBudget(id)).toEqual(created.body.data);
      const list = await t.http.get('/admin/v1/budgets').set(auth(tenant.readOnly));
      expect(list.status).toBe(200);
      expect(list.body.data).toContainEqual(created.body.data);

      const changed = await t.http
        .put(`/admin/v1/budgets/${id}`)
        .set(auth(tenant.admin))
        .send({ limitUsd: 5, enabled: false, period: 'day', name: 'Renamed' });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ limitUsd: 5, enabled: false, period: 'day', name: 'Renamed' });
      expect(changed.body.data.status.remainingUsd).toBe(5);
      expect(await getBudget(id)).toMatchObject({ limitUsd: 5, enabled: false, period: 'day' });

      const deleted = await t.http.delete(`/admin/v1/budgets/${id}`).set(auth(tenant.admin));
      expect(deleted.status).toBe(200);
      expectFailure(await t.http.get(`/admin/v1/budgets/${id}`).set(auth(tenant.admin)), 404, [
        `Budget ${id} not found`,
      ]);
      expectFailure(await t.http.delete(`/admin/v1/budgets/${id}`).set(auth(tenant.admin)), 404);
    });

    it.each([
      [{ limitUsd: 0 }, /limitUsd must be a positive number/],
      [{ limitUsd: -1 }, /limitUsd must be a positive number/],
      [{ limitUsd: 1_000_000.000001 }, /limitUsd must not be greater than 1000000/],
      [{ limitUsd: 0.0000001 }, /limitUsd must be a number with at most 6 decimals/],
      [{ limitUsd: '5' }, /limitUsd must be a number/],
      [{ period: 'week' }, /period must be one of the following values: day, month/],
      [{ scope: { type: 'team' } }, /scope\.type must be one of the following values/],
      [{ scope: { type: 'key' } }, /scope\.keyId is required for a key scope/],
      [{ scope: { type: 'tenant', keyId: MISSING } }, /scope\.keyId is not allowed for a tenant scope/],
      [{ scope: { type: 'tag', tag: 'no-colon' } }, /scope\.tag: must be key:value/],
      [{ scope: { type: 'tag', tag: 'Bad Key:x' } }, /scope\.tag: the key 'Bad Key' is not/],
      [{ scope: { type: 'endpoint', endpointId: 'not-a-uuid' } }, /scope\.endpointId must be a UUID/],
      [{ scope: 'tenant' }, /scope must be an object/],
      [{ name: '' }, /name must be longer than or equal to 1 characters/],
    ])('refuses %j with a 400 naming the field', async (change, message) => {
      const res = await createBudget({ name: 'b', scope: { type: 'tenant' }, period: 'day', limitUsd: 1, ...change });
      expect(res.status).toBe(400);
      expect(res.body.messages).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
    });

    it("answers 404 for a key or an endpoint that is not the tenant's", async () => {
      const theirs = await createEndpoint(t, other.admin);
      for (const scope of [
        { type: 'key', keyId: MISSING },
        { type: 'endpoint', endpointId: MISSING },
        { type: 'endpoint', endpointId: theirs.id },
      ]) {
        const res = await createBudget({ name: 'b', scope, period: 'day', limitUsd: 1 });
        expect(res.status).toBe(404);
      }
    });

    it('answers 409 for a second budget of the same scope and period, by create or by change', async () => {
      const first = await createBudget({
        name: 'a',
        scope: { type: 'tag', tag: 'team:dup' },
        period: 'day',
        limitUsd: 1,
      });
      expect(first.status).toBe(201);
      const again = await createBudget({
        name: 'b',
        scope: { type: 'tag', tag: 'team:dup' },
        period: 'day',
        limitUsd: 2,
      });
      expectFailure(again, 409, ['This scope already has a daily budget: change that one']);
      const monthly = await createBudget({
        name: 'c',
        scope: { type: 'tag', tag: 'team:dup' },
        period: 'month',
        limitUsd: 2,
      });
      expect(monthly.status).toBe(201);
      const clash = await t.http
        .put(`/admin/v1/budgets/${monthly.body.data.id}`)
        .set(auth(tenant.admin))
        .send({ period: 'day' });
      expect(clash.status).toBe(409);
    });

    it('keeps tenants apart, and refuses writes with a ReadOnly key', async () => {
      const mine = await createBudget({
        name: 'mine',
        scope: { type: 'tag', tag: 'team:own' },
        period: 'day',
        limitUsd: 1,
      });
      const id = mine.body.data.id;
      expect((await t.http.get(`/admin/v1/budgets/${id}`).set(auth(other.admin))).status).toBe(404);
      expect((await t.http.put(`/admin/v1/budgets/${id}`).set(auth(other.admin)).send({ limitUsd: 2 })).status).toBe(
        404,
      );
      expect((await t.http.delete(`/admin/v1/budgets/${id}`).set(auth(other.admin))).status).toBe(404);
      const theirs = (await t.http.get('/admin/v1/budgets').set(auth(other.admin))).body.data;
      expect(theirs.map((budget: { id: string }) => budget.id)).not.toContain(id);
      const readOnly = await createBudget(
        { name: 'x', scope: { type: 'tenant' }, period: 'day', limitUsd: 1 },
        tenant.readOnly,
      );
      expect(readOnly.status).toBe(403);
      expect((await t.http.delete(`/admin/v1/budgets/${id}`).set(auth(tenant.readOnly))).status).toBe(403);
      expect((await t.http.get(`/admin/v1/budgets/${id}`).set(auth(tenant.endpointKey))).status).toBe(403);
    });

    it("refuses a tenant's 101st budget, also to creations that race for the last places", async () => {
      const tagBudget = (n: number) =>
        createBudget(
          { name: `race ${n}`, scope: { type: 'tag', tag: `race:v${n}` }, period: 'day', limitUsd: 1 },
          other.admin,
        );
      const existing = (await t.http.get('/admin/v1/budgets').set(auth(other.admin))).body.data.length;
      const created: string[] = [];
      for (let n = existing; n < 97; n++) {
        const answer = await tagBudget(n);
        expect(answer.status).toBe(201);
        created.push(answer.body.data.id);
      }
      const racing = await Promise.all([97, 98, 99, 100, 101, 102].map(tagBudget));
      expect(racing.filter((answer) => answer.status === 201)).toHaveLength(3);
      for (const refused of racing.filter((answer) => answer.status !== 201))
        expectFailure(refused, 409, ['A tenant may have at most 100 budgets: delete one first']);
      expect((await t.http.get('/admin/v1/budgets').set(auth(other.admin))).body.data).toHaveLength(100);
      created.push(...racing.filter((answer) => answer.status === 201).map((answer) => answer.body.data.id));
      for (const id of created) await t.http.delete(`/admin/v1/budgets/${id}`).set(auth(other.admin));
    });
  });

  it('lists the budgets with their status from the CLI', async () => {
    const { budget } = await budgetedEndpoint(0.5);
    const listed = await runCliCommand(t.app, ['budget', 'list', '--tenant', tenant.slug]);
    expect(listed.exitCode).toBe(0);
    const line = listed.stdout.find((each) => each.startsWith(budget.id));
    expect(line).toMatch(
      / endpoint +[0-9a-f-]{36} +day +limit \$0\.500000 +spent \$0\.000000 +reserved \$0\.000000 +remaining \$0\.500000 +enabled +endpoint /,
    );
    const none = await runCliCommand(t.app, ['budget', 'list', '--tenant', 'no-such-tenant']);
    expect(none.exitCode).toBe(1);
  });

  describe('enforcement', () => {
    it('refuses the attempt whose worst case would go over the limit, only once less than that is left', async () => {
      const { endpoint, budget } = await budgetedEndpoint(0.2);
      // 0.018 a call: spent + 0.121 stays within 0.2 for 5 calls (up to 0.072 spent before the fifth).
      for (let i = 0; i < 5; i++) expect((await execute(endpoint.path)).status).toBe(200);
      expect(fake.requests).toHaveLength(5);
      const refused = await execute(endpoint.path, { text: 'hi' }, { 'x-request-id': 'budget-refused-1' });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: 'budget_exceeded',
        message: expect.stringMatching(
          /daily budget '.+' has \$0\.11 left of \$0\.20; this call may cost up to \$0\.121/,
        ),
        retry_after: expect.any(Number),
      });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBe(refused.body.retry_after);
      expect(Math.abs(retryAfter - secondsToMidnight())).toBeLessThanOrEqual(5);
      // The provider was not called, and the refusal is logged.
      expect(fake.requests).toHaveLength(5);
      const log = await logOf(t, tenant.admin, 'budget-refused-1');
      expect(log).toMatchObject({ status: 'error', httpStatus: 429, errorCode: 'budget_exceeded', costUsd: null });

      const status = (await getBudget(budget.id)).status;
      expect(status.spentUsd).toBeCloseTo(5 * ACTUAL, 9);
      expect(status.reservedUsd).toBe(0);
      expect(status.remainingUsd).toBeCloseTo(0.2 - 5 * ACTUAL, 9);
      expect(status.remainingUsd).toBeLessThan(WORST_CASE);

      // A higher limit lets calls through again, on every instance, from the next call.
      await t.http.put(`/admin/v1/budgets/${budget.id}`).set(auth(tenant.admin)).send({ limitUsd: 1 });
      expect((await execute(endpoint.path)).status).toBe(200);
    });

    it('lets exactly one of several calls made at once through when the budget has room for one', async () => {
      const { endpoint, budget } = await budgetedEndpoint(0.2);
      // Each call may cost 0.121: two at once would go over 0.2. The one let through is held back while the others
      // are decided, so its reservation is still in place.
      fake.reply({ text: 'fake reply', delayMs: 1_000 });
      const answers = await Promise.all(Array.from({ length: 4 }, () => execute(endpoint.path)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429, 429, 429]);
      for (const refused of answers.filter((answer) => answer.status === 429)) expectBudgetRefusal(refused);
      expect(fake.requests).toHaveLength(1);
      // Its reservation was replaced by what it cost.
      const status = (await getBudget(budget.id)).status;
      expect(status.spentUsd).toBeCloseTo(ACTUAL, 9);
      expect(status.reservedUsd).toBe(0);
    });

    it("applies a key's, the tenant's and a tag's budgets, and disabled budgets refuse nothing", async () => {
      const { endpoint } = await endpointWithPrompt(t, tenant.admin, PRICED);
      const key = (
        await t.http.post('/admin/v1/keys').set(auth(tenant.admin)).send({ name: 'partner', type: 'endpoint' })
      ).body.data;
      // An id written in capitals names the same key: stored as calls name it, enforced, one budget per scope.
      const keyBudget = await createBudget({
        name: 'partner',
        scope: { type: 'key', keyId: key.id.toUpperCase() },
        period: 'day',
        limitUsd: 0.1,
      });
      expect(keyBudget.status).toBe(201);
      expect(keyBudget.body.data.scope).toEqual({ type: 'key', keyId: key.id });
      const again = await createBudget({
        name: 'again',
        scope: { type: 'key', keyId: key.id },
        period: 'day',
        limitUsd: 1,
      });
      expect(again.status).toBe(409);
      const byKey = await t.http.post(endpoint.path).set(auth(key.key)).send({ text: 'hi' });
      expectBudgetRefusal(byKey);
      expect((await execute(endpoint.path)).status).toBe(200);

      const tagBudget = await createBudget({
        name: 'feature',
        scope: { type: 'tag', tag: 'feature:costly' },
        period: 'month',
        limitUsd: 0.1,
      });
      expectBudgetRefusal(await execute(endpoint.path, { text: 'hi' }, { 'x-tags': 'feature=costly' }));
      expect((await execute(endpoint.path, { text: 'hi' }, { 'x-tags': 'feature=cheap' })).status).toBe(200);
      await t.http.put(`/admin/v1/budgets/${tagBudget.body.data.id}`).set(auth(tenant.admin)).send({ enabled: false });
      expect((await execute(endpoint.path, { text: 'hi' }, { 'x-tags': 'feature=costly' })).status).toBe(200);

      // The other tenant's budgets never apply here.
      const theirs = await createBudget(
        { name: 'all', scope: { type: 'tenant' }, period: 'day', limitUsd: 0.000001 },
        other.admin,
      );
      expect(theirs.status).toBe(201);
      expect((await execute(endpoint.path)).status).toBe(200);
    });

    it('reserves nothing for a model without a price', async () => {
      const { endpoint, budget } = await budgetedEndpoint(0.000001, { llmModel: 'llama-test' });
      for (let i = 0; i < 3; i++) expect((await execute(endpoint.path)).status).toBe(200);
      expect((await getBudget(budget.id)).status).toMatchObject({ spentUsd: 0, reservedUsd: 0 });
    });

    it('serves cache hits when the budget is spent, and they cost nothing', async () => {
      const { endpoint, budget } = await budgetedEndpoint(1, {}, { cacheEnabled: true, cacheDurationSeconds: 600 });
      const miss = await execute(endpoint.path, { text: 'cached' });
      expect(miss.headers['x-cache']).toBe('MISS');
      await t.http.put(`/admin/v1/budgets/${budget.id}`).set(auth(tenant.admin)).send({ limitUsd: 0.05 });
      const hit = await execute(endpoint.path, { text: 'cached' });
      expect(hit.status).toBe(200);
      expect(hit.headers['x-cache']).toBe('HIT');
      expectBudgetRefusal(await execute(endpoint.path, { text: 'fresh' }));
      expect((await getBudget(budget.id)).status.spentUsd).toBeCloseTo(ACTUAL, 9);
    });

    it('refuses a stream before it opens with the plain answer, and a fallback once it opened with an error event', async () => {
      const { endpoint } = await budgetedEndpoint(0.1);
      const before = await streamCall(
        `${t.url}${endpoint.path}`,
        { ...auth(tenant.endpointKey), accept: 'text/event-stream' },
        { text: 'hi' },
      );
      expect(before.status).toBe(429);
      expect(before.headers.get('content-type')).toMatch(/^application\/json/);

      // The prompt's model is cheap enough; its fallback's maxTokens is not. The first attempt fails before its first
      // piece, so the stream had opened when the fallback is refused.
      const fallback = await budgetedEndpoint(0.5, {
        maxTokens: 10,
        fallbackModels: [{ llmModel: 'llama-priced', maxTokens: 1000 }],
      });
      fake.reply({ status: 503, message: 'overloaded' });
      const during = await streamCall(
        `${t.url}${fallback.endpoint.path}`,
        { ...auth(tenant.endpointKey), accept: 'text/event-stream' },
        { text: 'hi' },
      );
      expect(during.status).toBe(200);
      expect(namesOf(during).at(-1)).toBe('error');
      expect(during.events.at(-1)!.data).toMatchObject({ error: 'budget_exceeded' });
      expect(fake.requests).toHaveLength(1);
    });

    it('refuses test runs and MCP runs the same way', async () => {
      const { endpoint, prompt } = await budgetedEndpoint(0.1);
      const testRun = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(auth(tenant.admin))
        .send({ promptId: prompt.id, inputs: { text: 'hi' } });
      expect(testRun.status).toBe(429);
      expect(testRun.headers['retry-after']).toBeDefined();
      expect(testRun.body.messages[0]).toMatch(/budget/);

      const client = await connectMcp(t.url, tenant.admin);
      try {
        const ran = await client.callTool({
          name: 'run_endpoint',
          arguments: { endpointId: endpoint.id, inputs: { text: 'hi' } },
        });
        expect(ran.isError).toBe(true);
        expect(toolText(ran)).toMatch(/^budget_exceeded: /);
        const budgets = toolJson(await client.callTool({ name: 'list_budgets', arguments: {} })).items;
        expect(budgets.map((budget: { scope: object }) => budget.scope)).toContainEqual({
          type: 'endpoint',
          endpointId: endpoint.id,
        });
      } finally {
        await client.close();
      }
      expect(fake.requests).toHaveLength(0);
    });

    it('counts refusals in the metrics, by scope type', async () => {
      const { endpoint } = await budgetedEndpoint(0.1);
      expectBudgetRefusal(await execute(endpoint.path));
      const metrics = await t.http.get('/metrics');
      expect(metrics.text).toMatch(/promptgate_budget_refusals_total\{scope="endpoint"\} [1-9]/);
      expect(metrics.text).toMatch(/promptgate_budget_spent_usd\{scope="endpoint"\}/);
      expect(metrics.text).not.toMatch(/promptgate_budget_\w+\{[^}]*tenant\w*=/);
    });
  });
});

function expectBudgetRefusal(res: { status: number; body: any; headers: Record<string, string> }): void {
  expect({ status: res.status, error: res.body.error }).toEqual({ status: 429, error: 'budget_exceeded' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}
