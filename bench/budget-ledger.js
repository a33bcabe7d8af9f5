'use strict';
/**
 * What the Redis budget ledger costs the service's process, without the rest of a request: `workers` callers each
 * reserve against one budget line, wait one event-loop pass (the provider call), settle without waiting, and go again,
 * for `seconds`; prints the process's CPU time (user + system) per reserve-and-settle pair. Run it pinned to one core
 * and against a built checkout, so two builds compare on the same machine:
 *
 *   REDIS_URL=redis://127.0.0.1:6379 taskset -c 0 node bench/budget-ledger.js [checkout] [workers 50] [seconds 4]
 */
const path = require('node:path');
const { randomUUID } = require('node:crypto');

const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
const workers = Number(process.argv[3] ?? 50);
const seconds = Number(process.argv[4] ?? 4);
const { AppLogger } = require(path.join(root, 'dist/src/common/logging/app-logger'));
const { createRedisClient, whenReady, closeRedisClient } = require(
  path.join(root, 'dist/src/common/redis/redis-client'),
);
const { RedisBudgetLedger } = require(path.join(root, 'dist/src/modules/budgets/redis-budget-ledger'));

async function main() {
  if (!process.env.REDIS_URL) throw new Error('REDIS_URL is needed');
  const redis = createRedisClient(process.env.REDIS_URL, 'bench-budget-ledger', new AppLogger({ logLevel: 'silent' }));
  if (!(await whenReady(redis))) throw new Error('Redis is not reachable');
  const ledger = new RedisBudgetLedger(redis);
  const key = `promptgate:budget:{bench-${randomUUID()}}:line`;
  await ledger.seed(key, 0, new Date(Date.now() + 3_600_000));
  const lines = [{ key, limit: 1e15 }];
  let pairs = 0;
  let running = true;
  const caller = async () => {
    while (running) {
      const id = randomUUID();
      const result = await ledger.reserve(lines, id, 1_000, 35_000);
      if (result.outcome !== 'reserved') throw new Error(`not reserved: ${JSON.stringify(result)}`);
      await new Promise((resolve) => setImmediate(resolve));
      void ledger.settle([key], id, 500);
      pairs++;
    }
  };
  const run = async (ms) => {
    running = true;
    const callers = Array.from({ length: workers }, caller);
    await new Promise((resolve) => setTimeout(resolve, ms));
    running = false;
    await Promise.all(callers);
  };
  await run(1_500);
  pairs = 0;
  const cpu = process.cpuUsage();
  const started = Date.now();
  await run(seconds * 1000);
  const used = process.cpuUsage(cpu);
  const ms = Date.now() - started;
  process.stdout.write(
    `${workers} callers: ${pairs} pairs in ${ms} ms (${Math.round((pairs / ms) * 1000)}/s), ` +
      `${((used.user + used.system) / pairs).toFixed(1)} µs CPU per reserve and settle\n`,
  );
  // What is still queued (the last settlements) goes before the connection closes; an older build has no queue.
  await ledger.flush?.();
  await redis.del(key);
  await closeRedisClient(redis);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
