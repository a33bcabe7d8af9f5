'use strict';
/**
 * Promptgate benchmark harness (`npm run bench`). Starts a fake OpenAI-compatible provider (instant and 50 ms), a bare
 * node:http server, and the built service in each storage mode: embedded (PGlite in a fresh DATA_DIR, in-process cache
 * and counters) and, when DATABASE_URL and REDIS_URL are set, PostgreSQL + Redis. It pins the servers to core 0 and the
 * load generator and providers to core 1 where `taskset` exists, runs each scenario with warm-up and repeated rounds,
 * reads the service's memory (its process and any it started) at the first start, idle after a restart and under load,
 * times the stats queries at scale (PostgreSQL), and prints the targets, each met or missed, then every figure.
 * `--write` also refreshes BENCHMARKS.md.
 *
 * Options: --rounds N (3)  --duration S (5)  --warmup S (2)  --adapters fastify (or express,fastify)  --write
 *          --modes embedded,postgres (default: both when DATABASE_URL and REDIS_URL are set, else embedded)
 *          --embedded (the same as --modes embedded)
 *          --unpinned (leave every process to the scheduler: the service's threads may then use both cores)
 *          --stats-rows N (1000000: log rows seeded for the stats timings; 0 skips them)
 *          --stats-only (only the log and stats reads at scale, with their targets: seeds --stats-rows rows into
 *            DATABASE_URL, times them, removes them; no service is started)
 *          --stats-tenant SLUG (with --stats-only: time a tenant an earlier `seed:logs` left in place, seeding nothing)
 *          --scale (also seed 10,000 endpoints and 100,000 keys first, to show the hot path does not slow down)
 *          --scenarios cacheHit,cacheMiss,tags,budgeted,load,sequential,eval,streaming (a subset, e.g. to profile
 *            one path; `tags` and `budgeted` each compare a miss with and without request tags, or an endpoint
 *            budget; `eval` times evaluation runs of 100 items on a 200 ms provider, see bench/eval-run.js)
 *          --open-streams N (1000: the streams held open at once for the streaming memory figure, at most 500 per
 *            tenant: the run makes more tenants with the CLI as needed)
 *          --stream-chunks N (200: the chunks of the streamed scenario's answer, 1 ms apart)
 *          --node-flags "…" (flags for the service's node, e.g. "--max-semi-space-size=16")
 *          --profile DIR (write a V8 CPU profile of the service per adapter into DIR, for `node bench/profile-summary.js`)
 *          --telemetry (instead: the hot path with metrics and tracing on and off, see bench/telemetry.js)
 */
const { spawn, spawnSync, fork } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');

const ROOT = path.join(__dirname, '..');
const args = parseArgs(process.argv.slice(2));
const ROUNDS = Number(args.rounds ?? 3);
const DURATION = Number(args.duration ?? 5);
const WARMUP = Number(args.warmup ?? 2);
const ADAPTERS = String(args.adapters ?? 'fastify').split(',');
const SERVER_MODE_READY = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const MODES = String(args.modes ?? (args.embedded || !SERVER_MODE_READY ? 'embedded' : 'embedded,postgres')).split(',');
const STATS_ROWS = Number(args['stats-rows'] ?? 1_000_000);
/** How long the restarted service is left alone before its idle memory is read. */
const IDLE_SETTLE_MS = 3_000;
const SCENARIOS = new Set(
  String(args.scenarios ?? 'cacheHit,cacheMiss,tags,budgeted,load,sequential,eval,streaming').split(','),
);
const OPEN_STREAMS = Number(args['open-streams'] ?? 1000);
/** The streamed scenario's answer: STREAM_CHUNKS chunks 1 ms apart after 50 ms, as a model streams a long answer. */
const STREAM_CHUNKS = Number(args['stream-chunks'] ?? 200);
/** Flags for the service's `node` (V8's heap flags among them, which NODE_OPTIONS does not take). */
const NODE_FLAGS = args['node-flags'] ? String(args['node-flags']).split(' ') : [];
const { cpuSecondsOf, databaseCpuSeconds, streamLoad, openStreams } = require('./streaming');
const { rssMbOf, trackRss } = require('./process-memory');
const { measureEval, overheadMsPerUnit, EVAL_ITEMS, EVAL_CONCURRENCY, EVAL_PROVIDER_DELAY_MS } = require('./eval-run');
/** Calls of one tenant's evaluation runs the service lets run at once (its EVAL_MAX_CONCURRENCY, default 8). */
const EVAL_MAX_CONCURRENCY = Number(process.env.EVAL_MAX_CONCURRENCY ?? 8);
// A tenant and admin key of this run's own, so runs can share one PostgreSQL database.
const RUN_ID = Date.now().toString(36);
const newAdminKey = () =>
  'epa_' +
  require('node:crypto')
    .randomBytes(30)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .padEnd(40, 'x')
    .slice(0, 40);
/** The admin key of the service being measured (each adapter's service gets a new one). */
let ADMIN_KEY;
/** The figures of a scenario left out with --scenarios. */
const skipped = { rps: NaN, p50: NaN, p99: NaN, doneP50: NaN, doneP99: NaN, failures: 0 };
const HAS_TASKSET =
  !args.unpinned &&
  spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0 &&
  os.cpus().length >= 2;
const SERVER_CORE = '0';
const CLIENT_CORE = '1';
const children = new Set();

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const key = argv[i].slice(2);
    const next = argv[i + 1];
    // --node-flags takes the next word whatever it starts with (the flags themselves start with --).
    if (next === undefined || (next.startsWith('--') && key !== 'node-flags')) out[key] = true;
    else out[key] = argv[++i];
  }
  return out;
}

function pinned(core, command, commandArgs) {
  return HAS_TASKSET ? ['taskset', ['-c', core, command, ...commandArgs]] : [command, commandArgs];
}

/** A node script run as a pinned child with an IPC channel; resolves with the port it reports. */
function startScript(script, env, core) {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    children.add(child);
    if (HAS_TASKSET) spawnSync('taskset', ['-pc', core, String(child.pid)], { stdio: 'ignore' });
    child.once('message', (message) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/**
 * Starts the service on a free port: ports are picked at random, and one may have been taken in the meantime (the
 * streaming scenarios leave many client ports in TIME_WAIT), so a start that fails is tried again on another.
 */
async function startService(adapter, env) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceOnce(adapter, env);
    } catch (error) {
      if (attempt >= 5) throw error;
    }
  }
}

async function startServiceOnce(adapter, env) {
  const port = await freePort();
  const profile = args.profile
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${path.resolve(String(args.profile))}`,
        `--cpu-prof-name=${adapter}-${Date.now()}.cpuprofile`,
      ]
    : [];
  const [command, commandArgs] = pinned(SERVER_CORE, process.execPath, [
    ...NODE_FLAGS,
    ...profile,
    path.join(ROOT, 'dist/src/main.js'),
  ]);
  const started = process.hrtime.bigint();
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      HTTP_ADAPTER: adapter,
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  // The most the service and its children held while starting (a first start initialises its database in a child).
  let startPeakMb = 0;
  const sampler = setInterval(() => (startPeakMb = Math.max(startPeakMb, rssMbOf(child.pid) || 0)), 50);
  try {
    return await waitForHealth(child, url, started, () => startPeakMb);
  } finally {
    clearInterval(sampler);
  }
}

async function waitForHealth(child, url, started, startPeakMb) {
  for (let i = 0; i < 2400; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) {
        const startupMs = Number(process.hrtime.bigint() - started) / 1e6;
        const rssMb = rssMbOf(child.pid);
        return { child, url, startupMs, rssMb, peakRssMb: Math.max(startPeakMb(), rssMb) };
      }
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error('the service did not start within 120 s');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = require('node:net').createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function stop(child) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
  children.delete(child);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function adminApi(url, method, route, body, key = ADMIN_KEY) {
  const res = await fetch(url + route, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route} → ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Endpoints for each scenario, each with a Live default prompt on the matching fake provider model. */
async function setUp(url, adminKey = ADMIN_KEY, only = undefined) {
  const api = (method, route, body) => adminApi(url, method, route, body, adminKey);
  const routes = {};
  for (const [name, model, cacheEnabled] of [
    ['bench-hit', 'bench-instant', true],
    ['bench-miss', 'bench-instant', false],
    ['bench-slow', 'bench-slow', false],
    ['bench-long', 'bench-long', false],
    ['bench-priced', 'bench-priced', false],
    ['bench-budgeted', 'bench-priced', false],
  ].filter(([name]) => !only || only.includes(name))) {
    const endpoint = await api('POST', '/admin/v1/endpoints', {
      name,
      path: `/api/v1/${name}`,
      cacheEnabled,
      cacheDurationSeconds: 3600,
    });
    await api('POST', `/admin/v1/endpoints/${endpoint.id}/input-fields`, {
      name: 'text',
      dataType: 'string',
      isRequired: true,
      maxLength: 10000,
    });
    const prompt = await api('POST', '/admin/v1/prompts', {
      endpointId: endpoint.id,
      name: 'main',
      template: 'Summarize in one sentence: {{ inputs.text }}',
      llmModel: model,
      temperature: 0,
      maxTokens: 64,
    });
    await api('POST', `/admin/v1/prompts/${prompt.id}/promote`);
    await api('POST', `/admin/v1/prompts/${prompt.id}/set-default`);
    routes[name] = endpoint.path;
    // A budget so large it never refuses: every call of the endpoint reserves and settles against it.
    if (name === 'bench-budgeted' && SCENARIOS.has('budgeted'))
      await api('POST', '/admin/v1/budgets', {
        name: 'bench',
        scope: { type: 'endpoint', endpointId: endpoint.id },
        period: 'day',
        limitUsd: 1_000_000,
      });
  }
  const key = await api('POST', '/admin/v1/keys', {
    name: 'bench',
    type: 'endpoint',
    environment: 'live',
    rateLimitPerMinute: 1e9,
    rateLimitPerHour: 1e9,
    rateLimitPerDay: 1e9,
  });
  return { routes, key: key.key };
}

/** One autocannon run; latencies come from the per-response float timings (its histogram has 1 ms resolution). */
function load({ url, connections, seconds, method = 'POST', headers = {}, body, setupRequest }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    let non2xx = 0;
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body,
        ...(setupRequest ? { requests: [{ setupRequest }] } : {}),
      },
      (error, result) => {
        if (error) return reject(error);
        latencies.sort((a, b) => a - b);
        const pick = (q) =>
          latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : NaN;
        resolve({
          requests: result.requests.total,
          rps: result.requests.total / seconds,
          p50: pick(0.5),
          p99: pick(0.99),
          non2xx: non2xx + result.non2xx,
          errors: result.errors,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/**
 * Runs `target` for the warm-up and each round; with `servicePid`, also the service's CPU time per answered request
 * (user + system), which a busy machine distorts far less than throughput: it compares builds when the load generator
 * and the service must share cores with other work.
 */
async function measure(target, sampleRss, servicePid) {
  await load({ ...target, seconds: WARMUP });
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const rss = sampleRss ? trackRss(sampleRss) : undefined;
    const cpuBefore = servicePid ? cpuSecondsOf(servicePid) : undefined;
    const result = await load({ ...target, seconds: DURATION });
    result.rssMb = rss ? rss.stop() : undefined;
    if (cpuBefore !== undefined) result.cpuUs = ((cpuSecondsOf(servicePid) - cpuBefore) * 1e6) / result.requests;
    rounds.push(result);
  }
  const median = (key) => {
    const values = rounds
      .map((r) => r[key])
      .filter((v) => v !== undefined)
      .sort((a, b) => a - b);
    return values.length ? values[Math.floor(values.length / 2)] : undefined;
  };
  return {
    rps: median('rps'),
    p50: median('p50'),
    p99: median('p99'),
    rssMb: rounds.some((r) => r.rssMb !== undefined) ? Math.max(...rounds.map((r) => r.rssMb ?? 0)) : undefined,
    cpuUs: median('cpuUs'),
    failures: rounds.reduce((n, r) => n + r.non2xx + r.errors, 0),
  };
}

/** Streamed load, warmed up and repeated like `measure`: medians of the rounds. */
async function measureStream(target, pid) {
  await streamLoad(target, 50, WARMUP);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await streamLoad(target, 50, DURATION, pid));
  const median = (key) => rounds.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(rounds.length / 2)];
  return {
    rps: median('rps'),
    p50: median('p50'),
    p99: median('p99'),
    doneP50: median('doneP50'),
    doneP99: median('doneP99'),
    cpuMsPerStream: median('cpuMsPerStream'),
    failures: rounds.reduce((n, r) => n + r.failures, 0),
  };
}

/** The service's environment in `mode`: embedded leaves DATABASE_URL and REDIS_URL out. */
function serviceEnv(mode, extra) {
  const env = { ...process.env, ...extra };
  if (mode === 'embedded') {
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
  }
  return env;
}

async function runAdapter(mode, adapter, modelsFile, evalProvider) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-bench-'));
  ADMIN_KEY = newAdminKey();
  const env = serviceEnv(mode, {
    INITIAL_ADMIN_KEY: ADMIN_KEY,
    INITIAL_TENANT: `bench-${RUN_ID}-${mode}-${adapter}`,
    MODELS_FILE: modelsFile,
    DATA_DIR: dataDir,
    // The open-streams scenario holds OPEN_STREAMS streams at once, at most STREAMS_PER_TENANT per tenant, one key
    // each: the key's limits must not refuse them (the model calls a tenant may have in flight are at most 512).
    MAX_STREAMS_PER_KEY: String(Math.max(100, OPEN_STREAMS + 100)),
    MAX_PROVIDER_CALLS_PER_KEY: '512',
    MAX_PROVIDER_CALLS_PER_TENANT: '512',
    // The eval scenario reads its runs every 25 ms while they run: the admin limit must not refuse those reads.
    ADMIN_RATE_LIMIT_PER_MINUTE: '100000',
  });
  // The first start: on a fresh data directory, the embedded database is created (initdb, migrations) here.
  const service = await startService(adapter, env);
  const results = { firstStart: { rssMb: service.rssMb, peakRssMb: service.peakRssMb, ms: service.startupMs } };
  try {
    const { routes, key } = await setUp(service.url);
    if (args.scale) await seedScale(service.url);
    const post = (route) => ({
      url: service.url + route,
      headers: { 'x-api-key': key },
      body: JSON.stringify({ text: 'The quick brown fox jumps over the lazy dog.' }),
    });
    const probe = await fetch(post(routes['bench-hit']).url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: post(routes['bench-hit']).body,
    });
    if (!probe.ok) throw new Error(`bench-hit answered ${probe.status}: ${await probe.text()}`);
    const pid = service.child.pid;
    results.cacheHit = SCENARIOS.has('cacheHit')
      ? await measure({ ...post(routes['bench-hit']), connections: 50 }, pid, pid)
      : skipped;
    results.cacheMiss = SCENARIOS.has('cacheMiss')
      ? await measure({ ...post(routes['bench-miss']), connections: 50 }, pid, pid)
      : skipped;
    results.tagCost = SCENARIOS.has('tags')
      ? await measurePair(post(routes['bench-miss']), taggedMiss(post(routes['bench-miss'])), pid, mode)
      : undefined;
    // The same priced model's miss with and without an endpoint budget it reserves and settles against.
    results.budgetCost = SCENARIOS.has('budgeted')
      ? await measurePair(post(routes['bench-priced']), post(routes['bench-budgeted']), pid, mode)
      : undefined;
    results.loadService = SCENARIOS.has('load')
      ? await measure({ ...post(routes['bench-slow']), connections: 50 }, pid, pid)
      : skipped;
    results.seqService = SCENARIOS.has('sequential')
      ? await measure({ ...post(routes['bench-miss']), connections: 1 }, undefined, pid)
      : skipped;
    results.eval = SCENARIOS.has('eval')
      ? await measureEval(
          (method, route, body) => adminApi(service.url, method, route, body),
          pid,
          evalProvider.port,
          'bench-eval',
        )
      : undefined;
    if (SCENARIOS.has('streaming')) {
      const streamed = (route) => ({ ...post(route), url: `${post(route).url}?stream=true`, marker: 'event: delta' });
      results.stream = await measureStream(streamed(routes['bench-slow']), pid);
      const longTargets = [streamed(routes['bench-long'])];
      for (const extra of await moreStreamTenants(service.url, env, mode, adapter))
        longTargets.push({ ...streamed(extra.route), headers: { 'x-api-key': extra.key } });
      results.openStreams = await openStreams(longTargets, OPEN_STREAMS, () => rssMbOf(pid));
    } else {
      results.stream = skipped;
      results.openStreams = { beforeMb: NaN, peakMb: NaN, mostOpen: 0, failed: 0 };
    }
    // The most any scenario held resident (the peak of the 50-connection scenarios, and of the open streams).
    results.rssUnderLoadMb = Math.max(
      ...[results.cacheHit, results.cacheMiss, results.loadService].map((r) => r.rssMb ?? 0),
    );
    results.restart = args.profile ? { ms: NaN, idleRssMb: NaN } : await restart(adapter, env, service);
    return results;
  } finally {
    await stop(service.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Model calls one tenant may have in flight on an instance (at most 512): the open streams are spread over tenants. */
const STREAMS_PER_TENANT = 500;

/**
 * The tenants beyond the first that OPEN_STREAMS needs, each made with the CLI (as an operator would) with an admin
 * key, a `bench-long` endpoint and an endpoint key: their routes and keys.
 */
async function moreStreamTenants(url, env, mode, adapter) {
  const extra = [];
  for (let i = 1; i < Math.ceil(OPEN_STREAMS / STREAMS_PER_TENANT); i++) {
    const slug = `bench-${RUN_ID}-${mode}-${adapter}-${i}`;
    const cli = (...argv) => {
      const run = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/cli/main.js'), ...argv], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      });
      if (run.status !== 0) throw new Error(`cli ${argv.join(' ')}: ${run.stderr || run.stdout}`);
      return run.stdout.trim().split('\n').at(-1);
    };
    cli('tenant', 'create', slug);
    const adminKey = cli('key', 'create', '--tenant', slug, '--type', 'admin', '--permission', 'ReadWrite');
    const { routes, key } = await setUp(url, adminKey, ['bench-long']);
    extra.push({ route: routes['bench-long'], key });
  }
  return extra;
}

/** The pause after each round of a pair, within its CPU figure: long enough for the log writer to store its rows. */
const PAIR_SETTLE_MS = 1_500;

/** Customers the tagged misses name, one per request in turn: each log batch then sums many tag values. */
const TAGGED_CUSTOMERS = 100;

/** The bench-miss target with three request tags: `team`, `feature`, and `customer` one of TAGGED_CUSTOMERS in turn. */
function taggedMiss(target) {
  let sent = 0;
  return {
    ...target,
    setupRequest: (request) => {
      request.headers = {
        ...request.headers,
        'x-tags': `team=search,feature=summarize,customer=cust-${sent++ % TAGGED_CUSTOMERS}`,
      };
      return request;
    },
  };
}

/**
 * What a variant of a call adds to its CPU (tags on a miss, a budget on an endpoint): the plain call and the variant,
 * their rounds alternated (plain, variant, variant, plain, ...) so both meet the same machine, and the CPU per request
 * compared round by round. On PostgreSQL that is the service's CPU and the database server's together (on the embedded
 * database the service's process holds both): what a variant stores costs the database too.
 */
async function measurePair(plain, variant, pid, mode) {
  const withDatabase = mode === 'postgres';
  const cpuPerRequest = async (target) => {
    const before = cpuSecondsOf(pid);
    const databaseBefore = withDatabase ? databaseCpuSeconds() : 0;
    const result = await load({ ...target, connections: 50, seconds: DURATION });
    // What a round leaves to do once answered (its log rows written in batches, their rollups) is its own cost: it is
    // counted before the next round starts, not in it.
    await sleep(PAIR_SETTLE_MS);
    const service = ((cpuSecondsOf(pid) - before) * 1e6) / result.requests;
    const database = withDatabase ? ((databaseCpuSeconds() - databaseBefore) * 1e6) / result.requests : 0;
    return { service, database, total: service + database };
  };
  await load({ ...plain, connections: 50, seconds: WARMUP });
  await load({ ...variant, connections: 50, seconds: WARMUP });
  const plainRounds = [];
  const variantRounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 === 0 ? [plain, variant] : [variant, plain];
    for (const target of order) (target === variant ? variantRounds : plainRounds).push(await cpuPerRequest(target));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const of = (rounds, part) => median(rounds.map((round) => round[part]));
  const added = plainRounds.map((cpu, i) => ((variantRounds[i].total - cpu.total) / cpu.total) * 100);
  return {
    plainCpuUs: of(plainRounds, 'total'),
    variantCpuUs: of(variantRounds, 'total'),
    addedPct: median(added),
    rounds: added,
    // The two parts on PostgreSQL (each the median of its rounds), so a cost is seen where it is spent.
    parts: withDatabase
      ? {
          service: [of(plainRounds, 'service'), of(variantRounds, 'service')],
          database: [of(plainRounds, 'database'), of(variantRounds, 'database')],
        }
      : undefined,
  };
}

/**
 * A restart on the now initialised database, as an operator restarting sees it: the time to the first `/health`, and
 * the memory it holds once left idle for a moment.
 */
async function restart(adapter, env, running) {
  await stop(running.child);
  const again = await startService(adapter, env);
  try {
    await sleep(IDLE_SETTLE_MS);
    return { ms: Math.round(again.startupMs), idleRssMb: rssMbOf(again.child.pid) };
  } finally {
    await stop(again.child);
  }
}

/**
 * The stats queries at scale (PostgreSQL): `seed:logs` seeds `rows` log rows into two new tenants of the bench
 * database, times the stats and log reads through the services, and removes what it seeded.
 */
function statsAtScale(rows) {
  const seedArgs = args['stats-tenant']
    ? ['--tenant', String(args['stats-tenant']), '--json']
    : ['--rows', String(rows), '--measure', '--json', '--cleanup'];
  const result = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/cli/seed-logs.js'), ...seedArgs], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = (result.stdout ?? '')
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (result.status !== 0 || !line) throw new Error(`seed:logs failed (${result.status}): ${result.stdout}`);
  return JSON.parse(line);
}

async function seedScale(url) {
  const script = path.join(__dirname, 'seed-scale.js');
  const result = spawnSync(process.execPath, [script, url, ADMIN_KEY], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('seeding failed');
}

function fmt(n, digits = 0) {
  return n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits);
}

const check = (ok) => (ok === undefined ? 'not run' : ok ? 'met' : 'MISSED');
const known = (...values) => values.every((v) => v !== undefined && !Number.isNaN(v));
/** `ok` when every figure it rests on was measured, else undefined ("not run"). */
const ifKnown = (ok, ...values) => (known(...values) ? ok : undefined);

/** A Markdown table, columns padded to their widest cell. */
function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => '| ' + cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ') + ' |';
  return [line(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n');
}

const MODE_NAMES = { embedded: 'embedded', postgres: 'PostgreSQL + Redis' };

/** The timings `seed:logs --json` reports (median of 5 service calls each, ms), as the figures table names them. */
const STATS_TIMINGS = {
  statsTenant: 'GET /admin/v1/stats, whole tenant, 7 days by day',
  statsByPrompt: 'GET /admin/v1/stats?groupBy=prompt, 7 days',
  statsScoreByPrompt: 'GET /admin/v1/stats?score=…&groupBy=prompt, 7 days, 300,000 scores',
  statsHour: 'GET /admin/v1/stats, whole tenant, 24 h by hour',
  statsEndpoint: 'GET /admin/v1/stats?endpointId, 7 days by day',
  statsEndpoint30d: 'GET /admin/v1/stats?endpointId, 30 days by day',
  logsPage: 'GET /admin/v1/logs, first page',
  logsPage50: 'GET /admin/v1/logs?page=50',
  logsErrors: 'GET /admin/v1/logs?status=error',
  logsTag: 'GET /admin/v1/logs?tag=team:team-3 (10 % of the rows), first page',
  logsTagEither: 'GET /admin/v1/logs?tag=feature:feature-1&tag=feature:feature-2, first page',
  logsTagTop: 'GET /admin/v1/logs?tag=customer:cust-0 (4 % of the rows), first page',
  logsTagRare: 'GET /admin/v1/logs?tag=customer:cust-900 (rare), first page',
  logsTagEndpoint: 'GET /admin/v1/logs?tag=team:team-3&endpointId, first page',
  logsHasTag: 'GET /admin/v1/logs?hasTag=feature, first page',
  logsHasTagMany: 'GET /admin/v1/logs?hasTag=customer (1,000 values), first page',
  logsTwoKeys: 'GET /admin/v1/logs?tag=team:team-3&tag=feature:feature-1 (two keys), first page',
  statsTag: 'GET /admin/v1/stats?tag=team:team-3, 7 days',
  statsTagRare: 'GET /admin/v1/stats?tag=customer:cust-900, 7 days',
  statsHasTag: 'GET /admin/v1/stats?hasTag=feature, 7 days',
  statsByTeam: 'GET /admin/v1/stats?groupBy=tag:team (8 values), 7 days',
  statsByCustomer: 'GET /admin/v1/stats?groupBy=tag:customer (1,000 values), 7 days',
  statsTwoKeys: 'GET /admin/v1/stats?tag=team:team-3&tag=feature:feature-1 (two keys), 7 days',
};

/** The request-tag targets at scale: the slowest of each kind of call `seed:logs` times, in ms. */
const TAG_TARGETS = [
  ['GET /admin/v1/logs?tag=key:value, first page', ['logsTag', 'logsTagEither', 'logsTagTop', 'logsTagRare'], 50],
  ['GET /admin/v1/stats filtered by a tag, 7 days', ['statsTag', 'statsTagRare', 'statsHasTag'], 100],
  ['GET /admin/v1/stats?groupBy=tag:<key>, 7 days', ['statsByTeam', 'statsByCustomer'], 100],
];

/**
 * The targets, each with what this run measured and whether it is met: the embedded default's memory and cache hits,
 * and PostgreSQL + Redis's misses, added latency, memory and stats at scale. A target whose scenario did not run
 * says so.
 */
function targets(baseline, runs, stats) {
  const rows = [];
  const add = (what, measured, target, ok) => rows.push([what, measured, target, check(ok)]);
  for (const { mode, adapter, r } of runs) {
    const name = `${MODE_NAMES[mode]}, ${adapter}`;
    const hit = r.cacheHit.rps / baseline.bare.rps;
    const miss = r.cacheMiss.rps / baseline.bare.rps;
    const loadShare = r.loadService.rps / baseline.loadDirect.rps;
    const loadP50 = r.loadService.p50 - baseline.loadDirect.p50;
    const loadP99 = r.loadService.p99 - baseline.loadDirect.p99;
    const seqP50 = r.seqService.p50 - baseline.seqDirect.p50;
    const seqP99 = r.seqService.p99 - baseline.seqDirect.p99;
    if (mode === 'embedded') {
      add(
        `${name}: RSS right after the first start`,
        `${fmt(r.firstStart.rssMb)} MB (peak while starting, initdb included: ${fmt(r.firstStart.peakRssMb)} MB)`,
        '< 400 MB',
        ifKnown(r.firstStart.rssMb < 400, r.firstStart.rssMb),
      );
      add(
        `${name}: idle RSS after a restart`,
        `${fmt(r.restart.idleRssMb)} MB`,
        '< 250 MB',
        ifKnown(r.restart.idleRssMb < 250, r.restart.idleRssMb),
      );
    }
    if (mode === 'embedded')
      add(`${name}: cache hit, 50 conn`, `${fmt(hit, 3)}× of bare node:http`, '≥ 0.13×', ifKnown(hit >= 0.13, hit));
    if (mode === 'postgres') {
      add(
        `${name}: cache hit, 50 conn`,
        `${fmt(hit, 3)}× of bare node:http, ${fmt(r.cacheHit.cpuUs)} µs CPU per request`,
        '≥ 0.30×, ≤ 40 µs',
        ifKnown(hit >= 0.3 && r.cacheHit.cpuUs <= 40, hit, r.cacheHit.cpuUs),
      );
      add(
        `${name}: cache miss (instant provider), 50 conn`,
        `${fmt(miss, 3)}×, ${fmt(r.cacheMiss.cpuUs)} µs CPU per request`,
        '≥ 0.10×, ≤ 140 µs',
        ifKnown(miss >= 0.1 && r.cacheMiss.cpuUs <= 140, miss, r.cacheMiss.cpuUs),
      );
      add(
        `${name}: 50 ms provider, 50 conn`,
        `${fmt(loadShare * 100, 1)} % of direct, +${fmt(loadP50, 2)} ms p50 / +${fmt(loadP99, 2)} ms p99`,
        '≥ 95 %, ≤ +2 ms p50 / +8 ms p99',
        ifKnown(loadShare >= 0.95 && loadP50 <= 2 && loadP99 <= 8, loadShare, loadP50, loadP99),
      );
      add(
        `${name}: sequential, added latency`,
        `+${fmt(seqP50, 3)} ms p50 / +${fmt(seqP99, 3)} ms p99`,
        '≤ +0.3 ms p50 / +2 ms p99',
        ifKnown(seqP50 <= 0.3 && seqP99 <= 2, seqP50, seqP99),
      );
      if (SCENARIOS.has('streaming')) {
        const streamShare = r.stream.rps / baseline.streamDirect.rps;
        const doneP50 = r.stream.doneP50 - baseline.streamDirect.doneP50;
        add(
          `${name}: streamed answer, ${STREAM_CHUNKS} chunks, 50 conn`,
          `${fmt(streamShare * 100, 1)} % of direct, ${fmt(r.stream.cpuMsPerStream, 2)} ms CPU per stream, +${fmt(doneP50, 2)} ms p50 to the end`,
          '≥ 60 %, ≤ 1 ms, ≤ +20 ms',
          ifKnown(
            streamShare >= 0.6 && r.stream.cpuMsPerStream <= 1 && doneP50 <= 20,
            streamShare,
            r.stream.cpuMsPerStream,
            doneP50,
          ),
        );
      }
    }
    for (const [cost, what, limit] of [
      [r.tagCost, 'a miss with three request tags', 2],
      [r.budgetCost, 'a miss under an endpoint budget', 5],
    ])
      if (cost)
        add(
          `${name}: ${what}`,
          `${fmt(cost.addedPct, 1)} % more CPU than without (${fmt(cost.plainCpuUs)} → ${fmt(cost.variantCpuUs)} µs${cost.parts ? ', the service and the database' : ''})`,
          `≤ ${limit} %`,
          ifKnown(cost.addedPct <= limit, cost.addedPct),
        );
    if (r.eval) {
      const { alone, aloneAgain } = r.eval;
      add(
        `${name}: eval run, ${EVAL_ITEMS} items, concurrency ${EVAL_CONCURRENCY}, ${EVAL_PROVIDER_DELAY_MS} ms provider, baseline none`,
        `${fmt(alone.wallMs / 1000, 2)} s`,
        '< 4 s',
        ifKnown(alone.wallMs < 4000, alone.wallMs),
      );
      add(
        `${name}: the same eval run again (answers kept)`,
        `${aloneAgain.providerCalls} provider calls, ${fmt(aloneAgain.wallMs / 1000, 2)} s`,
        '0 calls',
        aloneAgain.providerCalls === 0 && r.eval.comparedAgain.providerCalls === 0,
      );
    }
    const rssLimit = mode === 'embedded' ? 300 : 250;
    add(
      `${name}: RSS under load`,
      `${fmt(r.rssUnderLoadMb || NaN)} MB`,
      `< ${rssLimit} MB`,
      // 0 when no scenario under load ran (--scenarios without cacheHit, cacheMiss and load): not run.
      ifKnown(r.rssUnderLoadMb < rssLimit, r.rssUnderLoadMb || NaN),
    );
  }
  if (stats) {
    const ms = stats.ms.statsTenant;
    const count = stats.rows ? `${Number(stats.rows).toLocaleString('en')} log rows` : `tenant ${stats.tenant}`;
    add(
      `PostgreSQL: GET /admin/v1/stats, whole tenant, 7 days by day, ${count}`,
      `${fmt(ms, 1)} ms`,
      '< 50 ms',
      ifKnown(ms < 50, ms),
    );
    for (const [what, keys, limit] of TAG_TARGETS) {
      const slowest = Math.max(...keys.map((key) => stats.ms[key] ?? NaN));
      const which = keys.find((key) => stats.ms[key] === slowest);
      const fastest = which && stats.fastestMs ? `, its fastest run ${fmt(stats.fastestMs[which], 1)} ms` : '';
      add(
        `PostgreSQL: ${what}, ${count} (slowest of ${keys.length})`,
        `${fmt(slowest, 1)} ms${which ? ` (${STATS_TIMINGS[which]}${fastest})` : ''}`,
        `< ${limit} ms`,
        ifKnown(slowest < limit, slowest),
      );
    }
    const scores = stats.ms.statsScoreByPrompt;
    add(
      'PostgreSQL: GET /admin/v1/stats?score=…&groupBy=prompt, 7 days, 300,000 scores',
      `${fmt(scores, 1)} ms`,
      '< 100 ms',
      ifKnown(scores < 100, scores),
    );
  } else if (MODES.includes('postgres')) {
    add('PostgreSQL: GET /admin/v1/stats at scale', 'not measured (--stats-rows 0)', '< 50 ms', undefined);
  }
  return table(['what', 'measured', 'target', 'result'], rows);
}

/** Every figure of the run: the baselines, then each mode and adapter's scenarios. */
function figures(baseline, runs, stats) {
  const rows = [];
  rows.push(['bare node:http, 50 conn', `${fmt(baseline.bare.rps)} req/s`, '1.00×', '']);
  rows.push([
    'direct to upstream (50 ms), 50 conn',
    `${fmt(baseline.loadDirect.rps)} req/s`,
    '',
    `p50 ${fmt(baseline.loadDirect.p50, 2)} / p99 ${fmt(baseline.loadDirect.p99, 2)} ms`,
  ]);
  rows.push([
    'direct to upstream (instant), 1 conn',
    '',
    '',
    `p50 ${fmt(baseline.seqDirect.p50, 3)} / p99 ${fmt(baseline.seqDirect.p99, 3)} ms`,
  ]);
  if (SCENARIOS.has('cacheMiss'))
    rows.push([
      'bare node:http pass-through to the instant upstream (the floor of a gateway on Node), 50 conn',
      `${fmt(baseline.proxyMiss.rps)} req/s`,
      `${fmt(baseline.proxyMiss.cpuUs)} µs CPU per request`,
      '',
    ]);
  if (SCENARIOS.has('streaming'))
    rows.push([
      `bare node:http pass-through of the ${STREAM_CHUNKS}-chunk stream, 50 conn`,
      `${fmt(baseline.proxyStream.rps)} streams/s`,
      `${fmt(baseline.proxyStream.cpuMsPerStream, 2)} ms CPU per stream`,
      `done p50 ${fmt(baseline.proxyStream.doneP50, 2)} ms`,
    ]);
  if (SCENARIOS.has('streaming'))
    rows.push([
      `direct stream (50 ms to first chunk, ${STREAM_CHUNKS} chunks 1 ms apart), 50 conn`,
      `${fmt(baseline.streamDirect.rps)} streams/s`,
      '',
      `first p50 ${fmt(baseline.streamDirect.p50, 2)} / p99 ${fmt(baseline.streamDirect.p99, 2)} ms; done p50 ${fmt(baseline.streamDirect.doneP50, 2)} / p99 ${fmt(baseline.streamDirect.doneP99, 2)} ms`,
    ]);
  for (const { mode, adapter, r } of runs) {
    const name = `${mode} ${adapter}`;
    const cpu = (m) => (known(m.cpuUs) ? `, ${fmt(m.cpuUs)} µs CPU per request` : '');
    const rss = (m) => (known(m.rssMb) ? `RSS peak ${fmt(m.rssMb)} MB` : '');
    rows.push([
      `${name}: first start (fresh data directory)`,
      `${fmt(r.firstStart.ms)} ms`,
      '',
      `RSS ${fmt(r.firstStart.rssMb)} MB, peak while starting ${fmt(r.firstStart.peakRssMb)} MB`,
    ]);
    rows.push([`${name}: restart`, `${fmt(r.restart.ms)} ms`, '', `idle RSS ${fmt(r.restart.idleRssMb)} MB`]);
    if (SCENARIOS.has('cacheHit'))
      rows.push([
        `${name}: cache hit, 50 conn`,
        `${fmt(r.cacheHit.rps)} req/s`,
        `${fmt(r.cacheHit.rps / baseline.bare.rps, 3)}×${cpu(r.cacheHit)}`,
        rss(r.cacheHit),
      ]);
    if (SCENARIOS.has('cacheMiss'))
      rows.push([
        `${name}: cache miss (instant upstream), 50 conn`,
        `${fmt(r.cacheMiss.rps)} req/s`,
        `${fmt(r.cacheMiss.rps / baseline.bare.rps, 3)}×${cpu(r.cacheMiss)}`,
        rss(r.cacheMiss),
      ]);
    for (const [cost, what, without] of [
      [r.tagCost, 'cache miss with three request tags', 'without tags'],
      [r.budgetCost, 'cache miss under an endpoint budget (priced model)', 'without a budget'],
    ])
      if (cost)
        rows.push([
          `${name}: ${what}, 50 conn`,
          `${fmt(cost.variantCpuUs)} µs CPU per request`,
          `${without} ${fmt(cost.plainCpuUs)} µs`,
          `added per round: ${cost.rounds.map((pct) => `${fmt(pct, 1)} %`).join(', ')}` +
            (cost.parts
              ? `; service ${cost.parts.service.map((us) => fmt(us)).join(' → ')} µs, database ${cost.parts.database.map((us) => fmt(us)).join(' → ')} µs`
              : ''),
        ]);
    if (SCENARIOS.has('load'))
      rows.push([
        `${name}: 50 ms upstream, 50 conn`,
        `${fmt(r.loadService.rps)} req/s`,
        `${fmt((r.loadService.rps / baseline.loadDirect.rps) * 100, 1)} % of direct${cpu(r.loadService)}`,
        `+${fmt(r.loadService.p50 - baseline.loadDirect.p50, 2)} ms p50 / +${fmt(r.loadService.p99 - baseline.loadDirect.p99, 2)} ms p99; ${rss(r.loadService)}`,
      ]);
    if (SCENARIOS.has('sequential'))
      rows.push([
        `${name}: sequential, 1 conn`,
        `${fmt(r.seqService.rps)} req/s`,
        cpu(r.seqService).slice(2),
        `+${fmt(r.seqService.p50 - baseline.seqDirect.p50, 3)} ms p50 / +${fmt(r.seqService.p99 - baseline.seqDirect.p99, 3)} ms p99`,
      ]);
    if (r.eval) rows.push(...evalFigures(name, r.eval));
    if (SCENARIOS.has('streaming')) {
      rows.push([
        `${name}: streamed, ${STREAM_CHUNKS} chunks, 50 conn`,
        `${fmt(r.stream.rps)} streams/s`,
        `${fmt((r.stream.rps / baseline.streamDirect.rps) * 100, 1)} % of direct, ${fmt(r.stream.cpuMsPerStream, 2)} ms CPU per stream`,
        `first piece +${fmt(r.stream.p50 - baseline.streamDirect.p50, 2)} ms p50 / +${fmt(r.stream.p99 - baseline.streamDirect.p99, 2)} ms p99; done +${fmt(r.stream.doneP50 - baseline.streamDirect.doneP50, 2)} ms p50`,
      ]);
      rows.push([
        `${name}: ${OPEN_STREAMS} open streams`,
        `${fmt(r.openStreams.peakMb)} MB`,
        `idle ${fmt(r.openStreams.beforeMb)} MB`,
        `${r.openStreams.mostOpen} open at once, ${r.openStreams.failed} failed`,
      ]);
      for (const [reason, count] of Object.entries(r.openStreams.reasons ?? {}))
        process.stderr.write(`${name}: ${count} of the ${OPEN_STREAMS} open streams failed: ${reason}\n`);
    }
    const failures =
      r.cacheHit.failures + r.cacheMiss.failures + r.loadService.failures + r.seqService.failures + r.stream.failures;
    if (failures > 0) rows.push([`${name}: non-2xx answers, errors or failed streams`, String(failures), '', 'MISSED']);
  }
  rows.push(...statsFigures(stats));
  return table(['scenario', 'throughput', 'ratio', 'latency, memory'], rows);
}

/**
 * The rows of the figures table for the evaluation runs: each run's wall time and the provider calls it made (with the
 * most in flight at once), the service's CPU per unit of work (an item on one side), and the overhead per unit worked
 * out from the wall time, with the places the run may use (its concurrency, capped by EVAL_MAX_CONCURRENCY).
 */
function evalFigures(name, results) {
  const inFlight = Math.min(EVAL_CONCURRENCY, EVAL_MAX_CONCURRENCY);
  const runs = [
    [results.alone, 'baseline none, new answers'],
    [results.aloneAgain, 'baseline none, again (answers kept)'],
    [results.compared, 'baseline default, fresh (both sides call)'],
    [results.comparedAgain, 'baseline default, again (answers kept)'],
  ];
  return runs.map(([run, what]) => [
    `${name}: eval ${EVAL_ITEMS} items × c${EVAL_CONCURRENCY} (${EVAL_PROVIDER_DELAY_MS} ms provider), ${what}`,
    `${fmt(run.wallMs)} ms (run ${fmt(run.runMs)} ms)`,
    `${run.units} units, ${fmt(run.cpuMsPerUnit, 2)} ms CPU per unit`,
    `${run.providerCalls} provider calls (≤ ${run.peakInFlight} at once); overhead per unit ` +
      `${fmt(overheadMsPerUnit(run, inFlight), 1)} ms at ${inFlight} in flight ` +
      `(${fmt(overheadMsPerUnit(run, EVAL_CONCURRENCY), 1)} ms at ${EVAL_CONCURRENCY})`,
  ]);
}

/** The rows of the figures table for the reads at scale (none when they did not run). */
function statsFigures(stats) {
  if (!stats) return [];
  const rows = [];
  const count = stats.rows ? `${Number(stats.rows).toLocaleString('en')} log rows` : `tenant ${stats.tenant}`;
  if (stats.rows)
    rows.push([`PostgreSQL: seeding ${count}`, `${stats.insertS} s, rollups ${stats.rollupsS} s`, '', '']);
  for (const [key, what] of Object.entries(STATS_TIMINGS))
    if (stats.ms[key] !== undefined)
      rows.push([
        `PostgreSQL, ${count}: ${what}`,
        `${fmt(stats.ms[key], 1)} ms`,
        stats.fastestMs ? `fastest ${fmt(stats.fastestMs[key], 1)} ms` : '',
        '',
      ]);
  return rows;
}

/** --stats-only: the log and stats reads at scale alone, with their targets. */
function statsOnly() {
  if (!fs.existsSync(path.join(ROOT, 'dist/src/cli/seed-logs.js'))) throw new Error('build first: npm run build');
  if (!process.env.DATABASE_URL) throw new Error('--stats-only needs DATABASE_URL (a database of its own)');
  const stats = statsAtScale(STATS_ROWS);
  fs.writeFileSync(path.join(os.tmpdir(), 'promptgate-bench-last.json'), JSON.stringify({ stats }));
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
  const summary = `${new Date().toISOString().slice(0, 16)} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version} · PostgreSQL · load average ${load} (1 / 5 / 15 min) · medians of 5 service calls after a warm-up, and the fastest`;
  const report = `${summary}\n\n${targets(undefined, [], stats)}\n\n${table(['scenario', 'median', 'fastest', ''], statsFigures(stats))}`;
  process.stdout.write(`\n${report}\n`);
}

async function main() {
  // --telemetry: what metrics and tracing cost the hot path instead (bench/telemetry.js, its own options).
  if (args.telemetry) return require('./telemetry.js');
  if (args['stats-only']) return statsOnly();
  if (!fs.existsSync(path.join(ROOT, 'dist/src/main.js'))) throw new Error('build first: npm run build');
  for (const mode of MODES) if (!MODE_NAMES[mode]) throw new Error(`--modes: unknown mode ${mode}`);
  if (MODES.includes('postgres') && !SERVER_MODE_READY)
    throw new Error('--modes postgres needs DATABASE_URL and REDIS_URL');
  if (HAS_TASKSET) spawnSync('taskset', ['-pc', CLIENT_CORE, String(process.pid)], { stdio: 'ignore' });
  const instant = await startScript(path.join(__dirname, 'upstream.js'), { UPSTREAM_DELAY_MS: '0' }, CLIENT_CORE);
  const slow = await startScript(
    path.join(__dirname, 'upstream.js'),
    { UPSTREAM_DELAY_MS: '50', UPSTREAM_CHUNKS: String(STREAM_CHUNKS), UPSTREAM_CHUNK_DELAY_MS: '1' },
    CLIENT_CORE,
  );
  // Long streams (20 chunks 250 ms apart): held open together for the memory figure.
  const long = await startScript(
    path.join(__dirname, 'upstream.js'),
    { UPSTREAM_DELAY_MS: '50', UPSTREAM_CHUNK_DELAY_MS: '250' },
    CLIENT_CORE,
  );
  // The evaluation scenario's provider, answering in EVAL_PROVIDER_DELAY_MS; it counts the calls made to it.
  const evalProvider = await startScript(
    path.join(__dirname, 'upstream.js'),
    { UPSTREAM_DELAY_MS: String(EVAL_PROVIDER_DELAY_MS) },
    CLIENT_CORE,
  );
  const bare = await startScript(path.join(__dirname, 'bare.js'), {}, SERVER_CORE);
  // The floor of a gateway on Node, pinned as the service is: a bare pass-through to the instant and the slow provider.
  const proxy = await startScript(
    path.join(__dirname, 'bare-proxy.js'),
    { UPSTREAM_PORT: String(instant.port) },
    SERVER_CORE,
  );
  const streamProxy = await startScript(
    path.join(__dirname, 'bare-proxy.js'),
    { UPSTREAM_PORT: String(slow.port) },
    SERVER_CORE,
  );
  const modelsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-bench-models-')), 'models.json');
  fs.writeFileSync(modelsFile, JSON.stringify(benchModels(instant.port, slow.port, long.port, evalProvider.port)));

  const upstreamBody = JSON.stringify({
    model: 'bench-model',
    messages: [{ role: 'user', content: 'Summarize in one sentence: The quick brown fox.' }],
  });
  const direct = (port) => ({ url: `http://127.0.0.1:${port}/v1/chat/completions`, body: upstreamBody });
  const baseline = {
    bare:
      SCENARIOS.has('cacheHit') || SCENARIOS.has('cacheMiss')
        ? await measure({ url: `http://127.0.0.1:${bare.port}/`, connections: 50, method: 'GET' })
        : skipped,
    loadDirect: SCENARIOS.has('load') ? await measure({ ...direct(slow.port), connections: 50 }) : skipped,
    seqDirect: SCENARIOS.has('sequential') ? await measure({ ...direct(instant.port), connections: 1 }) : skipped,
    streamDirect: SCENARIOS.has('streaming')
      ? await measureStream(
          {
            url: direct(slow.port).url,
            body: JSON.stringify({
              ...JSON.parse(upstreamBody),
              stream: true,
              stream_options: { include_usage: true },
            }),
            headers: {},
            marker: '"content":"word0',
          },
          slow.child.pid,
        )
      : skipped,
  };
  // The same calls through the bare pass-through: its CPU per request and per stream.
  baseline.proxyMiss = SCENARIOS.has('cacheMiss')
    ? await measure(
        { url: `http://127.0.0.1:${proxy.port}/`, body: upstreamBody, connections: 50 },
        undefined,
        proxy.child.pid,
      )
    : skipped;
  baseline.proxyStream = SCENARIOS.has('streaming')
    ? await measureStream(
        {
          url: `http://127.0.0.1:${streamProxy.port}/`,
          body: JSON.stringify({ ...JSON.parse(upstreamBody), stream: true }),
          headers: {},
          marker: '"content":"word0',
        },
        streamProxy.child.pid,
      )
    : skipped;
  const runs = [];
  for (const mode of MODES)
    for (const adapter of ADAPTERS)
      runs.push({ mode, adapter, r: await runAdapter(mode, adapter, modelsFile, evalProvider) });
  const stats = MODES.includes('postgres') && STATS_ROWS > 0 ? statsAtScale(STATS_ROWS) : undefined;
  // Every figure, as measured, for a later look (the tables below round them).
  fs.writeFileSync(path.join(os.tmpdir(), 'promptgate-bench-last.json'), JSON.stringify({ baseline, runs, stats }));

  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const modes = MODES.map((mode) =>
    mode === 'embedded' ? 'embedded (PGlite, in-process cache and counters)' : 'PostgreSQL + Redis',
  ).join(' and ');
  const summary = `${new Date().toISOString().slice(0, 10)} · ${machine} · ${modes} · pinned: ${HAS_TASKSET ? 'yes (servers core 0, load + providers core 1)' : 'no'} · ${ROUNDS} rounds × ${DURATION} s (medians)`;
  const report = `${summary}\n\n${targets(baseline, runs, stats)}\n\n${figures(baseline, runs, stats)}`;
  process.stdout.write(`\n${report}\n`);
  if (!SERVER_MODE_READY && !args.embedded && !args.modes)
    process.stdout.write('\nPostgreSQL + Redis not run: set DATABASE_URL and REDIS_URL to measure both modes.\n');
  if (args.write) writeBenchmarks(report);
}

/** The MODELS_FILE the service reads: OpenAI-compatible providers on the fake upstreams. */
function benchModels(instantPort, slowPort, longPort, evalPort) {
  return {
    providers: [
      {
        name: 'bench',
        baseUrl: `http://127.0.0.1:${instantPort}/v1`,
        apiKey: 'bench',
        models: [
          { id: 'bench-instant' },
          // The same upstream with a price: budgets reserve and settle its calls.
          { id: 'bench-priced', pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 2 } },
        ],
      },
      {
        name: 'bench-slow',
        baseUrl: `http://127.0.0.1:${slowPort}/v1`,
        apiKey: 'bench',
        models: [{ id: 'bench-slow' }],
      },
      {
        name: 'bench-long',
        baseUrl: `http://127.0.0.1:${longPort}/v1`,
        apiKey: 'bench',
        models: [{ id: 'bench-long' }],
      },
      {
        name: 'bench-eval',
        baseUrl: `http://127.0.0.1:${evalPort}/v1`,
        apiKey: 'bench',
        models: [{ id: 'bench-eval' }],
      },
    ],
  };
}

function writeBenchmarks(report) {
  const file = path.join(ROOT, 'BENCHMARKS.md');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const block = `${start}\n${report}\n${end}`;
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `# Benchmarks\n\n${start}\n${end}\n`;
  fs.writeFileSync(
    file,
    current.includes(start) ? current.replace(new RegExp(`${start}[\\s\\S]*?${end}`), block) : `${current}\n${block}\n`,
  );
}

main()
  .catch((error) => {
    process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const child of children) child.kill('SIGKILL');
  });
