import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runCliCommand } from '../../src/cli/cli-commands';
import { useTestApp } from '../support/app-suite';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import type { ReceivedRequest } from '../support/fake-llm-server';
import { codeBlocks } from '../support/mcp-client';
import { auth } from '../support/seed';

const ROOT = path.join(__dirname, '..', '..');
const CLI_MAIN = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');

/** The text a request to the fake provider carries (its rendered prompt among it). */
const sent = (request: ReceivedRequest) => JSON.stringify(request.body);

/** The built CLI (`npm test` builds it first), run as an operator runs it, with `env`. */
function runBuilt(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(process.execPath, [CLI_MAIN, ...argv], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * `eval run` on the command line: a run of a dataset for a prompt version against the endpoint's default, waited for
 * and reported, with the exit code a CI job fails on. In this process (on the services) and over HTTP (the admin
 * API of the running service, as a pipeline calls a deployed one), against the fake provider.
 */
describe('eval run on the command line', () => {
  const { t, tenant, other, fake } = useTestApp({
    fake: {},
    listen: true,
    other: true,
    env: { ADMIN_RATE_LIMIT_PER_MINUTE: '100000' },
  });

  /**
   * An endpoint whose default prompt answers "ok" to every text, a dataset of two items checked for "ok", and a Draft
   * candidate whose version 1 answers "wrong" to the item "bad" (a regression) and whose version 2 answers "ok" again.
   */
  async function setup(): Promise<{ endpointId: string; datasetId: string; candidateId: string }> {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Baseline: {{ inputs.text }}',
      llmModel: 'llama-test',
    });
    const candidate = await createPrompt(
      t,
      tenant.admin,
      endpoint.id,
      { template: 'Candidate: {{ inputs.text }}', llmModel: 'llama-test' },
      'Draft',
    );
    const saved = await t.http
      .put(`/admin/v1/prompts/${candidate.id}`)
      .set(auth(tenant.admin))
      .send({ template: 'Candidate 2: {{ inputs.text }}' });
    expect(saved.status).toBe(200);
    const dataset = await t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/datasets`)
      .set(auth(tenant.admin))
      .send({ name: `set-${randomUUID().slice(0, 8)}`, checks: [{ type: 'contains', value: 'ok' }] });
    expect(dataset.status).toBe(201);
    const items = await t.http
      .post(`/admin/v1/datasets/${dataset.body.data.id}/items`)
      .set(auth(tenant.admin))
      .send({ items: [{ inputs: { text: 'good' } }, { inputs: { text: 'bad' } }] });
    expect(items.status).toBe(201);
    return { endpointId: endpoint.id, datasetId: dataset.body.data.id, candidateId: candidate.id };
  }

  beforeEach(() => {
    fake.replyBy((request) => ({ text: sent(request).includes('Candidate: bad') ? 'wrong' : 'ok' }));
  });

  const args = (datasetId: string, promptId: string, ...rest: string[]) => [
    'eval',
    'run',
    '--tenant',
    tenant.slug,
    '--dataset',
    datasetId,
    '--prompt',
    promptId,
    ...rest,
  ];
  const overHttp = (key = tenant.admin) => ['--base-url', t.url, '--admin-key', key];

  describe('in this process', () => {
    it('exits 1 with the regressed items when the run misses 100 % and no regressions', async () => {
      const { datasetId, candidateId } = await setup();
      const result = await runCliCommand(t.app, args(datasetId, candidateId, '--version', '1'));
      expect(result.stderr).toEqual([]);
      expect(result.exitCode).toBe(1);
      const out = result.stdout.join('\n');
      expect(out).toMatch(/Items: 2, passed 1, failed 1 \(pass rate 50 %\)/);
      expect(out).toMatch(/Baseline pass rate: 100 %; regressions 1, improvements 0/);
      expect(out).toMatch(
        /Thresholds \(no promotion gate on this dataset\): pass rate at least 100 %, at most 0 regressions: NOT met/,
      );
      const items = (await t.http.get(`/admin/v1/datasets/${datasetId}/items`).set(auth(tenant.admin))).body.data.items;
      const bad = items.find((item: { inputs: { text: string } }) => item.inputs.text === 'bad');
      const table = result.stdout.slice(result.stdout.indexOf('Regressed items (1):') + 1);
      expect(table[0]).toMatch(/^ITEM +CANDIDATE FAILED +BASELINE FAILED +REASON$/);
      expect(table[1]).toMatch(new RegExp(`^${bad.id} +contains +- +\\S`));
      expect(table).toHaveLength(2);
    });

    it('exits 0 when the current version passes every item', async () => {
      const { datasetId, candidateId } = await setup();
      const result = await runCliCommand(t.app, args(datasetId, candidateId));
      expect(result.stderr).toEqual([]);
      expect(result.exitCode).toBe(0);
      const out = result.stdout.join('\n');
      expect(out).toMatch(/version 2 of prompt /);
      expect(out).toMatch(/Items: 2, passed 2, failed 0 \(pass rate 100 %\)/);
      expect(out).toMatch(/: met$/m);
      expect(out).not.toMatch(/Regressed items/);
    });

    it("holds the run to the endpoint's promotion gate when the gate names the dataset", async () => {
      const { endpointId, datasetId, candidateId } = await setup();
      const gated = await t.http
        .put(`/admin/v1/endpoints/${endpointId}`)
        .set(auth(tenant.admin))
        .send({ promotionGate: { datasetId, minPassRate: 0.5, maxRegressions: 1 } });
      expect(gated.status).toBe(200);
      const result = await runCliCommand(t.app, args(datasetId, candidateId, '--version', '1'));
      expect(result.exitCode).toBe(0);
      expect(result.stdout.join('\n')).toMatch(
        /Thresholds \(the endpoint's promotion gate\): pass rate at least 50 %, at most 1 regressions: met/,
      );
      const stricter = await t.http
        .put(`/admin/v1/endpoints/${endpointId}`)
        .set(auth(tenant.admin))
        .send({ promotionGate: { datasetId, minPassRate: 0.5, maxRegressions: 0 } });
      expect(stricter.status).toBe(200);
      const failed = await runCliCommand(t.app, args(datasetId, candidateId, '--version', '1'));
      expect(failed.exitCode).toBe(1);
      expect(failed.stdout).toContain('  The run has 1 regression (at most 0 allowed).');
    });

    it('exits 2 with a message on stderr for an unknown tenant, dataset or prompt, or bad options', async () => {
      const { datasetId, candidateId } = await setup();
      const unknownTenant = await runCliCommand(t.app, [
        ...args(datasetId, candidateId).map((arg) => (arg === tenant.slug ? 'no-such-tenant' : arg)),
      ]);
      expect(unknownTenant).toMatchObject({ exitCode: 2, stderr: [expect.stringMatching(/^Error: .*no-such-tenant/)] });
      const unknownDataset = await runCliCommand(t.app, args(randomUUID(), candidateId));
      expect(unknownDataset).toMatchObject({ exitCode: 2, stderr: [expect.stringMatching(/^Error: .*dataset/i)] });
      const unknownPrompt = await runCliCommand(t.app, args(datasetId, randomUUID()));
      expect(unknownPrompt).toMatchObject({ exitCode: 2, stderr: [expect.stringMatching(/^Error: .*prompt/i)] });
      // Another tenant's dataset is unknown to this one.
      const theirs = await runCliCommand(t.app, [
        ...args(datasetId, candidateId).map((arg) => (arg === tenant.slug ? other.slug : arg)),
      ]);
      expect(theirs.exitCode).toBe(2);
      const noVersion = await runCliCommand(t.app, args(datasetId, candidateId, '--version', '9'));
      expect(noVersion).toMatchObject({ exitCode: 2, stderr: [expect.stringMatching(/^Error: .*version/i)] });
      for (const bad of [
        args('not-an-id', candidateId),
        args(datasetId, candidateId, '--version', '0'),
        args(datasetId, candidateId, '--timeout', '0'),
        args(datasetId, candidateId, '--base-url', t.url),
        args(datasetId, candidateId, '--base-url', 'ftp://host', '--admin-key', tenant.admin),
        ['eval', 'run', '--dataset', datasetId, '--prompt', candidateId],
      ]) {
        const refused = await runCliCommand(t.app, bad);
        expect({ bad, exitCode: refused.exitCode }).toEqual({ bad, exitCode: 2 });
        expect(refused.stderr[0]).toMatch(/^(Missing |--)/);
      }
    });

    it('exits 2 when the run is cancelled while it waits', async () => {
      const { datasetId, candidateId } = await setup();
      fake.replyBy(() => ({ text: 'ok', delayMs: 1500 }));
      const waiting = runCliCommand(t.app, args(datasetId, candidateId));
      let runs: { id: string; status: string }[] = [];
      const endpointId = (await t.http.get(`/admin/v1/datasets/${datasetId}`).set(auth(tenant.admin))).body.data
        .endpointId;
      while (runs.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        runs = (await t.http.get(`/admin/v1/endpoints/${endpointId}/eval-runs`).set(auth(tenant.admin))).body.data;
      }
      const cancelled = await t.http.post(`/admin/v1/eval-runs/${runs[0].id}/cancel`).set(auth(tenant.admin));
      expect(cancelled.status).toBe(200);
      const result = await waiting;
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toEqual([`Error: Run ${runs[0].id} cancelled`]);
    });
  });

  // The built CLI with DATABASE_URL opens the database itself and runs the evaluation in its own process (the
  // embedded database of these tests lives in the test process, so this needs PostgreSQL).
  (process.env.DATABASE_URL ? it : it.skip)(
    'runs in its own process on DATABASE_URL, with its exit code (skipped on the embedded database)',
    async () => {
      const { datasetId, candidateId } = await setup();
      // Its own process calls the models too: the same models file, naming the fake provider.
      const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', MODELS_FILE: t.config.modelsFile };
      delete env.INITIAL_ADMIN_KEY;
      const regressed = await runBuilt([...args(datasetId, candidateId, '--version', '1')], env);
      expect(regressed.stderr).toBe('');
      expect(regressed.code).toBe(1);
      expect(regressed.stdout).toMatch(/Regressed items \(1\):/);
      const unknown = await runBuilt(args(datasetId, randomUUID()), env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^Error: .*not found/);
    },
    60_000,
  );

  describe('over HTTP', () => {
    it('exits 1 and 0 as in process, through the admin API', async () => {
      const { datasetId, candidateId } = await setup();
      const regressed = await runCliCommand(undefined, [
        ...args(datasetId, candidateId, '--version', '1'),
        ...overHttp(),
      ]);
      expect(regressed.stderr).toEqual([]);
      expect(regressed.exitCode).toBe(1);
      expect(regressed.stdout.join('\n')).toMatch(/Items: 2, passed 1, failed 1 \(pass rate 50 %\)/);
      expect(regressed.stdout).toContain('Regressed items (1):');
      const passed = await runCliCommand(undefined, [...args(datasetId, candidateId), ...overHttp()]);
      expect(passed.exitCode).toBe(0);
    });

    it("exits 2 on the admin API's refusals, naming the status and the API's message", async () => {
      const { datasetId, candidateId } = await setup();
      const wrongKey = await runCliCommand(undefined, [...args(datasetId, candidateId), ...overHttp('epa_wrong')]);
      expect(wrongKey).toMatchObject({
        exitCode: 2,
        stderr: [expect.stringMatching(/^Error: GET \/admin\/v1\/session answered 401: /)],
      });
      const otherTenant = await runCliCommand(undefined, [...args(datasetId, candidateId), ...overHttp(other.admin)]);
      expect(otherTenant).toMatchObject({
        exitCode: 2,
        stderr: [`Error: The admin key is a key of tenant ${other.slug}, not of ${tenant.slug}`],
      });
      const unknownDataset = await runCliCommand(undefined, [...args(randomUUID(), candidateId), ...overHttp()]);
      expect(unknownDataset).toMatchObject({
        exitCode: 2,
        stderr: [expect.stringMatching(/^Error: GET \/admin\/v1\/datasets\/[0-9a-f-]{36} answered 404: /)],
      });
      const readOnly = await runCliCommand(undefined, [...args(datasetId, candidateId), ...overHttp(tenant.readOnly)]);
      expect(readOnly).toMatchObject({
        exitCode: 2,
        stderr: [expect.stringMatching(/^Error: POST \/admin\/v1\/datasets\/[0-9a-f-]{36}\/runs answered 403: /)],
      });
      const unreachable = await runCliCommand(undefined, [
        ...args(datasetId, candidateId),
        '--base-url',
        'http://127.0.0.1:9',
        '--admin-key',
        tenant.admin,
      ]);
      expect(unreachable).toMatchObject({
        exitCode: 2,
        stderr: [expect.stringMatching(/^Error: GET http:\/\/127\.0\.0\.1:9\/admin\/v1\/session failed: /)],
      });
    });

    it('runs from `npm run cli` (the built entry) without a database, with its exit code', async () => {
      const { datasetId, candidateId } = await setup();
      // No DATABASE_URL and a data directory nobody has: the command must not need either.
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path.join(ROOT, 'no-such-data-dir') };
      delete env.DATABASE_URL;
      const run = (argv: string[]) => runBuilt(argv, env);
      const regressed = await run([...args(datasetId, candidateId, '--version', '1'), ...overHttp()]);
      expect(regressed.code).toBe(1);
      expect(regressed.stdout).toMatch(/Regressed items \(1\):/);
      const passed = await run([...args(datasetId, candidateId), ...overHttp()]);
      expect(passed).toMatchObject({ code: 0, stderr: '' });
      const refused = await run([...args(randomUUID(), candidateId), ...overHttp()]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^Error: GET \/admin\/v1\/datasets\/.* answered 404: /);
    }, 60_000);
  });

  describe('the CI jobs of docs/evaluations.md', () => {
    const blocks = codeBlocks(fs.readFileSync(path.join(ROOT, 'docs', 'evaluations.md'), 'utf8'))
      .filter((block) => block.lang === 'yaml')
      .map((block) => parseYaml(block.text));

    /** The `eval run` line of a job, its variables filled in, as the words a shell would give the command. */
    function argvOf(line: string, values: Record<string, string>): string[] {
      const filled = line
        .replace(/\$\{\{ *(?:vars|secrets)\.(\w+) *\}\}/g, (_, name: string) => values[name])
        .replace(/\$(\w+)/g, (_, name: string) => values[name])
        .replace('http://localhost:3000', values.PROMPTGATE_URL);
      const words = filled
        .trim()
        .split(/\s+/)
        .map((word) => word.replace(/^"(.*)"$/, '$1'));
      expect(words.slice(0, 4)).toEqual(['npm', 'run', 'cli', '--']);
      return words.slice(4);
    }

    it('run eval run against the service, and fail the job when the thresholds are missed', async () => {
      const { datasetId, candidateId } = await setup();
      const values = {
        PROMPTGATE_URL: t.url,
        PROMPTGATE_TENANT: tenant.slug,
        PROMPTGATE_ADMIN_KEY: tenant.admin,
        EVAL_DATASET_ID: datasetId,
        EVAL_PROMPT_ID: candidateId,
        EVAL_BASE_URL: t.url,
        EVAL_ADMIN_KEY: tenant.admin,
      };
      const [github, gitlab] = blocks;
      const githubStep = github.jobs.evaluate.steps.find((step: { run?: string }) => step.run?.includes('eval run'));
      const gitlabLine = gitlab.evaluate.script.find((line: string) => line.includes('eval run'));
      expect(gitlab.evaluate.script).toContain('node dist/src/main.js &');
      for (const line of [githubStep.run as string, gitlabLine as string]) {
        // The current version passes; the job's command with --version 1 (which regresses) fails it.
        expect((await runCliCommand(undefined, argvOf(line, values))).exitCode).toBe(0);
        const failing = await runCliCommand(undefined, [...argvOf(line, values), '--version', '1']);
        expect(failing.exitCode).toBe(1);
      }
    });
  });
});
