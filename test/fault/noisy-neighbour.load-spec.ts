import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { FakeReply } from '../support/fake-llm-server';
import { STREAMED_OBJECT, STREAM_DELTAS, useLoadSuite } from './load-suite';
import { admin, residentMb, ROOT, startService } from './service-process';

const CLI_MAIN = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const ADMIN_KEY = 'epa_' + 'NoisyNeighbourTenantA'.repeat(2);
/** The largest value any integer setting takes: tenant A's key limits, so no rate limit holds its load back. */
const MAX_INTEGER = 2_147_483_647;

/**
 * The service's bounds, set small so a short test reaches every one of them (the service ignores a variable it does
 * not know, so a bound not yet built is simply not in force).
 */
const BOUNDS = {
  CACHE_MAX_BYTES: String(48 * 1024 * 1024),
  CACHE_MAX_TENANT_BYTES: String(24 * 1024 * 1024),
  // Above the size of A's cached entries (a ~512 KB answer with what is stored beside it), so the byte bounds, not
  // this cap, are what keep them in check.
  CACHE_MAX_ENTRY_BYTES: String(4 * 1024 * 1024),
  // A's cached and never-read answers (up to ~900 KB) fit; its 6.4 MB wide answers do not.
  MAX_ANSWER_BYTES: String(2 * 1024 * 1024),
  RENDER_QUEUE_MAX: '16',
  // B holds a call or two in flight at its rate. A's held calls reach the key bound on both their keys, and its
  // streams take their places from what that leaves of the tenant's.
  MAX_PROVIDER_CALLS_PER_TENANT: '64',
  MAX_PROVIDER_CALLS_PER_KEY: '24',
  STREAM_WRITE_TIMEOUT_MS: '3000',
  MAX_STREAMS_PER_KEY: '16',
};

/**
 * The service's JavaScript heap limit in this test. Left to its default (a quarter of the machine's memory, up to
 * 4 GB), V8 lets garbage of large answers pile up in RSS long before it collects it, and RSS would say little about
 * what the service keeps. With a limit, garbage is collected and what is kept must fit: a service that keeps what its
 * bounds should have let go runs out of heap and dies, and the test says so.
 */
const HEAP_LIMIT_MB = 384;
/**
 * The most the service process may hold resident (every thread's heap, the embedded database, buffers, code) while
 * tenant A runs everything below at once. It is the sum of what the process may hold by its ceilings on Node 24: the
 * main heap's HEAP_LIMIT_MB; two render threads' old generations of 88 MB each (64 MB and 24 times the largest render,
 * 1 MiB); the young generations V8 keeps beside them (up to 128 MB on the main thread, 16 MB per render thread and 8
 * MB for the database thread); about 60 MB of code; and 200 MB for the embedded database, buffers and the allocator's
 * heap. A service that keeps what its bounds should let go does not reach it: its main heap runs out first and it
 * dies (with the cache, answer and stream bounds lifted it does so within 10 seconds). Measured on a 2-core machine:
 * 790 to 884 MB, of which the main heap's live objects are about 140 MB (a heap snapshot at the peak).
 */
const RSS_BOUND_MB = 1_000;
/**
 * Tenant B's p99 latency target while A's load runs (a 2-core machine shared with A's load and this test): the summary
 * says whether it was met, and BENCHMARKS.md keeps the measured runs. What the test requires is the bound below, 4
 * times the target: a tenant left waiting behind another's load waits seconds, and a timed test's budget must hold on
 * a loaded or slower machine too (this one varies by 20 % between runs of the same build).
 */
const B_P99_TARGET_MS = 250;
const B_P99_BOUND_MS = 4 * B_P99_TARGET_MS;
/** A's load runs this long before B is measured, so B meets the established load, not its ramp. */
const LOAD_SETTLE_MS = 5_000;
/** How long B is measured, and its steady rate (an open loop: a request starts every 1000/rate ms whatever happens). */
const B_DURATION_MS = 15_000;
const B_RATE_PER_SECOND = 20;
/** One of B's requests that takes longer than this is a failure (and its latency this). */
const B_TIMEOUT_MS = 10_000;

/** Renders ~512 KB from a short template: a string doubled 16 times, after the request's own text. */
const LARGE_RENDER = `{{ inputs.text }}{% assign s = "xxxxxxxx" %}${'{% assign s = s | append: s %}'.repeat(16)}{{ s }}`;
/** Renders ~64 KB: each of 100 string output fields of a mock-echo answer holds it (a 6.4 MB answer). */
const WIDE_RENDER = `{{ inputs.text }}{% assign s = "xxxxxxxx" %}${'{% assign s = s | append: s %}'.repeat(13)}{{ s }}`;
/** Renders ~900 KB, streamed back by mock-echo to clients that never read it. */
const STALLED_RENDER = `{{ inputs.text }}{% assign s = "xxxxxxxxxxxxxx" %}${'{% assign s = s | append: s %}'.repeat(16)}{{ s }}`;
/** The nested-loop renders run for this long, then pause as long, and so on. */
const LOOP_BURST_MS = 2_000;
/** Runs until the render's time budget is spent. */
const NESTED_LOOPS = '{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}x';
/** The fake provider's structured answer for A's streams: an 80 KB object sent as 20,000 deltas. */
/** How long the fake provider holds A's slow calls before it answers. */
const SLOW_PROVIDER_MS = 20_000;

interface Tally {
  sent: number;
  statuses: Record<string, number>;
}

const newTally = (): Tally => ({ sent: 0, statuses: {} });
const count = (tally: Tally, status: number | string) => {
  tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  /** 0 when the request got no answer (refused, reset, timed out). */
  status: number;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

/** One request; the answer's body is read and thrown away. Never rejects. */
function call(
  agent: http.Agent,
  base: string,
  options: { path: string; key: string; body: unknown; headers?: Record<string, string>; timeoutMs: number },
): Promise<Answer> {
  const url = new URL(base);
  const body = JSON.stringify(options.body);
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (status: number, headers: http.IncomingHttpHeaders = {}) => {
      if (settled) return;
      settled = true;
      resolve({ status, headers, ms: performance.now() - started });
    };
    const request = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: options.path,
        headers: {
          'x-api-key': options.key,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...options.headers,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => settle(response.statusCode ?? 0, response.headers));
        response.on('error', () => settle(0));
        response.on('close', () => settle(response.complete ? (response.statusCode ?? 0) : 0));
      },
    );
    request.setTimeout(options.timeoutMs, () => request.destroy());
    request.on('error', () => settle(0));
    request.end(body);
  });
}

/** How long a client waits after a refusal: its Retry-After (at most 2 s), else 1 s; 200 ms after a failure. */
function pauseAfter(answer: Answer): number {
  if (answer.status === 0) return 200;
  if (answer.status !== 429 && answer.status !== 503) return 0;
  const seconds = Number(answer.headers['retry-after']);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(2_000, seconds * 1000) : 1_000;
}

/**
 * `workers` loops, each sending `send(n)` (n counts every request of the loop) until `running()` says stop or
 * `maxRequests` were sent. A refused worker waits as its answer's Retry-After says and asks again, so the load stays
 * at the tenant's limit without turning into a flood of refusals.
 */
async function repeat(
  tally: Tally,
  options: { workers: number; maxRequests: number; inBurst?: () => boolean },
  running: () => boolean,
  send: (n: number) => Promise<Answer>,
): Promise<void> {
  await Promise.all(
    Array.from({ length: options.workers }, async () => {
      while (running() && tally.sent < options.maxRequests) {
        if (options.inBurst && !options.inBurst()) {
          await sleep(50);
          continue;
        }
        const answer = await send(tally.sent++);
        // Requests cut off when the load stops are not answers.
        if (answer.status !== 0 || running()) count(tally, answer.status);
        await sleep(pauseAfter(answer));
      }
    }),
  );
}

/**
 * Sockets that each ask for a large stream and never read it (past its first chunk), kept at `sockets` open (one
 * replaced when the service closes it or refuses its request, `maxOpened` in all) until `running()` says stop; then
 * every one is destroyed.
 */
async function stalledStreams(
  tally: Tally,
  base: string,
  options: { path: string; key: string; sockets: number; maxOpened: number },
  running: () => boolean,
): Promise<void> {
  const url = new URL(base);
  const open = new Set<net.Socket>();
  const body = JSON.stringify({ text: 'never read' });
  const request =
    `POST ${options.path} HTTP/1.1\r\nHost: ${url.host}\r\nx-api-key: ${options.key}\r\n` +
    `content-type: application/json\r\naccept: text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const openOne = () => {
    tally.sent++;
    const socket = net.connect(Number(url.port), url.hostname);
    // The first chunk that arrives is read, for the answer's status, and then nothing more. A refused request's
    // socket is let go, and its place taken again once the answer's Retry-After (or a second) has passed.
    let refused = false;
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      const head = chunk.toString('latin1', 0, 2_048);
      const status = /^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 'no status line';
      count(tally, status);
      if (status === '200') return;
      refused = true;
      socket.destroy();
      const retryAfter = Number(/^retry-after: *(\d+)/im.exec(head)?.[1] ?? 1);
      setTimeout(() => open.delete(socket), Math.min(2_000, retryAfter * 1000)).unref();
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      if (refused) return;
      open.delete(socket);
      if (running()) count(tally, 'closed by the service');
    });
    socket.write(request);
    open.add(socket);
  };
  while (running()) {
    while (running() && open.size < options.sockets && tally.sent < options.maxOpened) openOne();
    await sleep(200);
  }
  for (const socket of open) socket.destroy();
}

/** One of B's answers: its status (0 when none came), how long it took, its X-Cache header. */
interface AnswerB {
  cached: boolean;
  status: number;
  ms: number;
  xCache?: string;
}

/**
 * B's client, run on a thread of its own so that its timings do not include the delays of this thread's event loop
 * (which also drives A's load and serves the fake provider): `count` requests, one every 1000/ratePerSecond ms
 * whatever the answers do (an open loop), alternating the cached endpoint (always the same body) and the uncached one
 * (a new body each time). Plain JavaScript, since the thread loads it without the test's TypeScript transform.
 */
const B_PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { base, key, cachedPath, uncachedPath, count, ratePerSecond, timeoutMs } = workerData;
const url = new URL(base);
const agent = new http.Agent({ keepAlive: true });
function call(path, text) {
  const body = JSON.stringify({ text });
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (status, xCache) => {
      if (settled) return;
      settled = true;
      resolve({ status, ms: performance.now() - started, xCache });
    };
    const request = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => settle(response.statusCode, response.headers['x-cache']));
        response.on('error', () => settle(0));
        response.on('close', () => settle(response.complete ? response.statusCode : 0, response.headers['x-cache']));
      },
    );
    request.setTimeout(timeoutMs, () => request.destroy());
    request.on('error', () => settle(0));
    request.end(body);
  });
}
(async () => {
  const starts = performance.now();
  const answers = [];
  for (let n = 0; n < count; n++) {
    const wait = starts + (n * 1000) / ratePerSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const cached = n % 2 === 0;
    answers.push(call(cached ? cachedPath : uncachedPath, cached ? 'b' : 'fresh ' + n).then((a) => ({ ...a, cached })));
  }
  parentPort.postMessage(await Promise.all(answers));
  agent.destroy();
})();
`;

function probeB(
  options: {
    base: string;
    key: string;
    cachedPath: string;
    uncachedPath: string;
    count: number;
    ratePerSecond: number;
    timeoutMs: number;
  },
  cleanups: (() => void)[],
): Promise<AnswerB[]> {
  const worker = new Worker(B_PROBER, { eval: true, workerData: options });
  cleanups.push(() => void worker.terminate());
  return new Promise((resolve, reject) => {
    worker.once('message', (answers: AnswerB[]) => resolve(answers));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`B's client thread exited (${code}) before it answered`)));
  });
}

/** Runs the built CLI against the running service (through its socket in DATA_DIR); answers standard output. */
function cli(dataDir: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    execFile(process.execPath, [CLI_MAIN, ...args], { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`cli ${args.join(' ')}: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

const lastLine = (text: string) => text.trim().split('\n').pop() ?? '';

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

const round = (value: number) => Math.round(value);
const sortedMs = (answers: { ms: number }[]) => answers.map((answer) => answer.ms).sort((x, y) => x - y);

/** The slowest of B's answers sent in each second of its run (they are in the order they were sent). */
function maxBySecond(answers: { ms: number }[]): number[] {
  const seconds: number[] = [];
  answers.forEach((answer, index) => {
    const second = Math.floor(index / B_RATE_PER_SECOND);
    seconds[second] = Math.max(seconds[second] ?? 0, round(answer.ms));
  });
  return seconds;
}

/** Values of the service's own gauges, from GET /metrics (unlabelled series only); {} when it does not answer. */
async function serviceGauges(base: string): Promise<Record<string, number>> {
  const text = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5_000) }).then(
    (response) => response.text(),
    () => '',
  );
  const gauges: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+) ([0-9.e+-]+)$/.exec(line);
    if (match) gauges[match[1]] = Number(match[2]);
  }
  return gauges;
}

/** CPU time the process has used (all its threads), in ms, from /proc (Linux); NaN once it is gone. */
function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of the line (counted from the state, field 3), in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Noisy neighbour: tenant A runs, all at once and at its full limits, every load that once let one tenant hurt the
 * others (many large distinct cacheable answers, streams of tens of thousands of deltas, answers of 100 output fields,
 * nested-loop renders, provider calls held open against a slow provider, stream sockets that never read), while
 * tenant B calls a cached and an uncached endpoint at a steady modest rate. The built service runs as its own process
 * on the embedded database, with its bounds set small through the environment; the fake provider runs here.
 * A's refusals (429, 503, 502) are expected. The service must stay up and answer /health at the end, B must see no
 * error and a p99 latency under B_P99_BOUND_MS, and the service's resident memory must stay under RSS_BOUND_MB.
 */
describe('noisy neighbour', () => {
  const suite = useLoadSuite('noisy');

  it('one tenant at its limits does not slow, fail or outgrow the service for another', async () => {
    const { fake, workDir, cleanups } = suite;
    // One reply object per model: the fake provider builds a reply's 20,000 events once, not once per call.
    const replies: Record<string, FakeReply> = {
      'slow-model': { text: '{"answer":"late"}', delayMs: SLOW_PROVIDER_MS },
      'stream-model': { text: STREAMED_OBJECT, stream: { chunks: STREAM_DELTAS } },
      'fast-model': { text: '"fine"' },
    };
    fake.replyBy((request) => replies[String((request.body as { model?: string } | undefined)?.model)]);
    const modelsFile = path.join(workDir, 'models.json');
    fs.writeFileSync(
      modelsFile,
      JSON.stringify({
        providers: [
          {
            name: 'local',
            baseUrl: `${fake.url}/local/v1`,
            models: [{ id: 'slow-model' }, { id: 'stream-model' }, { id: 'fast-model' }],
          },
        ],
      }),
    );
    const dataDir = path.join(workDir, 'data');
    const service = (suite.service = await startService({
      INITIAL_ADMIN_KEY: ADMIN_KEY,
      INITIAL_TENANT: 'noisy-a',
      DATA_DIR: dataDir,
      NODE_OPTIONS: `--max-old-space-size=${HEAP_LIMIT_MB}`,
      MODELS_FILE: modelsFile,
      ADMIN_RATE_LIMIT_PER_MINUTE: String(MAX_INTEGER),
      ...BOUNDS,
    }));
    const base = service.base;
    const setupFailed = (error: Error) => {
      throw new Error(`${error.message}\n${service.output.slice(-20).join('\n')}`);
    };

    // Tenant B and its admin key, through the CLI.
    await cli(dataDir, 'tenant', 'create', 'noisy-b', '--name', 'Neighbour');
    const adminB = lastLine(await cli(dataDir, 'key', 'create', '--tenant', 'noisy-b', '--type', 'admin'));

    const unlimited = {
      rateLimitPerMinute: MAX_INTEGER,
      rateLimitPerHour: MAX_INTEGER,
      rateLimitPerDay: MAX_INTEGER,
    };
    const endpointKey = async (adminKey: string, name: string): Promise<string> =>
      (await admin(base, adminKey, 'POST', '/admin/v1/keys', { name, type: 'endpoint', ...unlimited })).key;
    const endpoint = async (
      adminKey: string,
      name: string,
      spec: { template: string; llmModel: string; outputs?: string[]; settings?: Record<string, unknown> },
    ): Promise<string> => {
      const endpointPath = `/api/v1/noisy-${name}`;
      const created = await admin(base, adminKey, 'POST', '/admin/v1/endpoints', {
        name,
        path: endpointPath,
        timeoutSeconds: 60,
        ...spec.settings,
      });
      await admin(base, adminKey, 'POST', `/admin/v1/endpoints/${created.id}/input-fields`, {
        name: 'text',
        dataType: 'string',
        isRequired: true,
      });
      for (const output of spec.outputs ?? [])
        await admin(base, adminKey, 'POST', `/admin/v1/endpoints/${created.id}/output-fields`, {
          name: output,
          dataType: 'string',
        });
      const prompt = await admin(base, adminKey, 'POST', '/admin/v1/prompts', {
        name: name,
        endpointId: created.id,
        llmModel: spec.llmModel,
        template: spec.template,
      });
      await admin(base, adminKey, 'POST', `/admin/v1/prompts/${prompt.id}/promote`);
      await admin(base, adminKey, 'POST', `/admin/v1/prompts/${prompt.id}/set-default`);
      return endpointPath;
    };

    const a = await (async () => ({
      cached: await endpoint(ADMIN_KEY, 'a-cached', {
        template: LARGE_RENDER,
        llmModel: 'mock-echo',
        settings: { cacheEnabled: true, cacheDurationSeconds: 600 },
      }),
      streamed: await endpoint(ADMIN_KEY, 'a-streamed', {
        template: 'Stream {{ inputs.text }}',
        llmModel: 'stream-model',
        outputs: ['answer'],
      }),
      wide: await endpoint(ADMIN_KEY, 'a-wide', {
        template: WIDE_RENDER,
        llmModel: 'mock-echo',
        outputs: Array.from({ length: 100 }, (_, index) => `field${index}`),
      }),
      loops: await endpoint(ADMIN_KEY, 'a-loops', { template: NESTED_LOOPS, llmModel: 'mock-echo' }),
      slow: await endpoint(ADMIN_KEY, 'a-slow', { template: 'Slow {{ inputs.text }}', llmModel: 'slow-model' }),
      stalled: await endpoint(ADMIN_KEY, 'a-stalled', { template: STALLED_RENDER, llmModel: 'mock-echo' }),
      // One key per load, each at the maximum limits; the slow calls get two, to reach the tenant's cap too.
      keys: {
        cached: await endpointKey(ADMIN_KEY, 'cached'),
        streamed: await endpointKey(ADMIN_KEY, 'streamed'),
        wide: await endpointKey(ADMIN_KEY, 'wide'),
        loops: await endpointKey(ADMIN_KEY, 'loops'),
        slow: [await endpointKey(ADMIN_KEY, 'slow 1'), await endpointKey(ADMIN_KEY, 'slow 2')],
        stalled: await endpointKey(ADMIN_KEY, 'stalled'),
      },
    }))().catch(setupFailed);
    const b = await (async () => ({
      cached: await endpoint(adminB, 'b-cached', {
        template: 'Cached {{ inputs.text }}',
        llmModel: 'mock-echo',
        settings: { cacheEnabled: true, cacheDurationSeconds: 600 },
      }),
      uncached: await endpoint(adminB, 'b-uncached', { template: 'Fresh {{ inputs.text }}', llmModel: 'fast-model' }),
      key: await endpointKey(adminB, 'steady'),
    }))().catch(setupFailed);

    // B is in its steady state before the load starts: its cached answer stored, both endpoints called before.
    const warmAgent = new http.Agent({ keepAlive: false });
    cleanups.push(() => warmAgent.destroy());
    for (const [target, text] of [
      [b.cached, 'b'],
      [b.uncached, 'warm 1'],
      [b.uncached, 'warm 2'],
    ]) {
      const warm = await call(warmAgent, base, { path: target, key: b.key, body: { text }, timeoutMs: 10_000 });
      expect({ target, status: warm.status }).toEqual({ target, status: 200 });
    }

    // Everything from here on is bounded by the load's deadline (and each loop by its count).
    const pid = service.child.pid!;
    let peakRssMb = residentMb(pid);
    const rssTimer = setInterval(() => (peakRssMb = Math.max(peakRssMb, residentMb(pid) || 0)), 250);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const loadStarts = Date.now();
    const loadEnds = loadStarts + LOAD_SETTLE_MS + B_DURATION_MS + 1_000;
    const inBurst = () => Math.floor((Date.now() - loadStarts) / LOOP_BURST_MS) % 2 === 0;
    let stopped = false;
    const running = () => !stopped && Date.now() < loadEnds;
    const agentA = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    cleanups.push(() => {
      stopped = true;
      clearInterval(rssTimer);
      loopDelay.disable();
      agentA.destroy();
    });
    const tallies = {
      cached: newTally(),
      streamed: newTally(),
      wide: newTally(),
      loops: newTally(),
      slow: newTally(),
      stalled: newTally(),
    };
    const sendA = (target: string, key: string, body: unknown, headers?: Record<string, string>) =>
      call(agentA, base, { path: target, key, body, headers, timeoutMs: 30_000 });
    const loadA = Promise.all([
      // 1. Many distinct large cacheable answers, 6 at a time.
      repeat(tallies.cached, { workers: 6, maxRequests: 3_000 }, running, (n) =>
        sendA(a.cached, a.keys.cached, { text: `body ${n}` }),
      ),
      // 2. Streams of 20,000 deltas each, 3 at a time, read to their end.
      repeat(tallies.streamed, { workers: 3, maxRequests: 200 }, running, (n) =>
        sendA(a.streamed, a.keys.streamed, { text: `stream ${n}` }, { accept: 'text/event-stream' }),
      ),
      // 3. Answers of 100 string output fields of ~64 KB each, 4 at a time.
      repeat(tallies.wide, { workers: 4, maxRequests: 1_000 }, running, (n) =>
        sendA(a.wide, a.keys.wide, { text: `wide ${n}` }),
      ),
      // 4. Nested-loop renders, 80 at a time, in bursts: while they fill A's share of the render queue, A's other
      // renders are refused too (the queue refuses the tenant that fills it), and between bursts those loads run.
      repeat(tallies.loops, { workers: 80, maxRequests: 20_000, inBurst }, running, (n) =>
        sendA(a.loops, a.keys.loops, { text: `loops ${n}` }),
      ),
      // 5. Calls held open by a slow provider, 120 at a time over two keys.
      repeat(tallies.slow, { workers: 120, maxRequests: 5_000 }, running, (n) =>
        sendA(a.slow, a.keys.slow[n % 2], { text: `slow ${n}` }),
      ),
      // 6. Stream sockets that never read, 150 open.
      stalledStreams(
        tallies.stalled,
        base,
        { path: a.stalled, key: a.keys.stalled, sockets: 150, maxOpened: 1_500 },
        running,
      ),
    ]);

    await sleep(LOAD_SETTLE_MS);

    // The service's own event loop delay during B's run, second by second (each scrape of /metrics starts its
    // measurement again), its heap, and the CPU it used: where B waits when it does.
    await serviceGauges(base);
    const cpuAtB = cpuMs(pid);
    const serviceLoop = { maxMsBySecond: [] as number[], heapUsedMb: 0, externalMb: 0 };
    let sampling = true;
    const sampled = (async () => {
      while (sampling) {
        await sleep(1_000);
        const gauges = await serviceGauges(base);
        serviceLoop.maxMsBySecond.push(round((gauges.nodejs_eventloop_lag_max_seconds ?? NaN) * 1000));
        serviceLoop.externalMb = Math.max(
          serviceLoop.externalMb,
          round((gauges.nodejs_external_memory_bytes ?? 0) / 2 ** 20),
        );
        serviceLoop.heapUsedMb = Math.max(
          serviceLoop.heapUsedMb,
          round((gauges.nodejs_heap_size_used_bytes ?? 0) / 2 ** 20),
        );
      }
    })();
    cleanups.push(() => (sampling = false));

    // B: a steady open loop, alternating its cached and uncached endpoint, timed on a thread of its own.
    const answersB = await probeB(
      {
        base,
        key: b.key,
        cachedPath: b.cached,
        uncachedPath: b.uncached,
        count: (B_DURATION_MS / 1000) * B_RATE_PER_SECOND,
        ratePerSecond: B_RATE_PER_SECOND,
        timeoutMs: B_TIMEOUT_MS,
      },
      cleanups,
    );

    sampling = false;
    await sampled;
    const cpuDuringB = cpuMs(pid) - cpuAtB;

    // A's load stops: what is still in flight is cut off.
    await sleep(Math.max(0, loadEnds - Date.now()));
    agentA.destroy();
    await loadA;
    loopDelay.disable();
    clearInterval(rssTimer);
    peakRssMb = Math.max(peakRssMb, residentMb(pid) || 0);

    const alive = service.child.exitCode === null && service.child.signalCode === null;
    const healthStatus = alive
      ? await fetch(`${base}/health`, { signal: AbortSignal.timeout(5_000) }).then(
          (response) => response.status,
          () => 0,
        )
      : 0;
    for (const cleanup of cleanups.splice(0)) cleanup();

    const latencies = sortedMs(answersB);
    const failuresB: Record<string, number> = {};
    for (const answer of answersB)
      if (answer.status !== 200) {
        const name = `${answer.cached ? 'cached' : 'uncached'} ${answer.status}`;
        failuresB[name] = (failuresB[name] ?? 0) + 1;
      }
    const cacheHeaders: Record<string, number> = {};
    for (const answer of answersB.filter((each) => each.cached && each.status === 200)) {
      const value = String(answer.xCache);
      cacheHeaders[value] = (cacheHeaders[value] ?? 0) + 1;
    }
    const summary = {
      alive,
      healthStatus,
      peakRssMb: round(peakRssMb),
      b: {
        requests: answersB.length,
        failures: failuresB,
        p50Ms: round(percentile(latencies, 0.5)),
        p99Ms: round(percentile(latencies, 0.99)),
        maxMs: round(latencies[latencies.length - 1]),
        p99CachedMs: round(percentile(sortedMs(answersB.filter((answer) => answer.cached)), 0.99)),
        p99UncachedMs: round(percentile(sortedMs(answersB.filter((answer) => !answer.cached)), 0.99)),
        maxMsBySecond: maxBySecond(answersB),
        cachedAnswers: cacheHeaders,
      },
      a: tallies,
      // The service's event loop delay while B ran (the slowest of each second), its largest heap in use and
      // memory outside the heap (buffers), and the share of a core it used (all its threads).
      service: {
        loopDelayMaxMsBySecond: serviceLoop.maxMsBySecond,
        heapUsedMb: serviceLoop.heapUsedMb,
        externalMb: serviceLoop.externalMb,
        cpuCoresDuringB: Math.round((cpuDuringB / B_DURATION_MS) * 100) / 100,
      },
      // How late this test's own event loop ran (it also serves the fake provider and drives A's load).
      testLoopDelayMs: { p99: round(loopDelay.percentile(99) / 1e6), max: round(loopDelay.max / 1e6) },
      serviceErrors: service.output.filter((line) => /"level":"(error|fatal)"|heap|FATAL/i.test(line)).slice(0, 5),
    };
    process.stdout.write(
      `noisy neighbour: ${JSON.stringify(summary)}\nB's p99 target (${B_P99_TARGET_MS} ms): ${summary.b.p99Ms < B_P99_TARGET_MS ? 'met' : 'missed'}\n`,
    );

    const problems: string[] = [];
    if (!alive) problems.push(`the service exited (${service.child.exitCode ?? service.child.signalCode})`);
    if (healthStatus !== 200) problems.push(`GET /health answered ${healthStatus} at the end`);
    if (Object.keys(failuresB).length > 0) problems.push(`B saw failures ${JSON.stringify(failuresB)}`);
    if (!(summary.b.p99Ms < B_P99_BOUND_MS)) problems.push(`B's p99 was ${summary.b.p99Ms} ms`);
    if (!(summary.peakRssMb < RSS_BOUND_MB)) problems.push(`the service held ${summary.peakRssMb} MB resident`);
    // The load really ran: every one of A's loads was sent, and B ran at its rate.
    for (const [name, tally] of Object.entries(tallies))
      if (tally.sent < 3) problems.push(`A's ${name} load sent only ${tally.sent} requests`);
    if (answersB.length < (B_DURATION_MS / 1000) * B_RATE_PER_SECOND * 0.8)
      problems.push(`B sent only ${answersB.length} requests`);
    expect({ problems, summary }).toEqual({ problems: [], summary });
  });
});
