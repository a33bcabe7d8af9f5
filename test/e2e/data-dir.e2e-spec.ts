import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { eventually, killAndWait, untilHealthy } from '../support/eventually';
import { freePort } from '../support/own-servers';

/**
 * The data directory is the service user's only: DATA_DIR and everything the service creates in it (the embedded
 * database's files and WAL, the lock file, the CLI socket) are 0700 directories and 0600 files, and a directory left
 * with looser modes (an older version, or made by hand) is tightened at start. The built service, on the embedded
 * database, as a user runs it.
 */
const ROOT = path.join(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const ADMIN_KEY = 'epa_' + 'DataDirTestKey0'.repeat(3);

interface Service {
  child: ChildProcess;
  base: string;
  stderr: string[];
  exited: Promise<number | null>;
}

/**
 * Starts the service on `dataDir`. A free port can be taken by another suite's service between the check and the
 * child's listen, and /health would then answer from that one: the service is ours when it knows this file's admin
 * key (each data directory has its own keys); otherwise it is started again on another port.
 */
async function start(dataDir: string): Promise<Service> {
  for (let attempt = 1; ; attempt++) {
    const service = await startOnce(dataDir);
    const ours = await fetch(`${service.base}/admin/v1/endpoints`, { headers: { 'x-api-key': ADMIN_KEY } }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ours && service.child.exitCode === null) return service;
    await killAndWait(service.child, service.exited);
    if (attempt === 3)
      throw new Error(`the service on ${dataDir} never answered as itself: ${service.stderr.join('')}`);
  }
}

async function startOnce(dataDir: string): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_MS: '0',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  Object.assign(env, { INITIAL_ADMIN_KEY: ADMIN_KEY, INITIAL_TENANT: 'private' });
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const service = { child, base: `http://127.0.0.1:${port}`, stderr, exited };
  await untilHealthy(`${service.base}/health`, exited, () => stderr.join(''));
  return service;
}

async function stop(service: Service): Promise<void> {
  if (service.child.exitCode !== null) return;
  service.child.kill('SIGTERM');
  expect(await service.exited).toBe(0);
}

async function admin(service: Service, method: string, route: string, body?: unknown): Promise<any> {
  const res = await fetch(`${service.base}${route}`, {
    method,
    headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Writes through every layer: an endpoint, a prompt, a test run and its log row (in the WAL and the tables). */
async function writeSomething(service: Service, tag: string): Promise<void> {
  const endpoint = await admin(service, 'POST', '/admin/v1/endpoints', {
    name: `Private ${tag}`,
    path: `/api/v1/private-${tag}`,
  });
  const prompt = await admin(service, 'POST', '/admin/v1/prompts', {
    name: `Prompt ${tag}`,
    endpointId: endpoint.id,
    llmModel: 'mock-echo',
    template: `secret ${tag}`,
  });
  await admin(service, 'POST', `/admin/v1/endpoints/${endpoint.id}/test`, { promptId: prompt.id, inputs: {} });
  await eventually(async () => {
    const page = await admin(service, 'GET', `/admin/v1/logs?endpointId=${endpoint.id}`);
    return page.total === 1;
  }, 'the test run to be logged');
}

/** Every entry under `root` (itself included) whose mode is not 0700 for a directory or 0600 for anything else. */
function notPrivate(root: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    const mode = stat.mode & 0o777;
    if (mode !== (stat.isDirectory() ? 0o700 : 0o600))
      found.push(`${path.relative(root, entry) || '.'} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return found;
}

/** Entries under `root`, by kind, so the checks above are known to have looked at something. */
function census(root: string): { directories: number; files: number; sockets: number } {
  const counts = { directories: 0, files: 0, sockets: 0 };
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isDirectory()) {
      counts.directories++;
      for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
    } else if (stat.isSocket()) counts.sockets++;
    else counts.files++;
  };
  visit(root);
  return counts;
}

describe('the data directory', () => {
  let scratch: string;
  let dataDir: string;
  let service: Service | undefined;

  beforeAll(() => {
    if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" (npm test does it first)`);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-data-dir-'));
    dataDir = path.join(scratch, 'service', 'data');
  });

  afterAll(async () => {
    if (service) await killAndWait(service.child, service.exited);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('is created private, and everything written into it while the service runs stays private', async () => {
    service = await start(dataDir);
    await writeSomething(service, 'first');

    const running = census(dataDir);
    expect(running.sockets).toBe(1); // the CLI's control socket
    expect(fs.existsSync(path.join(dataDir, 'promptgate.pid'))).toBe(true);
    expect(fs.readdirSync(path.join(dataDir, 'pgdata', 'pg_wal')).length).toBeGreaterThan(0);
    expect(running.files).toBeGreaterThan(100);
    expect(notPrivate(dataDir)).toEqual([]);

    await stop(service);
    expect(notPrivate(dataDir)).toEqual([]);
  }, 180_000);

  it('tightens a directory left with looser modes at start', async () => {
    if (service && service.child.exitCode === null) await stop(service);
    // What an older version left: directories 0755, files 0644 or 0666, plus a file of the operator's.
    fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'left here by hand', { mode: 0o644 });
    fs.mkdirSync(path.join(dataDir, 'backup'), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'backup', 'old.sql'), 'select 1', { mode: 0o666 });
    let loosened = 0;
    const loosen = (entry: string) => {
      const stat = fs.lstatSync(entry);
      fs.chmodSync(entry, stat.isDirectory() ? 0o755 : loosened % 2 === 0 ? 0o644 : 0o666);
      loosened++;
      if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) loosen(path.join(entry, name));
    };
    loosen(dataDir);
    expect(notPrivate(dataDir).length).toBe(loosened);

    service = await start(dataDir);
    expect(notPrivate(dataDir)).toEqual([]);
    await writeSomething(service, 'second');
    expect(notPrivate(dataDir)).toEqual([]);
    expect(fs.readFileSync(path.join(dataDir, 'notes.txt'), 'utf8')).toBe('left here by hand');
    await stop(service);
    expect(notPrivate(dataDir)).toEqual([]);
  }, 180_000);
});
