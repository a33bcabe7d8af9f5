'use strict';
/**
 * The embedded mode's memory (`node bench/embedded-memory.js`, after `npx nest build`): starts the built service on a
 * fresh DATA_DIR with no DATABASE_URL or REDIS_URL, reads its resident memory once /health answers and again after a
 * few idle seconds, stops it with SIGTERM, starts it again on the same directory and reads again. Memory is summed
 * over the service's process tree (a child process does not hide any), and the peak is both the kernel's high-water
 * mark (VmHWM, summed) and the largest sum seen while polling every 50 ms during the start. Prints JSON.
 *
 * Options: --idle S (3: the idle wait before the second reading)  --main PATH (dist/src/main.js)
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { rssMbOf, peakRssMbOf } = require('./process-memory');

const ROOT = path.join(__dirname, '..');
const ADMIN_KEY = 'epa_WalkThroughWalkThroughWalkThrough42';

/** VmRSS and VmHWM in MB, summed over the process tree of `pid`. */
function treeMemory(pid) {
  return { rssMb: Math.round(rssMbOf(pid)), hwmMb: Math.round(peakRssMbOf(pid)) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function isHealthy(port) {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/health', timeout: 1000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the service on `dataDir`, measures it at /health and after `idleSeconds`, then stops it. */
async function measureStart(main, dataDir, idleSeconds) {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    INITIAL_ADMIN_KEY: ADMIN_KEY,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const started = Date.now();
  const child = spawn(process.execPath, [main], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  let peakTreeRssMb = 0;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The service exited with ${child.exitCode}`);
      peakTreeRssMb = Math.max(peakTreeRssMb, treeMemory(child.pid).rssMb);
      if (await isHealthy(port)) break;
      if (Date.now() - started > 120_000) throw new Error('The service did not answer /health within 120 s');
      await sleep(50);
    }
    const startMs = Date.now() - started;
    const atHealth = treeMemory(child.pid);
    await sleep(idleSeconds * 1000);
    const idle = treeMemory(child.pid);
    return {
      startMs,
      rssAtHealthMb: atHealth.rssMb,
      rssIdleMb: idle.rssMb,
      hwmMb: idle.hwmMb,
      peakTreeRssMb: Math.max(peakTreeRssMb, atHealth.rssMb),
    };
  } finally {
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0 && code !== null) process.stderr.write(`The service exited with ${code} after SIGTERM\n`);
  }
}

/** A free port may be taken before the service binds it: a start that fails is tried again (twice at most). */
async function withRetry(measure) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure();
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The first start on a fresh data directory, then a restart on the same one. */
async function measureEmbeddedMemory({ main = path.join(ROOT, 'dist/src/main.js'), idleSeconds = 3 } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-memory-'));
  try {
    const firstStart = await withRetry(() => {
      // Each attempt on a fresh directory: a failed one may have initialised it already.
      fs.rmSync(dataDir, { recursive: true, force: true });
      return measureStart(main, dataDir, idleSeconds);
    });
    const restart = await withRetry(() => measureStart(main, dataDir, idleSeconds));
    return { firstStart, restart };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { measureEmbeddedMemory, treeMemory };

if (require.main === module) {
  const argv = process.argv.slice(2);
  const option = (name) => {
    const index = argv.indexOf(`--${name}`);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  measureEmbeddedMemory({
    main: option('main') ? path.resolve(option('main')) : undefined,
    idleSeconds: Number(option('idle') ?? 3),
  }).then(
    (result) => process.stdout.write(JSON.stringify(result, null, 2) + '\n'),
    (error) => {
      process.stderr.write(`${error.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
