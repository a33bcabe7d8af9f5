import { ProviderCallLimiter } from '../../src/modules/llm/provider-call-limiter';
import { KeysService } from '../../src/modules/keys/keys.service';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { FairAdmission } from '../../src/modules/prompts/template/fair-admission';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { fakeProviderEnv, FakeLlmServer } from '../support/fake-llm-server';
import { auth, SeededTenant, seedTenant } from '../support/seed';
import { streamCall } from '../support/sse-client';
import { createTestApp, TestApp } from '../support/test-app';

/** Loops for far longer than the render budget: each render holds a render thread for all of it. */
const NESTED_LOOPS = '{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}x';
/** A loop renders in a render thread (never on the event loop), but in no time. */
const TRIVIAL_LOOP = '{% for i in (1..3) %}b{{ i }}{% endfor %}';

/** Polls `check` until it passes or `ms` is over (then its last failure is the test's). */
async function eventually(check: () => void, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The log row of the execution answered with `requestId`, as the admin API lists it. */
async function loggedRow(t: TestApp, adminKey: string, requestId: string): Promise<any> {
  await t.app.get(ExecutionLogsService).flush();
  const res = await t.http.get('/admin/v1/logs').query({ requestId }).set(auth(adminKey));
  expect(res.status).toBe(200);
  expect(res.body.data.items).toHaveLength(1);
  return res.body.data.items[0];
}

/**
 * Shared capacity is shared fairly: one tenant flooding the render threads with slow templates, or holding provider
 * calls open against a slow provider, neither slows another tenant's call nor takes more than its bound; past it the
 * flooding tenant is refused (503 overloaded, 429 rate_limit_exceeded) with a Retry-After.
 */
describe('fair shares of shared capacity', () => {
  describe('render threads', () => {
    let t: TestApp;
    let base: string;
    let a: SeededTenant;
    let b: SeededTenant;
    let c: SeededTenant;
    const QUEUE_MAX = 8;

    beforeAll(async () => {
      t = await createTestApp({ renderTimeoutMs: 1000, renderQueueMax: QUEUE_MAX });
      await t.app.listen(0, '127.0.0.1');
      base = await t.app.getUrl();
      [a, b, c] = [await seedTenant(t.app), await seedTenant(t.app), await seedTenant(t.app)];
    });
    afterAll(() => t.close());

    async function endpointWith(tenant: SeededTenant, template: string) {
      const endpoint = await createEndpoint(t, tenant.admin, {});
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template });
      return { ...endpoint, promptId: prompt.id };
    }

    const admissions = jest.spyOn(FairAdmission.prototype, 'admit');
    afterAll(() => admissions.mockRestore());

    it("a tenant's flood of slow renders neither delays another tenant's render nor fills the queue for it", async () => {
      const slow = await endpointWith(a, NESTED_LOOPS);
      const trivial = await endpointWith(b, TRIVIAL_LOOP);
      const leaving = await endpointWith(c, TRIVIAL_LOOP);
      const events: string[] = [];
      const flood = Array.from({ length: 20 }, () =>
        t.http
          .post(slow.path)
          .set(auth(a.endpointKey))
          .send({})
          .then((res) => {
            events.push(`a${res.status}`);
            return res;
          }),
      );
      // The queue overflows at once: the first answer is a refusal, long before any slow render ends.
      await eventually(() => expect(events).toContain('a503'));
      const startedMs = performance.now();
      const othersCall = t.http
        .post(trivial.path)
        .set(auth(b.endpointKey))
        .send({})
        .then((res) => {
          events.push('b');
          return { res, ms: performance.now() - startedMs };
        });
      // The flooding tenant's own test run is refused too: it holds most of the queue.
      const testRunCall = t.http
        .post(`/admin/v1/endpoints/${slow.id}/test`)
        .set(auth(a.admin))
        .send({ promptId: slow.promptId, inputs: {} })
        .then((res) => res);
      // A third tenant's client leaves while its render waits for a thread: the render is dropped, and logged so.
      const leavingRequestId = `left-${Date.now()}`;
      const client = new AbortController();
      const left = fetch(`${base}${leaving.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': leavingRequestId, ...auth(c.endpointKey) },
        body: '{}',
        signal: client.signal,
      }).catch((error: unknown) => error);
      // It leaves once its render waits in the queue (under load, the request may take a while to get there).
      await eventually(() => expect(admissions.mock.calls.some(([tenantId]) => tenantId === c.id)).toBe(true));
      client.abort();
      const [{ res: other, ms: otherMs }, testRun] = await Promise.all([othersCall, testRunCall]);
      const answers = await Promise.all(flood);
      await left;
      const leftRow = await loggedRow(t, c.admin, leavingRequestId);
      expect(leftRow).toMatchObject({ status: 'error', httpStatus: 499, errorCode: 'client_closed' });

      expect(other.status).toBe(200);
      expect(other.body).toBe('b1b2b3');
      // B waits for one of A's renders at most (1 s each), never for A's queue (several seconds).
      expect(otherMs).toBeLessThan(2500);
      const finishedBeforeB = events.slice(0, events.indexOf('b')).filter((event) => event === 'a422').length;
      expect(finishedBeforeB).toBeLessThanOrEqual(4);
      expect(events.filter((event) => event === 'a422').length).toBeGreaterThan(finishedBeforeB);

      expect(testRun.status).toBe(503);
      expect(testRun.headers['retry-after']).toBe('1');
      expect(testRun.body).toEqual({ succeeded: false, messages: [expect.any(String)], data: null });

      const refused = answers.filter((res) => res.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      for (const res of refused) {
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body).toEqual({ error: 'overloaded', message: expect.any(String), retry_after: 1 });
      }
      const row = await loggedRow(t, a.admin, refused[0].headers['x-request-id']);
      expect(row).toMatchObject({ status: 'error', httpStatus: 503, errorCode: 'overloaded' });
      // Every admitted render ran to its budget and failed as a hostile template does; none answered 5xx otherwise.
      for (const res of answers) expect([422, 503]).toContain(res.status);
      expect(answers.filter((res) => res.status === 422).length).toBeGreaterThanOrEqual(QUEUE_MAX);
    });
  });

  describe('provider calls in flight', () => {
    let t: TestApp;
    let fake: FakeLlmServer;
    let base: string;
    let a: SeededTenant;
    let b: SeededTenant;
    let secondKeyOfA: string;
    let limiter: ProviderCallLimiter;
    const PER_TENANT = 3;
    const PER_KEY = 2;

    beforeAll(async () => {
      fake = await FakeLlmServer.start();
      t = await createTestApp(
        { maxProviderCallsPerTenant: PER_TENANT, maxProviderCallsPerKey: PER_KEY },
        fakeProviderEnv(fake),
      );
      await t.app.listen(0, '127.0.0.1');
      base = await t.app.getUrl();
      [a, b] = [await seedTenant(t.app), await seedTenant(t.app)];
      secondKeyOfA = (
        await t.app.get(KeysService).create(a.id, { name: 'second', type: 'endpoint', environment: 'live' })
      ).key;
      limiter = t.app.get(ProviderCallLimiter);
    });
    afterAll(async () => {
      await t.close();
      await fake.close();
    });
    beforeEach(() => fake.reset());

    async function endpointOf(tenant: SeededTenant) {
      const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, {
        template: 'Say {{ inputs.text }}',
        llmModel: 'gpt-4o-mini',
      });
      return { ...endpoint, promptId: prompt.id };
    }

    /** Sends the call at once (a supertest request is only sent once awaited) and resolves with its answer. */
    const execute = (path: string, key: string, text = 'hi') =>
      t.http
        .post(path)
        .set(auth(key))
        .send({ text })
        .then((res) => res);
    /** The tenant's provider calls in flight on this instance. */
    const inFlightOf = (tenant: SeededTenant) => limiter.inFlight({ tenantId: tenant.id, keyId: '' }).tenant;

    it('refuses a key past its bound, then its tenant past its own, with 429 and Retry-After: 1; another tenant is not slowed', async () => {
      const ofA = await endpointOf(a);
      const ofB = await endpointOf(b);
      fake.reply(
        { text: 'slow one', delayMs: 3000 },
        { text: 'slow two', delayMs: 3000 },
        { text: 'slow three', delayMs: 3000 },
      );
      const held = [execute(ofA.path, a.endpointKey), execute(ofA.path, a.endpointKey)];
      await eventually(() => expect(fake.requests).toHaveLength(2));

      const pastKey = await execute(ofA.path, a.endpointKey);
      expect(pastKey.status).toBe(429);
      expect(pastKey.headers['retry-after']).toBe('1');
      expect(pastKey.body).toEqual({ error: 'rate_limit_exceeded', message: expect.any(String), retry_after: 1 });
      expect(pastKey.body.message).toMatch(/key/);
      const row = await loggedRow(t, a.admin, pastKey.headers['x-request-id']);
      expect(row).toMatchObject({ status: 'error', httpStatus: 429, errorCode: 'rate_limit_exceeded' });

      held.push(execute(ofA.path, secondKeyOfA));
      await eventually(() => expect(fake.requests).toHaveLength(3));
      const pastTenant = await execute(ofA.path, secondKeyOfA);
      expect(pastTenant.status).toBe(429);
      expect(pastTenant.headers['retry-after']).toBe('1');
      expect(pastTenant.body.message).toMatch(/tenant/);
      // Refused calls never reached the provider.
      expect(fake.requests).toHaveLength(3);

      // The flooding tenant's test runs and MCP calls are refused the same way, on their own surfaces.
      const testRun = await t.http
        .post(`/admin/v1/endpoints/${ofA.id}/test`)
        .set(auth(a.admin))
        .send({ promptId: ofA.promptId, inputs: { text: 'x' } });
      expect(testRun.status).toBe(429);
      expect(testRun.headers['retry-after']).toBe('1');
      expect(testRun.body).toEqual({ succeeded: false, messages: [expect.any(String)], data: null });
      const mcp = await t.http
        .post('/mcp')
        .set({ accept: 'application/json, text/event-stream', authorization: `Bearer ${a.admin}` })
        .send({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'run_endpoint', arguments: { endpointId: ofA.id, inputs: { text: 'x' } } },
        });
      expect(mcp.body.result.isError).toBe(true);
      expect(mcp.body.result.content[0].text).toMatch(/^rate_limit_exceeded: /);

      // Another tenant's call to the same provider answers at once (the fake answers it without delay).
      const startedMs = performance.now();
      const other = await execute(ofB.path, b.endpointKey);
      expect(other.status).toBe(200);
      expect(performance.now() - startedMs).toBeLessThan(2000);

      const finished = await Promise.all(held);
      expect(finished.map((res) => res.status)).toEqual([200, 200, 200]);
      expect(inFlightOf(a)).toBe(0);
      const again = await execute(ofA.path, a.endpointKey);
      expect(again.status).toBe(200);
    });

    it('gives the slots back when calls fail, time out or their clients leave', async () => {
      const ofA = await endpointOf(a);
      const timingOut = await createEndpoint(t, a.admin, {
        inputs: [{ name: 'text', dataType: 'string' }],
        timeoutSeconds: 1,
      });
      await createPrompt(t, a.admin, timingOut.id, { template: 'Say {{ inputs.text }}', llmModel: 'gpt-4o-mini' });

      // A provider failure and a timeout.
      fake.reply({ status: 400, message: 'bad request' }, { text: 'too late', delayMs: 5000 });
      expect((await execute(ofA.path, a.endpointKey)).status).toBe(502);
      expect((await execute(timingOut.path, a.endpointKey)).status).toBe(504);
      expect(inFlightOf(a)).toBe(0);

      // Two streams whose clients leave after the first piece: their provider calls are aborted and released.
      for (let i = 0; i < 2; i++)
        fake.reply({ text: 'a long answer nobody reads', stream: { chunks: 50, chunkDelayMs: 200 } });
      const left = await Promise.all(
        [0, 1].map(() =>
          streamCall(
            `${base}${ofA.path}?stream=true`,
            auth(a.endpointKey),
            { text: 'bye' },
            (event) => event.event === 'delta',
          ),
        ),
      );
      expect(left.map((call) => call.status)).toEqual([200, 200]);
      await eventually(() => expect(inFlightOf(a)).toBe(0), 3000);

      // Plain calls whose clients leave: each slot is held until its provider call ends, then given back.
      fake.reply({ text: 'nobody waits', delayMs: 800 }, { text: 'nobody waits', delayMs: 800 });
      const leaving = [0, 1].map(() => {
        const controller = new AbortController();
        const call = fetch(`${base}${ofA.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth(a.endpointKey) },
          body: JSON.stringify({ text: 'bye' }),
          signal: controller.signal,
        }).catch((error: unknown) => error);
        return { controller, call };
      });
      await eventually(() => expect(fake.requests).toHaveLength(6));
      for (const { controller } of leaving) controller.abort();
      await Promise.all(leaving.map(({ call }) => call));
      await eventually(() => expect(inFlightOf(a)).toBe(0), 3000);
      const again = await execute(ofA.path, a.endpointKey);
      expect(again.status).toBe(200);
    });
  });
});
