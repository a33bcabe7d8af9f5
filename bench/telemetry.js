'use strict';
/**
 * What metrics and tracing cost the hot path (`npm run bench -- --telemetry`, or `node bench/telemetry.js` after a
 * build). Services run side by side on the embedded database: everything off (METRICS_ENABLED=false, twice: the gap
 * between the two is the run's noise), metrics on (the default), tracing on (OTEL_EXPORTER_OTLP_ENDPOINT at a local
 * receiver that accepts and drops every export, metrics off), and both on. Rounds are interleaved (A, B, C, …, then
 * B, C, …, A) so a noisy machine weighs on every configuration alike; each figure is the median over the rounds.
 * Besides throughput, the service's CPU time per request (from /proc) is reported: it is what the hot path costs, and
 * it is far less disturbed by other processes on a shared machine than throughput is.
 *
 * Options: --rounds N (5)  --duration S (4)  --warmup S (2)  --adapter fastify|express (fastify)
 */
const { fork, spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');

const ROOT = path.join(__dirname, '..');
const args = parseArgs(process.argv.slice(2));
const ROUNDS = Number(args.rounds ?? 5);
const DURATION = Number(args.duration ?? 4);
const WARMUP = Number(args.warmup ?? 2);
const ADAPTER = String(args.adapter ?? 'fastify');
const HAS_TASKSET =
  spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0 && os.cpus().length >= 2;
const children = new Set();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

/** A collector that accepts every OTLP export and keeps nothing: what the exporter costs, not a collector's speed. */
function startSink() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port })),
  );
}

function startUpstream() {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'upstream.js'), [], {
      env: { ...process.env, UPSTREAM_DELAY_MS: '0' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.add(child);
    if (HAS_TASKSET) spawnSync('taskset', ['-pc', '1', String(child.pid)], { stdio: 'ignore' });
    child.once('message', (message) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`upstream exited with ${code}`)));
  });
}

async function startService(name, env) {
  const port = 44000 + Math.floor(Math.random() * 1000);
  const adminKey = 'epa_' + crypto.randomBytes(24).toString('hex').slice(0, 40);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `promptgate-bench-${name}-`));
  const main = [process.execPath, path.join(ROOT, 'dist/src/main.js')];
  const [command, ...commandArgs] = HAS_TASKSET ? ['taskset', '-c', '0', ...main] : main;
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      HTTP_ADAPTER: ADAPTER,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      INITIAL_ADMIN_KEY: adminKey,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`${name}: the service exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { name, child, url, adminKey, dataDir };
    await sleep(50);
  }
  throw new Error(`${name}: the service did not start`);
}

async function api(service, method, route, body) {
  const res = await fetch(service.url + route, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': service.adminKey },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function setUp(service) {
  const routes = {};
  for (const [name, cacheEnabled] of [
    ['bench-hit', true],
    ['bench-miss', false],
  ]) {
    const endpoint = await api(service, 'POST', '/admin/v1/endpoints', {
      name,
      path: `/api/v1/${name}`,
      cacheEnabled,
      cacheDurationSeconds: 3600,
    });
    await api(service, 'POST', `/admin/v1/endpoints/${endpoint.id}/input-fields`, {
      name: 'text',
      dataType: 'string',
      isRequired: true,
    });
    const prompt = await api(service, 'POST', '/admin/v1/prompts', {
      endpointId: endpoint.id,
      name: 'main',
      template: 'Summarize in one sentence: {{ inputs.text }}',
      llmModel: 'bench-instant',
      temperature: 0,
      maxTokens: 64,
    });
    await api(service, 'POST', `/admin/v1/prompts/${prompt.id}/promote`);
    await api(service, 'POST', `/admin/v1/prompts/${prompt.id}/set-default`);
    routes[name] = service.url + endpoint.path;
  }
  const key = await api(service, 'POST', '/admin/v1/keys', {
    name: 'bench',
    type: 'endpoint',
    environment: 'live',
    rateLimitPerMinute: 1e9,
    rateLimitPerHour: 1e9,
    rateLimitPerDay: 1e9,
  });
  service.routes = routes;
  service.key = key.key;
}

function load(url, key, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: 50,
        duration: seconds,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ text: 'The quick brown fox jumps over the lazy dog.' }),
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          rps: result.requests.total / seconds,
          requests: result.requests.total,
          failures: result.non2xx + result.errors,
        });
      },
    );
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'dist/src/main.js'))) throw new Error('build first: npx nest build');
  if (HAS_TASKSET) spawnSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });
  const upstream = await startUpstream();
  const sink = await startSink();
  const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-bench-models-'));
  const modelsFile = path.join(modelsDir, 'models.json');
  fs.writeFileSync(
    modelsFile,
    JSON.stringify({
      providers: [
        {
          name: 'bench',
          baseUrl: `http://127.0.0.1:${upstream.port}/v1`,
          apiKey: 'b',
          models: [{ id: 'bench-instant' }],
        },
      ],
    }),
  );
  const otlp = `http://127.0.0.1:${sink.port}`;
  // `off` twice: the difference between the two is the noise floor of the run.
  const configs = [
    ['off', { METRICS_ENABLED: 'false' }],
    ['off (again)', { METRICS_ENABLED: 'false' }],
    ['metrics', { METRICS_ENABLED: 'true' }],
    ['tracing', { METRICS_ENABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: otlp }],
    ['both', { METRICS_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: otlp }],
  ];
  const services = [];
  try {
    for (const [name, env] of configs) services.push(await startService(name, { ...env, MODELS_FILE: modelsFile }));
    for (const service of services) await setUp(service);
    for (const service of services) {
      await load(service.routes['bench-hit'], service.key, WARMUP);
      await load(service.routes['bench-miss'], service.key, WARMUP);
    }
    const results = Object.fromEntries(
      services.map((s) => [s.name, { hit: [], miss: [], hitCpu: [], missCpu: [], failures: 0 }]),
    );
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with the next configuration, so none always runs first (or last).
      const order = services.map((_, i) => services[(i + round) % services.length]);
      for (const scenario of ['hit', 'miss']) {
        for (const service of order) {
          const cpuBefore = cpuSeconds(service.child.pid);
          const result = await load(service.routes[`bench-${scenario}`], service.key, DURATION);
          const cpu = cpuSeconds(service.child.pid) - cpuBefore;
          results[service.name][scenario].push(result.rps);
          results[service.name][`${scenario}Cpu`].push((cpu / result.requests) * 1e6);
          results[service.name].failures += result.failures;
        }
      }
    }
    const base = results.off;
    const change = (value, reference) =>
      `${value >= reference ? '+' : ''}${(((value - reference) / reference) * 100).toFixed(1)} %`;
    const rows = services.map(({ name }) => {
      const r = results[name];
      const cells = [name];
      for (const [figure, digits] of [
        ['hit', 0],
        ['hitCpu', 1],
        ['miss', 0],
        ['missCpu', 1],
      ]) {
        const value = median(r[figure]);
        cells.push(value.toFixed(digits), name === 'off' ? '' : change(value, median(base[figure])));
      }
      cells.push(String(r.failures));
      return cells;
    });
    const header = [
      'configuration',
      'cache hit req/s',
      'vs off',
      'CPU µs per hit',
      'vs off',
      'cache miss req/s',
      'vs off',
      'CPU µs per miss',
      'vs off',
      'non-2xx',
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    const line = (cells) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
    process.stdout.write(
      `\n${new Date().toISOString().slice(0, 10)} · ${machine} · ${ADAPTER} · embedded PGlite · pinned: ${HAS_TASKSET ? 'yes' : 'no'} · ` +
        `${ROUNDS} interleaved rounds × ${DURATION} s, 50 connections (medians)\n\n` +
        [line(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n') +
        '\n\nEach round, per configuration: ' +
        services
          .map(
            (s) =>
              `${s.name}: hit ${results[s.name].hit.map((v) => v.toFixed(0)).join('/')} req/s, ` +
              `${results[s.name].hitCpu.map((v) => v.toFixed(0)).join('/')} µs`,
          )
          .join('; ') +
        '\n',
    );
    // The metrics' own work, measured in isolation, as a share of what a cache hit costs the service.
    const { costNs } = require('./metrics-hot-path.js');
    const hitCpuNs = median(results.off.hitCpu) * 1000;
    process.stdout.write(
      `\nThe metrics' work per execution request is ${((costNs / hitCpuNs) * 100).toFixed(2)} % of the CPU time of a ` +
        `cache hit with everything off (${(hitCpuNs / 1000).toFixed(0)} µs).\n`,
    );
  } finally {
    for (const service of services) {
      service.child.kill('SIGTERM');
      fs.rmSync(service.dataDir, { recursive: true, force: true });
    }
    sink.server.close();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  }
}

main()
  .catch((error) => {
    process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await sleep(500);
    for (const child of children) child.kill('SIGKILL');
  });
