'use strict';
/**
 * The metrics' own work on one execution request, measured in isolation (`node bench/metrics-hot-path.js` after a
 * build; also run by `npm run bench -- --telemetry`): what the request hook, the answer's count, the cache lookup, the
 * overhead histogram and the execution's count cost, against the same request objects without them. On a shared
 * machine this is steadier than a throughput comparison, whose noise is larger than the effect.
 */
const path = require('node:path');
const { EventEmitter } = require('node:events');

const DIST = path.join(__dirname, '..', 'dist', 'src');
const { Metrics } = require(path.join(DIST, 'common/metrics/metrics.js'));
const { RequestMetrics, noteProviderTime } = require(path.join(DIST, 'common/metrics/request-metrics.js'));

const N = 500_000;
const ROUNDS = 7;

class FakeResponse extends EventEmitter {
  constructor() {
    super();
    this.statusCode = 200;
  }
  getHeader(name) {
    return name === 'x-cache' ? 'HIT' : undefined;
  }
}

function withoutMetrics() {
  for (let i = 0; i < N; i++) {
    const request = { url: '/api/v1/bench-hit', headers: {} };
    const response = new FakeResponse();
    response.emit('finish');
    void request;
  }
}

function withMetrics(metrics, hook) {
  for (let i = 0; i < N; i++) {
    const request = { url: '/api/v1/bench-hit', headers: {} };
    const response = new FakeResponse();
    hook.use(request, response);
    noteProviderTime(request, []);
    metrics.executionFinished('success', true);
    response.emit('finish');
  }
}

function time(work) {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / N;
}

const metrics = new Metrics({ metricsEnabled: true });
const hook = new RequestMetrics(metrics);
const base = [];
const measured = [];
for (let round = 0; round < ROUNDS; round++) {
  base.push(time(withoutMetrics));
  measured.push(time(() => withMetrics(metrics, hook)));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cost = median(measured) - median(base);
process.stdout.write(
  `metrics work per execution request: ${cost.toFixed(0)} ns ` +
    `(${median(measured).toFixed(0)} ns with, ${median(base).toFixed(0)} ns without; median of ${ROUNDS} × ${N})\n`,
);
module.exports = { costNs: cost };
