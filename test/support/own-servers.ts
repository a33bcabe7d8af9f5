import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';

/**
 * Throwaway Redis and PostgreSQL servers for the fault tests: each on a free port of 127.0.0.1, in a temporary
 * directory of its own, started and stopped by its own pid, so a test can take a server away and bring it back on the
 * same port without touching the machine's shared servers (5432 and 6379 are never used). Every server is stopped
 * and its directory removed by `dispose()`, when the process exits, and by the next run if a crashed one left it.
 */

const SHARED_PORTS = new Set([5432, 6379]);
const DIRECTORY_PREFIX = 'promptgate-own-';
const READY_TIMEOUT_MS = 30_000;

interface OwnServer {
  kind: string;
  directory: string;
  /** Stops the server at once (process exit, crashed runs): no waiting. */
  kill(): void;
}

const running = new Set<OwnServer>();
let exitHookInstalled = false;

function track(server: OwnServer): void {
  running.add(server);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const each of running) {
      each.kill();
      fs.rmSync(each.directory, { recursive: true, force: true });
    }
  });
}

function untrack(server: OwnServer): void {
  running.delete(server);
}

/** A port nothing listens on now (and never one of the shared servers'). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    if (!SHARED_PORTS.has(port)) return port;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Directories are named `promptgate-own-<kind>-<owner pid>-…`; a server whose owner is gone is stopped and removed. */
function newDirectory(kind: string): string {
  removeLeftovers();
  return fs.mkdtempSync(path.join(os.tmpdir(), `${DIRECTORY_PREFIX}${kind}-${process.pid}-`));
}

function removeLeftovers(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const match = new RegExp(`^${DIRECTORY_PREFIX}[a-z]+-(\\d+)-`).exec(name);
    if (!match || isAlive(Number(match[1]))) continue;
    const directory = path.join(os.tmpdir(), name);
    for (const pidFile of ['server.pid', 'data/postmaster.pid']) {
      try {
        const pid = Number(fs.readFileSync(path.join(directory, pidFile), 'utf8').split('\n')[0]);
        if (pid > 0) signal(pid, 'SIGKILL');
      } catch {
        // no such file
      }
    }
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Redis

export interface OwnRedis {
  port: number;
  url: string;
  /** Starts the server (again) on its port; resolves once it answers PING. */
  start(): Promise<void>;
  /** Kills the server by its pid (as a crash would); resolves once it has exited. Its data is gone (no persistence). */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
    socket.on('error', () => undefined);
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const directory = newDirectory('redis');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: OwnServer = { kind: 'redis', directory, kill: () => signal(child?.pid, 'SIGKILL') };
  track(server);

  const own: OwnRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) return;
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', directory],
        {
          stdio: 'ignore',
        },
      );
      fs.writeFileSync(path.join(directory, 'server.pid'), String(child.pid));
      const started = child;
      await waitUntil(async () => {
        if (started.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${started.exitCode}`);
        return redisAnswers(port);
      }, `Redis on port ${port} answering`);
    },
    async stop() {
      if (!child) return;
      const stopping = child;
      signal(stopping.pid, 'SIGKILL');
      await exitOf(stopping);
    },
    async dispose() {
      await own.stop();
      untrack(server);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
  await own.start();
  return own;
}

// ---------------------------------------------------------------------------------------------------------------------
// PostgreSQL

export interface OwnPostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database: string): string;
  /** Creates a database (trust authentication, user postgres). */
  createDatabase(name: string): Promise<void>;
  /** Runs one query against a database of this server. */
  query<T = Record<string, unknown>>(database: string, sql: string, parameters?: unknown[]): Promise<T[]>;
  /** Starts the server (again) on its port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Fast shutdown by the postmaster's pid (sessions are terminated); resolves once it has exited. */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

/** The directory of initdb and postgres: on PATH, or the newest Debian/Ubuntu installation. */
function postgresBinaries(): string {
  const onPath = (process.env.PATH ?? '').split(path.delimiter).find((dir) => fs.existsSync(path.join(dir, 'initdb')));
  if (onPath) return onPath;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0)
    throw new Error('No PostgreSQL server binaries (initdb) found on PATH or in /usr/lib/postgresql');
  return path.join(root, versions[0], 'bin');
}

/** PostgreSQL refuses to run as root: as root the server runs as the `postgres` user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('Running as root needs a "postgres" user to run the throwaway PostgreSQL server');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function postgresAnswers(port: number): Promise<boolean> {
  const client = new Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    connectionTimeoutMillis: 1_000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const directory = newDirectory('postgres');
  const port = await freePort();
  const bin = postgresBinaries();
  const user = serverUser();
  const data = path.join(directory, 'data');
  if (user) fs.chownSync(directory, user.uid, user.gid);
  execFileSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    {
      cwd: directory,
      stdio: 'pipe',
      ...user,
    },
  );
  let child: ChildProcess | undefined;
  const server: OwnServer = { kind: 'postgres', directory, kill: () => signal(child?.pid, 'SIGKILL') };
  track(server);

  const own: OwnPostgres = {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      await own.query('postgres', `CREATE DATABASE "${name.replace(/"/g, '')}"`);
    },
    async query<T>(database: string, sql: string, parameters: unknown[] = []) {
      const client = new Client({ host: '127.0.0.1', port, user: 'postgres', database });
      await client.connect();
      try {
        return (await client.query(sql, parameters)).rows as T[];
      } finally {
        await client.end();
      }
    },
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) return;
      const settings = [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${directory}`,
        '-c',
        'fsync=off',
      ];
      settings.push('-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200');
      child = spawn(path.join(bin, 'postgres'), ['-D', data, '-p', String(port), ...settings], {
        cwd: directory,
        stdio: 'ignore',
        ...user,
      });
      fs.writeFileSync(path.join(directory, 'server.pid'), String(child.pid));
      const started = child;
      await waitUntil(async () => {
        if (started.exitCode !== null) throw new Error(`postgres on port ${port} exited with ${started.exitCode}`);
        return postgresAnswers(port);
      }, `PostgreSQL on port ${port} accepting connections`);
    },
    async stop() {
      if (!child) return;
      const stopping = child;
      // SIGINT is PostgreSQL's fast shutdown: sessions are terminated, the server exits cleanly.
      signal(stopping.pid, 'SIGINT');
      await exitOf(stopping);
    },
    async dispose() {
      if (child && child.exitCode === null && child.signalCode === null) {
        signal(child.pid, 'SIGQUIT');
        await exitOf(child);
      }
      untrack(server);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
  await own.start();
  return own;
}
