'use strict';
/**
 * Template isolation (`node bench/hostile-render.js`, after `npm run build`): one key runs a hostile template as fast
 * as its rate limit lets it while a probe measures `GET /health`, on the built service with the embedded database,
 * loopback only. Prints the answers the hostile key got and the probe's p50 / p99 / max, first with no load (idle),
 * then under the hostile load.
 *
 * Options: --template nested|doubling (nested)  --duration S (60: one whole rate-limit minute)  --idle S (5)
 *          --rate-limit N (the key's per-minute limit; the default key limit when absent)  --connections N (4)
 *          --probe-ms N (10: one probe every N ms)  --root DIR (the build to measure: DIR/dist; this checkout)
 */
const { spawn, spawnSync, fork } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const TEMPLATES = {
  nested: '{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}x',
  doubling: `{% assign s = "xxxxxxxx" %}${'{% assign s = s | append: s %}'.repeat(25)}{{ s }}`,
};

const args = parseArgs(process.argv.slice(2));
const ROOT = path.resolve(String(args.root ?? path.join(__dirname, '..')));
const TEMPLATE = TEMPLATES[String(args.template ?? 'nested')];
const DURATION_S = Number(args.duration ?? 60);
const IDLE_S = Number(args.idle ?? 5);
const CONNECTIONS = Number(args.connections ?? 4);
const PROBE_MS = Number(args['probe-ms'] ?? 10);
const HAS_TASKSET =
  spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0 && os.cpus().length >= 2;
const children = new Set();

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out[argv[i].slice(2)] = true;
    else out[argv[i].slice(2)] = argv[++i];
  }
  return out;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function startService(env) {
  const port = 44000 + Math.floor(Math.random() * 1000);
  const main = path.join(ROOT, 'dist/src/main.js');
  // The service on core 0, this script (the probe and the hostile client) and the provider on core 1.
  const [command, commandArgs] = HAS_TASKSET
    ? ['taskset', ['-c', '0', process.execPath, main]]
    : [process.execPath, [main]];
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', SHUTDOWN_DRAIN_MS: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error('the service did not start within 30 s');
}

async function api(url, key, method, route, body) {
  const res = await fetch(url + route, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * Probes /health every `PROBE_MS` until `until`, whether or not earlier probes have answered, and times each from
 * the moment it was due: a probe that waits behind a stalled event loop counts the whole wait (no coordinated
 * omission). Returns the latencies in ms.
 */
async function probe(url, until) {
  const pending = [];
  const started = performance.now();
  for (let i = 0; Date.now() < until; i++) {
    const due = started + i * PROBE_MS;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(
      fetch(`${url}/health`)
        .then((res) => res.arrayBuffer())
        .then(() => performance.now() - due),
    );
  }
  return Promise.all(pending);
}

/** `CONNECTIONS` loops posting to the hostile endpoint until `until`; returns the count of each status. */
async function hostile(url, route, key, until) {
  const statuses = {};
  const loop = async () => {
    while (Date.now() < until) {
      const res = await fetch(url + route, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: '{}',
      });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      // A refused request (429) comes back at once: pause briefly rather than spin on the limit.
      if (res.status === 429) await sleep(20);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  return statuses;
}

function summary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `n ${sorted.length}, p50 ${pick(0.5).toFixed(2)} ms, p99 ${pick(0.99).toFixed(2)} ms, max ${sorted[sorted.length - 1].toFixed(2)} ms`;
}

async function main() {
  if (!TEMPLATE) throw new Error(`--template is one of ${Object.keys(TEMPLATES).join(', ')}`);
  if (!fs.existsSync(path.join(ROOT, 'dist/src/main.js'))) throw new Error(`build first: no ${ROOT}/dist/src/main.js`);
  if (HAS_TASKSET) spawnSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
  const upstream = await new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'upstream.js'), [], {
      env: { ...process.env, UPSTREAM_DELAY_MS: '0' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.add(child);
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`upstream exited with ${code}`)));
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-hostile-'));
  const modelsFile = path.join(dataDir, 'models.json');
  fs.writeFileSync(
    modelsFile,
    JSON.stringify({
      providers: [
        {
          name: 'bench',
          baseUrl: `http://127.0.0.1:${upstream}/v1`,
          apiKey: 'bench',
          models: [{ id: 'bench-instant' }],
        },
      ],
    }),
  );
  const adminKey =
    'epa_' +
    crypto
      .randomBytes(30)
      .toString('base64')
      .replace(/[^A-Za-z0-9]/g, '')
      .padEnd(40, 'x')
      .slice(0, 40);
  const service = await startService({
    INITIAL_ADMIN_KEY: adminKey,
    INITIAL_TENANT: 'hostile-bench',
    MODELS_FILE: modelsFile,
    DATA_DIR: path.join(dataDir, 'data'),
  });
  try {
    const endpoint = await api(service.url, adminKey, 'POST', '/admin/v1/endpoints', {
      name: 'hostile',
      path: '/api/v1/hostile',
      cacheEnabled: false,
    });
    const prompt = await api(service.url, adminKey, 'POST', '/admin/v1/prompts', {
      endpointId: endpoint.id,
      name: 'main',
      template: TEMPLATE,
      llmModel: 'bench-instant',
    });
    await api(service.url, adminKey, 'POST', `/admin/v1/prompts/${prompt.id}/promote`);
    await api(service.url, adminKey, 'POST', `/admin/v1/prompts/${prompt.id}/set-default`);
    const limits = args['rate-limit'] === undefined ? {} : { rateLimitPerMinute: Number(args['rate-limit']) };
    const key = await api(service.url, adminKey, 'POST', '/admin/v1/keys', {
      name: 'hostile',
      type: 'endpoint',
      environment: 'live',
      ...limits,
    });

    const idle = await probe(service.url, Date.now() + IDLE_S * 1000);
    const until = Date.now() + DURATION_S * 1000;
    const [loaded, statuses] = await Promise.all([
      probe(service.url, until),
      hostile(service.url, endpoint.path, key.key, until),
    ]);
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`;
    process.stdout.write(
      [
        `${new Date().toISOString()} · ${machine} · pinned: ${HAS_TASKSET ? 'service core 0, probe + client + provider core 1' : 'no'}`,
        `build: ${ROOT} · template: ${args.template ?? 'nested'} · key limit: ${args['rate-limit'] ?? 'default'}/min · ${CONNECTIONS} connections · ${DURATION_S} s`,
        `hostile answers: ${JSON.stringify(statuses)}`,
        `/health idle:         ${summary(idle)}`,
        `/health under attack: ${summary(loaded)}`,
        '',
      ].join('\n'),
    );
  } finally {
    service.child.kill('SIGTERM');
    await new Promise((resolve) => service.child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main()
  .catch((error) => {
    process.stderr.write(`hostile-render failed: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGKILL');
  });
