import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { eventually } from '../support/eventually';
import { FakeLlmServer } from '../support/fake-llm-server';
import { OwnPostgres, startOwnPostgres } from '../support/own-servers';
import { admin, ServiceProcess, startService } from './service-process';

const ADMIN_KEY = 'epa_' + 'EvalRunsExactlyOnce'.repeat(3);
const DATABASE = 'promptgate_fault_eval_runs';

/**
 * Evaluation runs on two instances sharing one PostgreSQL: every unit of work (item × repeat × side) is claimed in the
 * database, so each runs exactly once, on the instance that started the run; and when that instance is SIGKILLed with
 * items in flight, the other takes the run and its rows over once their leases expire and completes it well within a
 * minute.
 */
describe('evaluation runs across instances, one of them killed', () => {
  let postgres: OwnPostgres;
  let fake: FakeLlmServer;
  let workDir: string;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let endpointId: string;
  let promptId: string;

  beforeAll(async () => {
    [postgres, fake] = await Promise.all([startOwnPostgres(), FakeLlmServer.start()]);
    await postgres.createDatabase(DATABASE);
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-fault-eval-'));
    const modelsFile = path.join(workDir, 'models.json');
    fs.writeFileSync(
      modelsFile,
      JSON.stringify({
        providers: [{ name: 'local', baseUrl: `${fake.url}/local/v1`, models: [{ id: 'llama-eval' }] }],
      }),
    );
    const env = {
      DATABASE_URL: postgres.url(DATABASE),
      INITIAL_ADMIN_KEY: ADMIN_KEY,
      INITIAL_TENANT: 'evaluations',
      MODELS_FILE: modelsFile,
      ADMIN_RATE_LIMIT_PER_MINUTE: '100000',
      // Each instance holds a tenant's runs to 5 calls in flight, below a run's concurrency of 10.
      EVAL_MAX_CONCURRENCY: '5',
    };
    a = await startService(env);
    b = await startService(env);
    const endpoint = await admin(a.base, ADMIN_KEY, 'POST', '/admin/v1/endpoints', {
      name: 'Evaluated',
      path: '/api/v1/evaluated',
    });
    endpointId = endpoint.id;
    await admin(a.base, ADMIN_KEY, 'POST', `/admin/v1/endpoints/${endpointId}/input-fields`, {
      name: 'text',
      dataType: 'string',
      isRequired: true,
      description: '',
    });
    const prompt = await admin(a.base, ADMIN_KEY, 'POST', '/admin/v1/prompts', {
      endpointId,
      name: 'Evaluated',
      template: 'Answer {{ inputs.text }}',
      llmModel: 'llama-eval',
    });
    promptId = prompt.id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    await fake?.close();
    await postgres?.dispose();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** A dataset of `count` items, each with its own text. */
  async function dataset(name: string, count: number): Promise<string> {
    const created = await admin(a.base, ADMIN_KEY, 'POST', `/admin/v1/endpoints/${endpointId}/datasets`, {
      name,
      checks: [{ type: 'contains', value: 'right' }],
    });
    const items = Array.from({ length: count }, (_, i) => ({ inputs: { text: `${name}-item-${i}` } }));
    await admin(a.base, ADMIN_KEY, 'POST', `/admin/v1/datasets/${created.id}/items`, { items });
    return created.id;
  }

  const claimsBy = (runId: string) =>
    postgres.query<{ claimed_by: string; n: string }>(
      DATABASE,
      `SELECT claimed_by, count(*) AS n FROM eval_run_items WHERE run_id = $1 AND status = 'claimed' GROUP BY 1`,
      [runId],
    );

  it('runs each item of the runs of both instances once, each run on the instance that started it', async () => {
    const [first, second] = await Promise.all([dataset('once-a', 30), dataset('once-b', 30)]);
    let inFlight = 0;
    let mostInFlight = 0;
    fake.replyBy(() => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => inFlight--, 300);
      return { text: 'right', delayMs: 300 };
    });
    const body = { promptId, baseline: 'none', concurrency: 10 };
    const [runA, runB] = await Promise.all([
      admin(a.base, ADMIN_KEY, 'POST', `/admin/v1/datasets/${first}/runs`, body, [202]),
      admin(b.base, ADMIN_KEY, 'POST', `/admin/v1/datasets/${second}/runs`, body, [202]),
    ]);
    for (const run of [runA, runB]) {
      const done = await eventually(
        async () => {
          const current = await admin(a.base, ADMIN_KEY, 'GET', `/admin/v1/eval-runs/${run.id}`);
          return current.status === 'completed' && current;
        },
        'the run to complete',
        { timeoutMs: 60_000 },
      );
      expect(done.summary).toMatchObject({ items: 30, passed: 30, failed: 0 });
    }
    const prompts = fake.requests.map((request) => JSON.stringify(request.body));
    expect(prompts).toHaveLength(60);
    for (const name of ['once-a', 'once-b'])
      for (let i = 0; i < 30; i++) expect(prompts.filter((p) => p.includes(`${name}-item-${i}"`))).toHaveLength(1);
    // Each instance holds a tenant's runs to EVAL_MAX_CONCURRENCY calls: 5 each.
    expect(mostInFlight).toBeLessThanOrEqual(10);
    const claimers = await postgres.query<{ run_id: string; instances: string }>(
      DATABASE,
      `SELECT run_id, count(DISTINCT claimed_by) AS instances FROM eval_run_items WHERE run_id = ANY($1::uuid[])
       GROUP BY run_id`,
      [[runA.id, runB.id]],
    );
    expect(claimers.map((row) => Number(row.instances))).toEqual([1, 1]);
  });

  it('takes over the rows of a killed instance within a minute and completes the run', async () => {
    const datasetId = await dataset('takeover', 12);
    fake.requests.length = 0;
    fake.replyBy(() => ({ text: 'right', delayMs: 2_000 }));
    const run = await admin(
      b.base,
      ADMIN_KEY,
      'POST',
      `/admin/v1/datasets/${datasetId}/runs`,
      {
        promptId,
        baseline: 'none',
        concurrency: 10,
      },
      [202],
    );
    // B started the run and runs it: it is killed with items in flight.
    await eventually(async () => (await claimsBy(run.id)).length === 1, 'B to hold claims', { timeoutMs: 30_000 });
    b.child.kill('SIGKILL');
    const killedAt = Date.now();
    const done = await eventually(
      async () => {
        const current = await admin(a.base, ADMIN_KEY, 'GET', `/admin/v1/eval-runs/${run.id}`);
        return current.status === 'completed' && current;
      },
      'the run to complete on the surviving instance',
      { timeoutMs: 90_000 },
    );
    // The lease (30 s) and the poll bound the takeover; the remaining items take a few seconds more.
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(done.summary).toMatchObject({ items: 12, passed: 12, failed: 0 });
    const [{ open }] = await postgres.query<{ open: string }>(
      DATABASE,
      `SELECT count(*) AS open FROM eval_run_items WHERE run_id = $1 AND status <> 'done'`,
      [run.id],
    );
    expect(Number(open)).toBe(0);
  });
});
