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
 */
export class EmbeddedDatabase {
  readonly pglite: PGlite;
  private readonly lockFile?: string;

  private constructor(pglite: PGlite, lockFile?: string) {
    this.pglite = pglite;
    this.lockFile = lockFile;
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
    fs.mkdirSync(dataDir, { recursive: true });
    const lockFile = path.join(dataDir, 'promptgate.pid');
    acquireLock(lockFile, dataDir);
    try {
      return new EmbeddedDatabase(new PGlite({ dataDir: path.join(dataDir, 'pgdata') }), lockFile);
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
      if (!this.pglite.closed) await this.pglite.close();
    } finally {
      if (this.lockFile && readPid(this.lockFile) === process.pid) fs.rmSync(this.lockFile, { force: true });
    }
  }
}

function acquireLock(lockFile: string, dataDir: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
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
