'use strict';
/**
 * Streaming load for `npm run bench`: `connections` clients each POST a streamed request, read it to its end and start
 * the next, for `seconds`. For each stream it records the time to the first piece of the answer's text (the first
 * `delta` event through the service, the first content chunk directly from the provider) and the time to its end, and
 * counts completed streams. `openStreams` holds many streams open at once to measure the service's memory.
 */
const http = require('node:http');

function pick(sorted, q) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

/** One streamed POST: resolves with the times (ms) to the first `marker` in the body and to the end. */
function streamOnce(agent, target, onFirst = () => undefined) {
  return new Promise((resolve) => {
    const started = performance.now();
    let firstMs = NaN;
    let seen = '';
    const request = http.request(
      target.url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', ...target.headers } },
      (response) => {
        response.setEncoding('utf8');
        response.on('data', (text) => {
          if (Number.isNaN(firstMs)) {
            // The marker may be cut between two reads: keep a short tail of what came before.
            seen = (seen + text).slice(-4096);
            if (seen.includes(target.marker)) {
              firstMs = performance.now() - started;
              onFirst();
            }
          }
        });
        response.on('end', () => {
          const ok = response.statusCode === 200 && !Number.isNaN(firstMs);
          // What a failed stream got: its status and the start of its body (an `error` event, a JSON error).
          const reason = ok ? undefined : `${response.statusCode} ${seen.slice(0, 160).replace(/\s+/g, ' ')}`;
          resolve({ ok, firstMs, doneMs: performance.now() - started, reason });
        });
        response.on('error', (error) => resolve({ ok: false, reason: error.code ?? error.message }));
      },
    );
    request.on('error', (error) => resolve({ ok: false, reason: error.code ?? error.message }));
    request.end(target.body);
  });
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS =
  Number(require('node:child_process').spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * CPU seconds (user + system) a process has used so far, from /proc (NaN elsewhere, or once it is gone); with
 * `reaped`, the time of its children that have ended and been waited for too (cutime and cstime).
 */
function cpuSecondsOf(pid, { reaped = false } = {}) {
  try {
    // The fields after the command name (in parentheses, may hold spaces): utime and stime are the 12th and 13th,
    // cutime and cstime the 14th and 15th.
    const fields = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (reaped ? own + Number(fields[13]) + Number(fields[14]) : own) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/**
 * `connections` loops of streamed requests for `seconds`: throughput, time to first piece and to the end, and (with
 * `pid`) the CPU that process spent per completed stream.
 */
async function streamLoad(target, connections, seconds, pid) {
  const cpuBefore = pid ? cpuSecondsOf(pid) : NaN;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const first = [];
  const done = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const result = await streamOnce(agent, target);
        if (!result.ok) {
          failures++;
          continue;
        }
        first.push(result.firstMs);
        done.push(result.doneMs);
      }
    }),
  );
  agent.destroy();
  const cpuMsPerStream = ((cpuSecondsOf(pid) - cpuBefore) * 1000) / done.length;
  first.sort((a, b) => a - b);
  done.sort((a, b) => a - b);
  return {
    rps: done.length / seconds,
    p50: pick(first, 0.5),
    p99: pick(first, 0.99),
    doneP50: pick(done, 0.5),
    doneP99: pick(done, 0.99),
    cpuMsPerStream,
    failures,
  };
}

/**
 * Opens `count` streams at once, spread over `targets` in turn (one per tenant), and lets them run to their end: the service's RSS (MB, read by `readRssMb`) before,
 * and its peak while they run, with the most streams that were open (first piece received, end not yet) at one time.
 */
async function openStreams(targets, count, readRssMb) {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const before = readRssMb();
  let open = 0;
  let mostOpen = 0;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, readRssMb())), 100);
  const results = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      streamOnce(agent, targets[index % targets.length], () => (mostOpen = Math.max(mostOpen, ++open))).then(
        (result) => {
          if (!Number.isNaN(result.firstMs)) open--;
          return result;
        },
      ),
    ),
  );
  clearInterval(timer);
  peak = Math.max(peak, readRssMb());
  agent.destroy();
  const reasons = {};
  for (const result of results) if (!result.ok) reasons[result.reason] = (reasons[result.reason] ?? 0) + 1;
  return {
    beforeMb: Math.round(before),
    peakMb: Math.round(peak),
    mostOpen,
    failed: results.filter((result) => !result.ok).length,
    reasons,
  };
}

/**
 * CPU seconds the machine's PostgreSQL server has used: every process named `postgres` (the server, its background
 * processes and the sessions, the service's pooled ones among them), with what the server's exited processes used (a
 * process's time passes to its parent's children's time when the parent reaps it, so a session or an autovacuum
 * worker that ends meanwhile is still counted).
 */
function databaseCpuSeconds() {
  const isPostgres = (pid) => {
    try {
      return require('node:fs').readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false; // gone meanwhile
    }
  };
  let total = 0;
  for (const entry of require('node:fs').readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || !isPostgres(entry)) continue;
    const seconds = cpuSecondsOf(Number(entry), { reaped: true });
    if (!Number.isNaN(seconds)) total += seconds;
  }
  return total;
}

module.exports = { cpuSecondsOf, databaseCpuSeconds, streamLoad, openStreams };
