import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { KeysService } from '../../src/modules/keys/keys.service';
import { auth } from '../support/seed';
import { useTwoInstances } from '../support/app-suite';

// The built CLI (`npm test` builds it first) run as an operator runs it, beside two running instances on one
// PostgreSQL (and Redis when REDIS_URL is set): what it revokes is refused by every instance within a second, whether
// or not the CLI is given REDIS_URL. The instances keep keys in memory for a minute, so only the bus can do that.
const ROOT = path.join(__dirname, '..', '..');
const CLI_MAIN = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const withPostgres = databaseUrl ? describe : describe.skip;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with exactly the given database variables (none of the test run's own). */
function cli(args: string[], env: { DATABASE_URL: string; REDIS_URL?: string }): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete childEnv.REDIS_URL;
  delete childEnv.INITIAL_ADMIN_KEY;
  delete childEnv.INITIAL_TENANT;
  childEnv.DATABASE_URL = env.DATABASE_URL;
  if (env.REDIS_URL) childEnv.REDIS_URL = env.REDIS_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_MAIN, ...args],
      { cwd: ROOT, env: childEnv, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Polls until `check` passes or `limitMs` have gone by, then asserts once more. */
async function within(limitMs: number, check: () => Promise<void>): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > limitMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

withPostgres("the CLI's key changes on running instances (skipped unless DATABASE_URL is set)", () => {
  beforeAll(() => {
    if (!fs.existsSync(CLI_MAIN))
      throw new Error(`${CLI_MAIN} is missing: run "npm run build" (npm test does it first)`);
  });
  const { a, b, tenant } = useTwoInstances();

  /** A new admin key, authenticated once on each instance so both hold it in memory. */
  async function warmKey(): Promise<{ id: string; key: string }> {
    const created = await a.app
      .get(KeysService)
      .create(tenant.id, { name: 'cli-revoked', type: 'admin', permission: 'ReadWrite' });
    for (const instance of [a, b]) await instance.http.get('/admin/v1/endpoints').set(auth(created.key)).expect(200);
    return { id: created.id, key: created.key };
  }

  async function expectRefusedEverywhere(key: string, limitMs = 2_000): Promise<void> {
    await within(limitMs, async () => {
      const answers = await Promise.all(
        [a, b].map((instance) => instance.http.get('/admin/v1/endpoints').set(auth(key))),
      );
      expect(answers.map((res) => res.status)).toEqual([401, 401]);
    });
  }

  it('revokes a key on every instance when the CLI has DATABASE_URL and no REDIS_URL', async () => {
    const { id, key } = await warmKey();
    const revoked = await cli(['key', 'revoke', '--tenant', tenant.slug, id], { DATABASE_URL: databaseUrl! });
    expect(revoked.stderr).toBe('');
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked key ${id}`);
    await expectRefusedEverywhere(key);
  }, 60_000);

  it('revokes a key on every instance when the CLI has REDIS_URL too', async () => {
    const { id, key } = await warmKey();
    const revoked = await cli(['key', 'revoke', '--tenant', tenant.slug, id], {
      DATABASE_URL: databaseUrl!,
      REDIS_URL: redisUrl,
    });
    expect(revoked.code).toBe(0);
    await expectRefusedEverywhere(key);
  }, 60_000);

  it('drops every key it holds once its PostgreSQL listener is back, since messages sent meanwhile are lost', async () => {
    const { id, key } = await warmKey();
    const sql = new Client({ connectionString: databaseUrl });
    await sql.connect();
    try {
      // Revoked behind the service's back: no message at all, as if it had been sent while the listeners were away.
      await sql.query(`UPDATE api_keys SET status = 'Revoked' WHERE id = $1`, [id]);
      for (const instance of [a, b]) await instance.http.get('/admin/v1/endpoints').set(auth(key)).expect(200);
      const cut = await sql.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND (query LIKE 'LISTEN %' OR query LIKE '%pg_notify%')`,
      );
      expect(cut.rowCount).toBeGreaterThanOrEqual(2);
    } finally {
      await sql.end();
    }
    // The listeners reconnect a second later and reset what they hold.
    await expectRefusedEverywhere(key, 5_000);
  }, 60_000);
});
