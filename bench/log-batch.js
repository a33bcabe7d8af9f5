'use strict';
/**
 * What storing a tagged execution log costs, against the same log untagged, without the rest of a request: batches of
 * rows as the log writer stores them (its statement, and its windows of tag sums, written when they close), the CPU
 * of the database session that runs them (its server process's run time, /proc/<pid>/schedstat) and of this process
 * (building the statements, summing the windows), per row. Plain and tagged batches alternate (plain, tagged, tagged,
 * plain, ...); a round is `batches` of each. The tags are the bench's: `team` and `feature` of one value, `customer`
 * of 100 in turn. A window closes after `windowRows` tagged rows (10 s of the bench's misses at about 2,300 a second).
 * The server's background work (autovacuum, checkpoints) is not counted here; `npm run bench`'s pairs count it.
 *
 *   DATABASE_URL=postgres://…/scratch taskset -c 1 node bench/log-batch.js [checkout] [rounds 20] [batches 40] [rows 500] [windowRows 23000]
 *
 * The database must be a scratch one: the script applies the migrations and adds a tenant, deleted at the end.
 */
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const fs = require('node:fs');

const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
const [rounds, batches, rowsPerBatch, windowRows] = [3, 4, 5, 6].map((i, n) =>
  Number(process.argv[i] ?? [20, 40, 500, 23_000][n]),
);
const dist = (file) => require(path.join(root, 'dist/src', file));
const { DataSource } = require(path.join(root, 'node_modules/typeorm'));
const { dataSourceOptions, runMigrations } = dist('database/data-source');
const { TransactionHost } = dist('database/transactions');
const { toLogRow } = dist('modules/logs/log-row');
const { logBatchStatement } = dist('modules/logs/log-batch-statement');
/** A build from before the windows adds each batch's tag sums in the batch's own statement: measured as it is. */
const windowed = require('node:fs').existsSync(path.join(root, 'dist/src/modules/logs/tag-sum-windows.js'));
const { TagSumWindows } = windowed ? dist('modules/logs/tag-sum-windows') : {};
const { TagSumWindowsRepository } = windowed ? dist('modules/logs/tag-sum-windows.repository') : {};
const { SYSTEM_CLOCK } = dist('common/time/clock');

/** A log row as a miss of the bench leaves it (a short prompt and answer), with the bench's tags or none. */
function entry(tenantId, endpointId, n, tagged) {
  return {
    tenantId,
    endpointId,
    promptId: null,
    promptVersion: null,
    assignment: null,
    source: 'Api',
    keyId: null,
    keyEnvironment: 'live',
    requestId: randomUUID(),
    status: 'success',
    httpStatus: 200,
    errorCode: null,
    errorMessage: null,
    cached: false,
    llmModel: 'bench-instant',
    inputTokens: 12,
    outputTokens: 9,
    costUsd: 0.0000213,
    latencyMs: 1 + (n % 7),
    streamed: false,
    ttftMs: null,
    finishReason: 'stop',
    inputs: { text: `The quick brown fox ${n}` },
    renderedPrompt: `Summarize in one sentence: The quick brown fox ${n}`,
    renderedMessages: null,
    rawResponse: `A fox, quickly: ${n}`,
    parsedOutput: `A fox, quickly: ${n}`,
    attempts: [],
    tags: tagged ? { team: 'search', feature: 'summarize', customer: `cust-${n % 100}` } : {},
    createdAt: new Date(),
  };
}

async function main() {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL (a scratch database) is needed');
  const setup = await new DataSource(dataSourceOptions({ databaseUrl: process.env.DATABASE_URL }, [])).initialize();
  await runMigrations(setup, { databaseUrl: process.env.DATABASE_URL });
  await setup.destroy();
  // One connection, so every statement runs in the one server process whose CPU is read.
  const config = { databaseUrl: process.env.DATABASE_URL, databasePoolMax: 1 };
  const db = await new DataSource(dataSourceOptions(config, [])).initialize();
  const [{ pid }] = await db.query('SELECT pg_backend_pid() AS pid');
  const [{ id: tenantId }] = await db.query(`INSERT INTO tenants (slug, name) VALUES ($1, 'bench') RETURNING id`, [
    `bench-${randomUUID().slice(0, 8)}`,
  ]);
  const [{ id: endpointId }] = await db.query(
    `INSERT INTO endpoints (tenant_id, name, path) VALUES ($1, 'bench', 'bench') RETURNING id`,
    [tenantId],
  );
  const windows = windowed
    ? new TagSumWindows(new TagSumWindowsRepository(new TransactionHost(db)), SYSTEM_CLOCK, {
        windowMs: Infinity,
        maxRows: windowRows,
        maxGroups: Infinity,
      })
    : null;
  // Nanoseconds the session's server process has run (finer than /proc/<pid>/stat's clock ticks).
  const runNs = () => Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  let n = 0;
  /** Stores one batch (and, tagged, the window's sums when it is due); its CPU in µs per row, server and here. */
  const batch = async (tagged) => {
    const rows = Array.from(
      { length: rowsPerBatch },
      () => toLogRow(entry(tenantId, endpointId, n++, tagged), 65_536).row,
    );
    let mark = process.cpuUsage();
    const window = windows?.current();
    const { sql, params, tagged: taggedRows } = logBatchStatement(rows, window);
    let service = cpuUs(process.cpuUsage(mark));
    let server = runNs();
    await db.query(sql, params);
    server = runNs() - server;
    if (!windows) return { server: server / 1000 / rowsPerBatch, service: service / rowsPerBatch };
    mark = process.cpuUsage();
    windows.stored(window, taggedRows);
    service += cpuUs(process.cpuUsage(mark));
    if (windows.due()) {
      mark = process.cpuUsage();
      const before = runNs();
      windows.close();
      await windows.writeClosed();
      server += runNs() - before;
      service += cpuUs(process.cpuUsage(mark));
    }
    return { server: server / 1000 / rowsPerBatch, service: service / rowsPerBatch };
  };
  for (let b = 0; b < 10; b++) await batch(b % 2 === 0); // warm-up
  const plain = [];
  const tagged = [];
  for (let r = 0; r < rounds; r++) {
    const sums = { plain: { server: 0, service: 0 }, tagged: { server: 0, service: 0 } };
    // The two kinds of batch alternate (plain, tagged, tagged, plain, ...), so both meet the same machine.
    for (let b = 0; b < batches; b++)
      for (const withTags of b % 2 === 0 ? [false, true] : [true, false]) {
        const cost = await batch(withTags);
        const sum = withTags ? sums.tagged : sums.plain;
        sum.server += cost.server / batches;
        sum.service += cost.service / batches;
      }
    plain.push(sums.plain);
    tagged.push(sums.tagged);
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const report = (key) => {
    const differences = plain.map((p, i) => tagged[i][key] - p[key]);
    const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
    return {
      plain: mean(plain.map((p) => p[key])).toFixed(1),
      tagged: mean(tagged.map((p) => p[key])).toFixed(1),
      addedMedian: median(differences).toFixed(2),
      addedRange: `${Math.min(...differences).toFixed(1)} to ${Math.max(...differences).toFixed(1)}`,
    };
  };
  console.log(
    JSON.stringify(
      { rounds, batches, rowsPerBatch, windowRows, server: report('server'), service: report('service') },
      null,
      2,
    ),
  );
  await db.query(`DELETE FROM tenants WHERE id = $1`, [tenantId]);
  await db.destroy();
}

const cpuUs = (usage) => usage.user + usage.system;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
