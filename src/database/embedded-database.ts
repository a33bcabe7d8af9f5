import type { PGlite } from '@electric-sql/pglite';
import type * as PgliteNodePostgres from '@electric-sql/pglite/node-postgres';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BackendMessage } from 'pg-protocol/dist/messages';
import type * as PgProtocolParser from 'pg-protocol/dist/parser';
import { DatabaseThread, DatabaseThreadEndedError } from './embedded-database-thread';
import { ProtocolFailure } from './protocol-failure';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The data directory ${dataDir} is in use by process ${pid}; only one process may open an embedded database`);
  }
}

/**
 * PostgreSQL's memory settings for one small embedded instance, in place of initdb's defaults for a shared server
 * (128 MB of shared buffers, 100 connections, 64 MB for maintenance): PGlite is one session, and its WebAssembly memory
 * only grows (pages it has touched stay resident until the process exits). Applied at every start, so a data directory
 * initialised by an older version gets them too, and written into a new directory's postgresql.conf by initdb.
 */
export const EMBEDDED_SETTINGS: readonly string[] = [
  'shared_buffers=16MB',
  'wal_buffers=1MB',
  'temp_buffers=1MB',
  'maintenance_work_mem=16MB',
  'max_connections=10',
];

/** Rows read outside TypeORM. */
interface QueryResult<T> {
  rows: T[];
}

/**
 * The embedded PostgreSQL-compatible database (PGlite) used when DATABASE_URL is unset.
 * PGlite is single-process: a pid lock file in the data directory keeps a second process out, and the CLI talks to
 * the running service through its control socket instead (see `cli/`).
 * The data directory holds the logs and the keys' hashes, so it and everything in it are the service user's only
 * (directories 0700, files 0600).
 * PGlite runs in a worker thread (see DatabaseThread), so its SQL runs beside the event loop. A new data directory is
 * first initialised (initdb) by a short-lived child process: initdb needs several hundred megabytes that a WebAssembly
 * instance never hands back, and the child's exit returns them.
 */
export class EmbeddedDatabase {
  private readonly started: Promise<DatabaseThread>;
  private readonly lockFile?: string;
  private readonly dataDir?: string;
  /** Settles once the files PGlite writes while starting have been made private. */
  private readonly startedPrivate: Promise<void>;
  private closed = false;

  private constructor(started: Promise<DatabaseThread>, dataDir?: string, lockFile?: string) {
    this.started = started;
    this.dataDir = dataDir;
    this.lockFile = lockFile;
    // PGlite sets its own modes, whatever the umask: it unpacks a fresh cluster as 0666/0755 and rewrites its
    // relation cache files as 0644 at each start. The tree is tightened again once it is up, before any query runs.
    // Best effort from here on: the tree was already made private (or the open failed) before PGlite started.
    this.startedPrivate = started
      .then((thread) => thread.ready)
      .then(
        () => (dataDir ? tryMakePrivate(dataDir) : undefined),
        () => undefined,
      );
  }

  /** node-postgres options whose connections are sessions of this database (for TypeORM's pg driver). */
  pgConfig(): ReturnType<typeof PgliteNodePostgres.createPgConfig> {
    const { createPgConfig } = require('@electric-sql/pglite/node-postgres') as typeof PgliteNodePostgres;
    const { Parser } = require('pg-protocol/dist/parser') as typeof PgProtocolParser;
    // The connection waits for `waitReady` before its first message, and a failed message would be an error event
    // the adapter cannot deliver once node-postgres has let the connection go: neither ever rejects. A database that
    // failed to open, or whose thread ended, answers each message as a server that went away does (see
    // ProtocolFailure), with its SQLSTATE (57P02 for an ended thread), and the service answers 503.
    const started = this.started;
    let failure: ProtocolFailure | undefined;
    const session = {
      get waitReady() {
        return started.then((thread) => thread.ready).catch(() => undefined);
      },
      async execProtocolStream(message: Uint8Array): Promise<BackendMessage[]> {
        let answer: Uint8Array;
        try {
          if (failure) throw new Error('failed before');
          const thread = await started;
          await thread.ready;
          answer = await thread.exec(message);
        } catch (error) {
          failure ??= new ProtocolFailure(sqlStateOf(error) ?? '57P03', messageOf(error));
          answer = failure.answer(message);
        }
        const messages: BackendMessage[] = [];
        new Parser().parse(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength), (parsed) =>
          messages.push(parsed),
        );
        return messages;
      },
    };
    return createPgConfig(session as unknown as PGlite);
  }

  /** Settles once the database is open (rejects if it could not be). */
  get waitReady(): Promise<void> {
    return this.started.then((thread) => thread.ready);
  }

  /** One statement outside TypeORM (tests and tools read what the service wrote). */
  async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    return (await this.started).query<T>(sql, params);
  }

  /** The whole database as a gzipped tar (a template `open` can load). */
  async dumpDataDir(): Promise<Blob> {
    return new Blob([(await (await this.started).dump()) as Uint8Array<ArrayBuffer>]);
  }

  /** Ends the database thread at once, as a crash would: what follows answers 503 (tests). */
  async crash(): Promise<void> {
    await (await this.started).terminate();
  }

  /**
   * `memory://` opens a throwaway in-memory database, optionally from a `dumpDataDir` template (tests).
   * `onEnded` hears once if the database thread ends before `close` (a crash).
   */
  static open(dataDir: string, template?: Blob, onEnded?: (error: DatabaseThreadEndedError) => void): EmbeddedDatabase {
    if (dataDir.startsWith('memory://')) {
      const started = template
        ? template.arrayBuffer().then((bytes) => startThread(dataDir, onEnded, new Uint8Array(bytes)))
        : Promise.resolve(startThread(dataDir, onEnded));
      return new EmbeddedDatabase(started);
    }
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const lockFile = path.join(dataDir, 'promptgate.pid');
    acquireLock(lockFile, dataDir);
    try {
      // A directory left by an older version, or created by hand, is tightened before the database opens.
      makePrivate(dataDir);
      const pgdata = path.join(dataDir, 'pgdata');
      const started = isInitialised(pgdata)
        ? Promise.resolve(startThread(pgdata, onEnded))
        : initialise(pgdata).then(() => startThread(pgdata, onEnded));
      return new EmbeddedDatabase(started, dataDir, lockFile);
    } catch (error) {
      fs.rmSync(lockFile, { force: true });
      throw error;
    }
  }

  /** The pid of the process holding `dataDir`, if a live one does. */
  static holder(dataDir: string): number | undefined {
    const pid = readPid(path.join(dataDir, 'promptgate.pid'));
    return pid !== undefined && pid !== process.pid && isAlive(pid) ? pid : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.startedPrivate;
      const thread = await this.started.catch(() => undefined);
      await thread?.close();
      // Files PGlite created while running (with modes of its own) are left private at rest.
      if (this.dataDir) tryMakePrivate(this.dataDir);
    } finally {
      if (this.lockFile && readPid(this.lockFile) === process.pid) fs.rmSync(this.lockFile, { force: true });
    }
  }
}

function sqlStateOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const settingsAsParams = (settings: readonly string[]) => settings.flatMap((setting) => ['-c', setting]);

/** Starts PGlite in its thread with the embedded settings. */
function startThread(
  dataDir: string,
  onEnded?: (error: DatabaseThreadEndedError) => void,
  template?: Uint8Array,
): DatabaseThread {
  return new DatabaseThread(
    {
      dataDir,
      template,
      startParams: settingsAsParams(EMBEDDED_SETTINGS),
      initDbStartParams: settingsAsParams(EMBEDDED_SETTINGS),
    },
    onEnded,
  );
}

function isInitialised(pgdata: string): boolean {
  return fs.existsSync(path.join(pgdata, 'PG_VERSION'));
}

/** Runs initdb on `pgdata` in a child process (see EmbeddedDatabase); rejects with initdb's own message if it fails. */
function initialise(pgdata: string): Promise<void> {
  const script = `
    const { PGlite } = require(${JSON.stringify(require.resolve('@electric-sql/pglite'))});
    const pglite = new PGlite({ dataDir: ${JSON.stringify(pgdata)}, initDbStartParams: ${JSON.stringify(settingsAsParams(EMBEDDED_SETTINGS))} });
    pglite.waitReady.then(() => pglite.close()).catch((error) => {
      process.stderr.write(String(error && error.message ? error.message : error));
      process.exit(1);
    });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `Could not initialise the embedded database in ${pgdata} (initdb ${signal ? `killed by ${signal}` : `exited with ${code}`}): ${stderr.trim()}`,
          ),
        );
    });
  });
}

function acquireLock(lockFile: string, dataDir: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = readPid(lockFile);
      if (pid !== undefined && pid !== process.pid && isAlive(pid)) throw new DataDirInUseError(dataDir, pid);
      fs.rmSync(lockFile, { force: true }); // stale lock of a process that died
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}

function readPid(lockFile: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
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

/**
 * Directories 0700 and files 0600 from `root` down. Symbolic links are neither followed nor changed (chmod would
 * change their targets, which are not ours); an entry that disappears meanwhile is skipped.
 */
export function makePrivate(root: string): void {
  const visit = (entry: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? 0o700 : 0o600;
    try {
      if ((stat.mode & 0o777) !== wanted) fs.chmodSync(entry, wanted);
      if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  };
  visit(fs.realpathSync(root)); // DATA_DIR itself may be a link to the real directory
}

function tryMakePrivate(root: string): void {
  try {
    makePrivate(root);
  } catch {
    // best effort (see the callers)
  }
}
