import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth, type SeededTenant, seedTenant } from '../support/seed';
import { createTestApp, type TestApp } from '../support/test-app';

/** One series of the exposition: its metric name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, as far as prom-client writes it (no timestamps, escaped label values). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`Not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]] = pair[2].replace(/\\(.)/g, (_, escaped: string) => (escaped === 'n' ? '\n' : escaped));
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the series `name` whose labels include `labels` (summed over the others), 0 when absent. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name)
    .filter((sample) => Object.entries(labels).every(([label, value]) => sample.labels[label] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** The service's own series (process metrics excluded: the GC kinds and handle types they count vary by themselves). */
const ownSeries = (samples: Sample[]) =>
  samples.filter((sample) => /^(promptgate_|gen_ai_)/.test(sample.name)).map((s) => JSON.stringify(s.labels) + s.name);

describe('GET /metrics', () => {
  const { t, tenant, fake } = useTestApp({ env: { ADMIN_RATE_LIMIT_PER_MINUTE: '100000' }, fake: {} });

  async function scrape(): Promise<Sample[]> {
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseExposition(res.text);
  }

  const execute = (path: string, key: string, body: object, headers: Record<string, string> = {}) =>
    t.http
      .post(path)
      .set({ ...auth(key), ...headers })
      .send(body);

  it('counts known traffic: requests by surface and status, executions, cache lookups, limits, provider calls', async () => {
    const before = await scrape();
    const cached = await createEndpoint(t, tenant.admin, {
      cacheEnabled: true,
      cacheDurationSeconds: 60,
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    await createPrompt(t, tenant.admin, cached.id, { template: 'Echo {{ inputs.text }}', llmModel: 'llama-test' });
    const plain = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
    await createPrompt(t, tenant.admin, plain.id, { template: 'Plain {{ inputs.text }}', llmModel: 'llama-test' });
    const limitedKey = await t.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({ name: 'limited', type: 'endpoint', rateLimitPerMinute: 1 });
    expect(limitedKey.status).toBe(201);
    const afterSetup = await scrape();

    fake.reply(
      { text: 'first', inputTokens: 100, outputTokens: 20 },
      { text: 'bypassed', inputTokens: 100, outputTokens: 20 },
      { status: 500, message: 'provider down' },
      { text: 'limited', inputTokens: 5, outputTokens: 3 },
    );
    expect((await execute(cached.path, tenant.endpointKey, { text: 'hi' })).headers['x-cache']).toBe('MISS');
    expect((await execute(cached.path, tenant.endpointKey, { text: 'hi' })).headers['x-cache']).toBe('HIT');
    const bypass = await execute(cached.path, tenant.endpointKey, { text: 'hi' }, { 'x-cache-bypass': 'true' });
    expect([bypass.status, bypass.headers['x-cache']]).toEqual([200, 'BYPASS']);
    const failed = await execute(plain.path, tenant.endpointKey, { text: 'boom' });
    expect([failed.status, failed.headers['x-cache']]).toEqual([502, 'BYPASS']);
    expect((await execute(plain.path, limitedKey.body.data.key, { text: 'one' })).status).toBe(200);
    expect((await execute(plain.path, limitedKey.body.data.key, { text: 'two' })).status).toBe(429);
    expect((await execute(plain.path, 'ep_live_' + 'x'.repeat(40), {})).status).toBe(401);
    expect((await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin))).status).toBe(200);
    expect((await t.http.get('/admin/v1/endpoints').set(auth('ep_live_nope'))).status).toBe(401);
    await t.app.get(ExecutionLogsService).flush();

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(afterSetup, name, labels);

    expect(delta('promptgate_http_requests_total', { surface: 'execution', status: '200' })).toBe(4);
    expect(delta('promptgate_http_requests_total', { surface: 'execution', status: '502' })).toBe(1);
    expect(delta('promptgate_http_requests_total', { surface: 'execution', status: '429' })).toBe(1);
    expect(delta('promptgate_http_requests_total', { surface: 'execution', status: '401' })).toBe(1);
    expect(delta('promptgate_http_requests_total', { surface: 'execution' })).toBe(7);
    expect(delta('promptgate_http_requests_total', { surface: 'admin', status: '200' })).toBe(1);
    expect(delta('promptgate_http_requests_total', { surface: 'admin', status: '401' })).toBe(1);
    // The setup's admin requests were counted too, and the scrapes themselves are not (an open route).
    expect(valueOf(afterSetup, 'promptgate_http_requests_total', { surface: 'admin', status: '201' })).toBeGreaterThan(
      valueOf(before, 'promptgate_http_requests_total', { surface: 'admin', status: '201' }),
    );
    expect(after.some((s) => s.name === 'promptgate_http_requests_total' && s.labels.surface === undefined)).toBe(
      false,
    );

    expect(delta('promptgate_executions_total', { outcome: 'success', cached: 'false' })).toBe(3);
    expect(delta('promptgate_executions_total', { outcome: 'success', cached: 'true' })).toBe(1);
    expect(delta('promptgate_executions_total', { outcome: 'upstream_error', cached: 'false' })).toBe(1);
    expect(delta('promptgate_executions_total')).toBe(5);

    expect(delta('promptgate_cache_lookups_total', { result: 'hit' })).toBe(1);
    expect(delta('promptgate_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(delta('promptgate_cache_lookups_total', { result: 'bypass' })).toBe(3);

    expect(delta('promptgate_rate_limited_total', { surface: 'execution' })).toBe(1);
    expect(delta('promptgate_rate_limited_total', { surface: 'admin' })).toBe(0);

    // Every execution request's overhead is observed, refusals included; none is longer than the request.
    expect(delta('promptgate_overhead_seconds_count')).toBe(7);
    expect(delta('promptgate_overhead_seconds_sum')).toBeGreaterThan(0);

    const model = { gen_ai_provider_name: 'local', gen_ai_request_model: 'llama-test', gen_ai_operation_name: 'chat' };
    expect(delta('gen_ai_client_operation_duration_seconds_count', model)).toBe(4);
    expect(delta('gen_ai_client_operation_duration_seconds_count', { ...model, error_type: 'upstream_error' })).toBe(1);
    expect(delta('gen_ai_client_token_usage_sum', { ...model, gen_ai_token_type: 'input' })).toBe(205);
    expect(delta('gen_ai_client_token_usage_sum', { ...model, gen_ai_token_type: 'output' })).toBe(43);
    expect(delta('gen_ai_client_token_usage_count', { ...model, gen_ai_token_type: 'input' })).toBe(3);
    // The OpenTelemetry GenAI bucket boundaries.
    const durationBuckets = after
      .filter((s) => s.name === 'gen_ai_client_operation_duration_seconds_bucket' && s.labels.error_type === undefined)
      .filter((s) => s.labels.gen_ai_request_model === 'llama-test')
      .map((s) => s.labels.le);
    expect(durationBuckets).toEqual([
      ...['0.01', '0.02', '0.04', '0.08', '0.16', '0.32', '0.64', '1.28', '2.56', '5.12', '10.24', '20.48'],
      ...['40.96', '81.92', '+Inf'],
    ]);
    const tokenBuckets = after
      .filter((s) => s.name === 'gen_ai_client_token_usage_bucket' && s.labels.gen_ai_token_type === 'input')
      .filter((s) => s.labels.gen_ai_request_model === 'llama-test')
      .map((s) => Number(s.labels.le));
    expect(tokenBuckets.slice(0, 6)).toEqual([1, 4, 16, 64, 256, 1024]);
    expect(tokenBuckets).toHaveLength(15);

    // The log queue, and Node's process metrics.
    expect(after.some((s) => s.name === 'promptgate_log_queue_depth')).toBe(true);
    expect(valueOf(after, 'promptgate_logs_dropped_total')).toBe(0);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(after.some((s) => s.name === name)).toBe(true);
    }

    // No label carries a key, a tenant, a request or a path.
    const forbidden = [tenant.id, tenant.slug, tenant.endpointKey, tenant.admin, cached.id, cached.path, plain.path];
    forbidden.push(bypass.headers['x-request-id'], failed.headers['x-request-id'], limitedKey.body.data.id);
    const values = after.flatMap((s) => Object.values(s.labels));
    for (const value of forbidden) expect(values).not.toContain(value);
    expect(values.filter((value) => value.includes('/'))).toEqual([]);
  });

  it('counts MCP requests under their own surface', async () => {
    const before = await scrape();
    const res = await t.http
      .post('/mcp')
      .set({ ...auth(tenant.admin), accept: 'application/json, text/event-stream' })
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(200);
    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      valueOf(after, 'promptgate_http_requests_total', labels) -
      valueOf(before, 'promptgate_http_requests_total', labels);
    expect(delta({ surface: 'mcp', status: '200' })).toBe(1);
    expect(delta({ surface: 'admin' })).toBe(0);
  });

  it('keeps the same series over 1,000 requests to 100 endpoints with many keys and request ids', async () => {
    const paths: string[] = [];
    for (let i = 0; i < 100; i++) {
      const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'n', dataType: 'number' }] });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'n={{ inputs.n }}', llmModel: 'mock-echo' });
      paths.push(endpoint.path);
    }
    const other = await seedTenant(t.app);
    const generous = await t.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({ name: 'busy', type: 'endpoint', rateLimitPerMinute: 5000, rateLimitPerHour: 50000 });
    expect(generous.status).toBe(201);
    const keys = [generous.body.data.key as string, other.endpointKey];
    const run = async (from: number, to: number) => {
      for (let i = from; i < to; i += 20) {
        const batch = [];
        for (let j = i; j < Math.min(i + 20, to); j++) {
          const key = keys[j % 2];
          const res = await execute(paths[j % 100], key, { n: j }, { 'x-request-id': `metrics-series-${j}` });
          batch.push(res.status);
        }
        // The other tenant's key does not find these endpoints; both answers are bounded series.
        expect([...new Set(batch)].sort()).toEqual([200, 404]);
      }
    };
    await run(0, 20);
    await t.app.get(ExecutionLogsService).flush();
    const warm = ownSeries(await scrape());
    await run(20, 1000);
    await t.app.get(ExecutionLogsService).flush();
    const after = await scrape();
    expect(ownSeries(after).sort()).toEqual(warm.sort());
    const values = after.flatMap((s) => Object.values(s.labels));
    for (const path of paths) expect(values).not.toContain(path);
    expect(values).not.toContain('metrics-series-999');
    expect(values).not.toContain(other.id);
  }, 240_000);
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  const token = 'scrape-token-' + 'a1'.repeat(10);

  beforeAll(async () => {
    t = await createTestApp({}, { METRICS_TOKEN: token });
  });
  afterAll(() => t.close());

  it('answers 401 without the bearer token or with another, 200 with it', async () => {
    const none = await t.http.get('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.body.error).toBe('unauthorized');
    expect(none.text).not.toContain('promptgate_');
    expect((await t.http.get('/metrics').set('authorization', `Bearer ${token}x`)).status).toBe(401);
    expect((await t.http.get('/metrics').set('authorization', token)).status).toBe(401);
    const ok = await t.http.get('/metrics').set('authorization', `Bearer ${token}`);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('# TYPE promptgate_http_requests_total counter');
  });
});

describe('rate-limited refusals of the admin API and MCP', () => {
  let t: TestApp;
  let tenant: SeededTenant;

  beforeAll(async () => {
    t = await createTestApp({}, { ADMIN_RATE_LIMIT_PER_MINUTE: '2' });
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  it('counts them under their surface', async () => {
    const listTools = () =>
      t.http
        .post('/mcp')
        .set({ ...auth(tenant.admin), accept: 'application/json, text/event-stream' })
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect((await listTools()).status).toBe(200);
    expect((await listTools()).status).toBe(200);
    expect((await listTools()).status).toBe(429);
    expect((await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin))).status).toBe(429);
    const samples = parseExposition((await t.http.get('/metrics')).text);
    expect(valueOf(samples, 'promptgate_rate_limited_total', { surface: 'mcp' })).toBe(1);
    expect(valueOf(samples, 'promptgate_rate_limited_total', { surface: 'admin' })).toBe(1);
    expect(valueOf(samples, 'promptgate_rate_limited_total', { surface: 'execution' })).toBe(0);
    expect(valueOf(samples, 'promptgate_http_requests_total', { surface: 'mcp', status: '429' })).toBe(1);
    expect(valueOf(samples, 'promptgate_http_requests_total', { surface: 'admin', status: '429' })).toBe(1);
  });
});

describe('METRICS_ENABLED=false', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { METRICS_ENABLED: 'false' });
  });
  afterAll(() => t.close());

  it('has no /metrics', async () => {
    expect((await t.http.get('/metrics')).status).toBe(404);
  });
});
