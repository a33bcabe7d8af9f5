import type * as PgliteSdk from '@electric-sql/pglite';
import type { PGlite } from '@electric-sql/pglite';
import type * as PgliteNodePostgres from '@electric-sql/pglite/node-postgres';
import * as fs from 'node:fs';
import * as path from 'node:path';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The data directory ${dataDir} is in use by process ${pid}; only one process may open an embedded database`);
  }
}

/**
 * The embedded PostgreSQL-compatible database (PGlite) used when DATABASE_URL is unset.
 * PGlite is single-process: a pid lock file in the data directory keeps a second process out, and the CLI talks to
 * the running service through its control socket instead (see `cli/`).
 * The data directory holds the logs and the keys' hashes, so it and everything in it are the service user's only
 * (directories 0700, files 0600).
 */
export class EmbeddedDatabase {
  readonly pglite: PGlite;
  private readonly lockFile?: string;
  private readonly dataDir?: string;
  /** Settles once the files PGlite writes while starting have been made private. */
  private readonly startedPrivate: Promise<void>;

  private constructor(pglite: PGlite, dataDir?: string, lockFile?: string) {
    this.pglite = pglite;
    this.dataDir = dataDir;
    this.lockFile = lockFile;
    // PGlite sets its own modes, whatever the umask: it unpacks a fresh cluster as 0666/0755 and rewrites its
    // relation cache files as 0644 at each start. The tree is tightened again once it is up, before any query runs.
    // Best effort from here on: the tree was already made private (or the open failed) before PGlite started.
    this.startedPrivate = dataDir
      ? pglite.waitReady.then(
          () => tryMakePrivate(dataDir),
          () => undefined,
        )
      : Promise.resolve();
  }

  /** node-postgres options whose connections are sessions of this database (for TypeORM's pg driver). */
  pgConfig(): ReturnType<typeof PgliteNodePostgres.createPgConfig> {
    const { createPgConfig } = require('@electric-sql/pglite/node-postgres') as typeof PgliteNodePostgres;
    return createPgConfig(this.pglite);
  }

  /** `memory://` opens a throwaway in-memory database, optionally from a `dumpDataDir` template (tests). */
  static open(dataDir: string, template?: Blob): EmbeddedDatabase {
    // Loaded here, not at start: a service on DATABASE_URL never needs PGlite.
    const { PGlite } = require('@electric-sql/pglite') as typeof PgliteSdk;
    if (dataDir.startsWith('memory://')) {
      return new EmbeddedDatabase(new PGlite({ dataDir, loadDataDir: template }));
    }
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const lockFile = path.join(dataDir, 'promptgate.pid');
    acquireLock(lockFile, dataDir);
    try {
      // A directory left by an older version, or created by hand, is tightened before the database opens.
      makePrivate(dataDir);
      return new EmbeddedDatabase(new PGlite({ dataDir: path.join(dataDir, 'pgdata') }), dataDir, lockFile);
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
    try {
      await this.startedPrivate;
      if (!this.pglite.closed) await this.pglite.close();
      // Files PGlite created while running (with modes of its own) are left private at rest.
      if (this.dataDir) tryMakePrivate(this.dataDir);
    } finally {
      if (this.lockFile && readPid(this.lockFile) === process.pid) fs.rmSync(this.lockFile, { force: true });
    }
  }
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
