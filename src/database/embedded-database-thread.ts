import { Worker } from 'node:worker_threads';

/** What the database thread is started with. */
export interface DatabaseThreadOptions {
  /** A directory, or `memory://` for a throwaway in-memory database. */
  dataDir: string;
  /** A `dumpDataDir` tarball to start an in-memory database from (tests). */
  template?: Uint8Array;
  /** Added to PGlite's own start parameters. */
  startParams: string[];
  initDbStartParams: string[];
}

/**
 * The database thread has ended (it crashed, was ended, or the database was closed): every call fails with this.
 * Its SQLSTATE is PostgreSQL's "crash shutdown" (57P02), so the service answers 503 (database unavailable) as it does
 * when a PostgreSQL server goes away, rather than a 500 or a hang.
 */
export class DatabaseThreadEndedError extends Error {
  readonly code = '57P02';

  constructor(reason: string) {
    super(`The embedded database has stopped: ${reason}`);
  }
}

/**
 * The database thread's young generation: the thread only passes protocol messages between PGlite's memory and the
 * event loop, and V8's default (sized for a main thread's throughput, up to 64 MB a semi-space on Node 24) added tens of
 * megabytes of resident memory under load.
 */
const YOUNG_GENERATION_MB = 8;

type Reply = { id: number; result?: unknown; error?: { message: string; code?: string } };
type ThreadMessage = { kind: 'ready' } | { kind: 'failed'; message: string } | ({ kind: 'reply' } & Reply);

/**
 * PGlite in a worker thread: its SQL runs beside the event loop instead of on it, and its WebAssembly memory is the
 * thread's. The thread answers one message at a time, in order; `exec` carries raw PostgreSQL protocol bytes (what
 * node-postgres sends), so the pg driver and TypeORM work on the main thread as they do over a socket.
 */
export class DatabaseThread {
  /** Settles once PGlite is open in the thread; rejects if it could not be opened. */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private ended?: DatabaseThreadEndedError;
  private readonly exited: Promise<void>;

  constructor(options: DatabaseThreadOptions, onEnded?: (error: DatabaseThreadEndedError) => void) {
    const template = options.template ? new Uint8Array(options.template) : undefined;
    this.worker = new Worker(threadScript(require.resolve('@electric-sql/pglite')), {
      eval: true,
      workerData: { ...options, template },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      transferList: template ? [template.buffer] : [],
    });
    let markReady: () => void;
    let markFailed: (error: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    this.ready.catch(() => undefined); // the failure is also every later call's
    this.worker.on('message', (message: ThreadMessage) => {
      if (message.kind === 'ready') markReady();
      else if (message.kind === 'failed') markFailed(new Error(message.message));
      else this.settle(message);
    });
    this.worker.on('error', (error: Error) => this.end(error.message));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        const wasEnded = this.ended !== undefined;
        this.end(`its thread exited with code ${code}`);
        markFailed(this.ended!);
        if (!wasEnded) onEnded?.(this.ended!);
        resolve();
      }),
    );
  }

  /** Runs protocol messages; resolves with the backend's raw answer. */
  exec(message: Uint8Array): Promise<Uint8Array> {
    // A copy, transferred: node-postgres' small buffers are slices of a shared pool that must not move.
    const copy = new Uint8Array(message);
    return this.call({ kind: 'exec', bytes: copy }, [copy.buffer]) as Promise<Uint8Array>;
  }

  query<T>(sql: string, params: unknown[]): Promise<{ rows: T[] }> {
    return this.call({ kind: 'query', sql, params }) as Promise<{ rows: T[] }>;
  }

  /** The database as a gzipped tarball. */
  async dump(): Promise<Uint8Array> {
    return (await this.call({ kind: 'dump' })) as Uint8Array;
  }

  /** Closes PGlite (writing what it holds) and ends the thread. */
  async close(): Promise<void> {
    if (!this.ended) {
      await this.call({ kind: 'close' }).catch(() => undefined);
      this.end('it was closed');
    }
    await this.worker.terminate();
    await this.exited;
  }

  /** Ends the thread at once, as a crash would (nothing is written). */
  async terminate(): Promise<void> {
    await this.worker.terminate();
    await this.exited;
  }

  private call(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  private settle({ id, result, error }: Reply): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    if (error) waiting.reject(Object.assign(new Error(error.message), error.code ? { code: error.code } : {}));
    else waiting.resolve(result);
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.ended = new DatabaseThreadEndedError(reason);
    for (const waiting of this.pending.values()) waiting.reject(this.ended);
    this.pending.clear();
  }
}

/** The thread's code (plain JavaScript, so it runs the same from the build and from the TypeScript tests). */
function threadScript(pglitePath: string): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(${JSON.stringify(pglitePath)});
const { dataDir, template, startParams, initDbStartParams } = workerData;
const pglite = new PGlite({
  dataDir,
  loadDataDir: template ? new Blob([template]) : undefined,
  startParams: [...PGlite.defaultStartParams, ...startParams],
  initDbStartParams,
});
const handlers = {
  async exec({ bytes }) {
    const answer = await pglite.execProtocolRaw(bytes);
    return [answer, [answer.buffer]];
  },
  async query({ sql, params }) {
    const result = await pglite.query(sql, params);
    return [{ rows: result.rows }, []];
  },
  async dump() {
    const bytes = new Uint8Array(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
    return [bytes, [bytes.buffer]];
  },
  async close() {
    if (!pglite.closed) await pglite.close();
    return [undefined, []];
  },
};
// Messages wait for PGlite to open; if it cannot, the thread reports why and exits.
let queue = pglite.waitReady.then(
  () => parentPort.postMessage({ kind: 'ready' }),
  (error) => {
    parentPort.postMessage({ kind: 'failed', message: String(error && error.message ? error.message : error) });
    process.exit(1);
  },
);
parentPort.on('message', (message) => {
  queue = queue.then(async () => {
    try {
      const [result, transfer] = await handlers[message.kind](message);
      parentPort.postMessage({ kind: 'reply', id: message.id, result }, transfer);
    } catch (error) {
      parentPort.postMessage({
        kind: 'reply',
        id: message.id,
        error: { message: String(error && error.message ? error.message : error), code: error && error.code },
      });
    }
  });
});
`;
}
