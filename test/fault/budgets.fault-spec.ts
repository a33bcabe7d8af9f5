import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { eventually } from '../support/eventually';
import { FakeLlmServer } from '../support/fake-llm-server';
import { OwnPostgres, OwnRedis, startOwnPostgres, startOwnRedis } from '../support/own-servers';
import { admin, ServiceProcess, startService } from './service-process';

const ADMIN_KEY = 'epa_' + 'SpendBudgetsExact'.repeat(3);
const DATABASE = 'promptgate_fault_budgets';
const LIMIT_USD = 0.5;
const CLIENTS = 200;
const TIMEOUT_SECONDS = 5;
/** A reservation's lease: the endpoint's timeout plus 30 s. */
const LEASE_MS = TIMEOUT_SECONDS * 1000 + 30_000;
const MAX_TOKENS = 20;
/** $100 per million tokens, input and output. */
const PRICE_PER_TOKEN = 100 / 1_000_000;
/**
 * Every call renders 'Say hello' (9 bytes: its input tokens are bounded by its bytes, plus the call's 16 of overhead)
 * and may answer MAX_TOKENS; the fake provider reports exactly that usage, so a call costs its worst case.
 */
const WORST_CASE_USD = (9 + 16 + MAX_TOKENS) * PRICE_PER_TOKEN;
const PROVIDER_MS = 1_500;

interface Outcome {
  instance: 'a' | 'b';
  status: number | 'disconnected' | 'failed';
}

/**
 * Two instances on PostgreSQL + Redis, 200 concurrent executions against a $0.50 daily budget on a priced model, 5 %
 * of the clients leaving mid-call and 3 % of the provider calls failing, and one instance SIGKILLed while its calls
 * are in flight: the logged spend never exceeds the limit, the dead instance's reservations are released within the
 * endpoint's timeout plus 30 s, and then calls are refused only once less than one call's worst case is left.
 */
describe('spend budgets across instances, one of them killed', () => {
  let postgres: OwnPostgres;
  let redis: OwnRedis;
  let fake: FakeLlmServer;
  let workDir: string;
  let a: ServiceProcess;
  let b: ServiceProcess;

  beforeAll(async () => {
    [postgres, redis, fake] = await Promise.all([startOwnPostgres(), startOwnRedis(), FakeLlmServer.start()]);
    await postgres.createDatabase(DATABASE);
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-fault-budgets-'));
    const modelsFile = path.join(workDir, 'models.json');
    const pricing = { inputPerMillionTokens: 100, outputPerMillionTokens: 100 };
    fs.writeFileSync(
      modelsFile,
      JSON.stringify({
        providers: [{ name: 'local', baseUrl: `${fake.url}/local/v1`, models: [{ id: 'llama-budget', pricing }] }],
      }),
    );
    const env = {
      DATABASE_URL: postgres.url(DATABASE),
      REDIS_URL: redis.url,
      INITIAL_ADMIN_KEY: ADMIN_KEY,
      INITIAL_TENANT: 'budgets',
      MODELS_FILE: modelsFile,
      MAX_PROVIDER_CALLS_PER_KEY: '512',
      MAX_PROVIDER_CALLS_PER_TENANT: '512',
      ADMIN_RATE_LIMIT_PER_MINUTE: '100000',
    };
    a = await startService(env);
    b = await startService(env);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await fake?.close();
    await Promise.all([postgres?.dispose(), redis?.dispose()]);
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** The sum of costUsd of the tenant's log rows, as PostgreSQL has them. */
  async function loggedSpend(): Promise<number> {
    const [row] = await postgres.query<{ total: string }>(
      DATABASE,
      'SELECT COALESCE(SUM(cost_usd), 0)::text AS total FROM execution_logs',
    );
    return Number(row.total);
  }

  it('never spends over the limit, releases a dead instance’s reservations within its lease, and refuses only when less than a call is left', async () => {
    const endpoint = await admin(a.base, ADMIN_KEY, 'POST', '/admin/v1/endpoints', {
      name: 'Budgeted',
      path: '/api/v1/budgeted',
      timeoutSeconds: TIMEOUT_SECONDS,
    });
    await admin(a.base, ADMIN_KEY, 'POST', `/admin/v1/endpoints/${endpoint.id}/input-fields`, {
      name: 'text',
      dataType: 'string',
      isRequired: true,
    });
    const prompt = await admin(a.base, ADMIN_KEY, 'POST', '/admin/v1/prompts', {
      name: 'Say',
      endpointId: endpoint.id,
      llmModel: 'llama-budget',
      maxTokens: MAX_TOKENS,
      template: 'Say {{ inputs.text }}',
    });
    await admin(a.base, ADMIN_KEY, 'POST', `/admin/v1/prompts/${prompt.id}/promote`);
    await admin(a.base, ADMIN_KEY, 'POST', `/admin/v1/prompts/${prompt.id}/set-default`);
    const key = await admin(a.base, ADMIN_KEY, 'POST', '/admin/v1/keys', {
      name: 'load',
      type: 'endpoint',
      rateLimitPerMinute: 1_000_000,
      rateLimitPerHour: 1_000_000,
      rateLimitPerDay: 1_000_000,
    });
    const budget = await admin(a.base, ADMIN_KEY, 'POST', '/admin/v1/budgets', {
      name: 'Daily',
      scope: { type: 'endpoint', endpointId: endpoint.id },
      period: 'day',
      limitUsd: LIMIT_USD,
    });
    const status = async () => (await admin(a.base, ADMIN_KEY, 'GET', `/admin/v1/budgets/${budget.id}`)).status;

    // 3 % of the provider calls fail; the others answer after PROVIDER_MS with the usage of the call's worst case.
    let providerCalls = 0;
    fake.replyBy((request) => {
      providerCalls++;
      if (providerCalls % 33 === 0) return { status: 500, message: 'provider failure', delayMs: 200 };
      return {
        text: 'ok',
        inputTokens: 25,
        outputTokens: request.body?.max_tokens ?? MAX_TOKENS,
        delayMs: PROVIDER_MS,
      };
    });

    // The logged spend, sampled while the calls run.
    const samples: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push(await loggedSpend());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    const call = (service: ServiceProcess, instance: 'a' | 'b', index: number) =>
      new Promise<Outcome>((resolve) => {
        const body = JSON.stringify({ text: 'hello' });
        const url = new URL(service.base);
        const request = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method: 'POST',
            path: '/api/v1/budgeted',
            headers: {
              'x-api-key': key.key,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'x-request-id': `budget-${instance}-${index}`,
            },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve({ instance, status: response.statusCode! }));
            response.on('error', () => resolve({ instance, status: 'failed' }));
          },
        );
        request.on('error', () => resolve({ instance, status: index % 20 === 0 ? 'disconnected' : 'failed' }));
        request.end(body);
        // 5 % of the clients leave while their call is with the provider.
        if (index % 20 === 0) setTimeout(() => request.destroy(), 400);
      });
    const settled: Outcome[] = [];
    const calls = Array.from({ length: CLIENTS }, (_, i) =>
      (i % 2 === 0 ? call(a, 'a', i) : call(b, 'b', i)).then((outcome) => {
        settled.push(outcome);
        return outcome;
      }),
    );

    // Kill B once both instances have calls with the provider (and so reservations in Redis).
    await eventually(() => fake.requests.length >= 60, 'calls with the provider', {
      gaveUp: () => settled.length === CLIENTS,
    }).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(settled)}\n${a.output.slice(-20).join('\n')}`);
    });
    b.child.kill('SIGKILL');
    const killedAt = Date.now();
    const outcomes = await Promise.all(calls);
    agent.destroy();
    const reservedAfterA = (await status()).reservedUsd;

    // The dead instance's reservations stay until their lease ends, then nothing is reserved (read every 250 ms).
    try {
      await eventually(
        async () =>
          (await status()).reservedUsd === 0 || (await new Promise((resolve) => setTimeout(resolve, 250, false))),
        'the reservations to be released',
        { timeoutMs: LEASE_MS + 15_000 },
      );
    } finally {
      sampling = false;
      await sampler;
    }
    const releasedAfterMs = Date.now() - killedAt;

    const ofA = outcomes.filter((outcome) => outcome.instance === 'a');
    const answeredByA = ofA.filter((outcome) => typeof outcome.status === 'number');
    // Every call A answered has its row (client_closed included) before the spend is read.
    await eventually(async () => {
      const [row] = await postgres.query<{ count: string }>(
        DATABASE,
        "SELECT count(*)::text AS count FROM execution_logs WHERE request_id LIKE 'budget-a-%'",
      );
      return Number(row.count) >= answeredByA.length;
    }, "A's log rows");
    const spent = await loggedSpend();
    const summary = {
      statuses: outcomes.reduce<Record<string, number>>((counts, { instance, status: s }) => {
        counts[`${instance}:${s}`] = (counts[`${instance}:${s}`] ?? 0) + 1;
        return counts;
      }, {}),
      reservedAfterA,
      releasedAfterMs,
      spent,
      maxSample: Math.max(...samples),
    };
    process.stdout.write(`budgets fault test: ${JSON.stringify(summary)}\n`);

    expect(spent).toBeLessThanOrEqual(LIMIT_USD);
    for (const sample of samples) expect(sample).toBeLessThanOrEqual(LIMIT_USD);
    // B held reservations when it died, and they were released by their lease, not before A's own calls ended.
    expect(reservedAfterA).toBeGreaterThan(0);
    expect(releasedAfterMs).toBeLessThanOrEqual(LEASE_MS + 2_000);
    // Refusals are due once the calls that were decided asked for more than the limit (the calls B still held when it
    // was killed asked for nothing): with A fast and B slow to start, the decided ones can fit within it.
    const decided = outcomes.filter((outcome) => typeof outcome.status === 'number').length;
    if (decided * WORST_CASE_USD > LIMIT_USD + WORST_CASE_USD)
      expect(outcomes.filter((outcome) => outcome.status === 429).length).toBeGreaterThan(0);

    // Now one call at a time: each runs while a worst case is left, the first refusal comes only once less is left.
    fake.replyBy(() => ({ text: 'ok', inputTokens: 25, outputTokens: MAX_TOKENS }));
    let sequential = 0;
    for (;;) {
      const before = await status();
      const response = await fetch(`${a.base}/api/v1/budgeted`, {
        method: 'POST',
        headers: {
          'x-api-key': key.key,
          'content-type': 'application/json',
          'x-request-id': `budget-seq-${sequential}`,
        },
        body: JSON.stringify({ text: 'hello' }),
      });
      await response.arrayBuffer();
      if (response.status === 429) {
        expect(before.remainingUsd).toBeLessThan(WORST_CASE_USD);
        break;
      }
      expect(response.status).toBe(200);
      expect(before.remainingUsd).toBeGreaterThanOrEqual(WORST_CASE_USD - 1e-9);
      expect(++sequential).toBeLessThan(LIMIT_USD / WORST_CASE_USD + 1);
    }
    // The ledger's spent total is what refuses: less than one worst case is left of it.
    expect(LIMIT_USD - (await status()).spentUsd).toBeLessThan(WORST_CASE_USD);
    await eventually(async () => {
      const [row] = await postgres.query<{ count: string }>(
        DATABASE,
        "SELECT count(*)::text AS count FROM execution_logs WHERE request_id LIKE 'budget-seq-%'",
      );
      return Number(row.count) === sequential + 1;
    }, 'the rows of the calls one at a time');
    expect(await loggedSpend()).toBeLessThanOrEqual(LIMIT_USD);
  }, 180_000);
});
