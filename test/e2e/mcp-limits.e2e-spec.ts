import { KeysService } from '../../src/modules/keys/keys.service';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant, type SeededTenant } from '../support/seed';
import { createTestApp, type TestApp } from '../support/test-app';

// MCP tool calls count like REST requests: each call is one admin request of the key (a batch of N counts N), and
// run_endpoint is also an execution on the key's and the endpoint's windows. Counters are shared with REST.

interface RpcResponse {
  id: number;
  result?: { isError?: boolean; content: { type: string; text: string }[] };
  error?: { code: number; message: string };
}

const REFUSED = /^rate_limit_exceeded: Rate limit exceeded: retry in \d+ seconds?$/;

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

const batchOf = (count: number, name: string, args: Record<string, unknown>) =>
  Array.from({ length: count }, (_, i) => toolCall(i + 1, name, args));

/** The responses of a batch in request order; a single response as a one-element list. */
function responsesOf(body: unknown): RpcResponse[] {
  const list = (Array.isArray(body) ? body : [body]) as RpcResponse[];
  return [...list].sort((a, b) => a.id - b.id);
}

const textOf = (response: RpcResponse) => response.result!.content[0].text;
const succeeded = (responses: RpcResponse[]) => responses.filter((r) => r.result && !r.result.isError);
const refused = (responses: RpcResponse[]) => responses.filter((r) => r.result?.isError && REFUSED.test(textOf(r)));

describe('MCP tool calls and rate limits', () => {
  const { t, tenant } = useTestApp({ config: { renderTimeoutMs: 10_000 } });

  const mcp = (key: string, body: unknown) =>
    t.http
      .post('/mcp')
      .set({ accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` })
      .send(body as object);
  /** `count` run_endpoint calls of `endpointId` with `text` in one batch by `key`; their responses in order. */
  const runBatch = async (key: string, endpointId: string, count: number, text: string) =>
    responsesOf((await mcp(key, batchOf(count, 'run_endpoint', { endpointId, inputs: { text } }))).body);

  async function echoEndpoint(settings: Record<string, unknown> = {}) {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      ...settings,
    });
    await createPrompt(t, tenant.admin, endpoint.id, { template: 'Echo: {{ inputs.text }}' });
    return endpoint;
  }

  async function logCount(endpointId: string): Promise<number> {
    await t.app.get(ExecutionLogsService).flush();
    const res = await t.http.get('/admin/v1/logs').query({ endpointId, pageSize: 50 }).set(auth(tenant.admin));
    expect(res.status).toBe(200);
    return res.body.data.items.length;
  }

  beforeAll(async () => {
    // A render budget no loaded test machine reaches: these tests count calls, they do not time renders.
  });

  it('counts each run_endpoint of a batch against the endpoint limit: 2 of 10 run, 8 are refused and not logged', async () => {
    const endpoint = await echoEndpoint({ rateLimitPerMinute: 2 });
    const res = await mcp(
      tenant.admin,
      batchOf(10, 'run_endpoint', { endpointId: endpoint.id, inputs: { text: 'hi' } }),
    );
    expect(res.status).toBe(200);
    const responses = responsesOf(res.body);
    expect(responses).toHaveLength(10);
    expect(succeeded(responses).map(textOf)).toEqual(['{"output":"Echo: hi"}', '{"output":"Echo: hi"}']);
    expect(refused(responses)).toHaveLength(8);
    expect(await logCount(endpoint.id)).toBe(2);
  });

  it("applies the key's own execution limit to run_endpoint", async () => {
    const endpoint = await echoEndpoint();
    const created = await t.http
      .post('/admin/v1/keys')
      .set(auth(tenant.admin))
      .send({ name: 'limited admin', type: 'admin', permission: 'ReadWrite', rateLimitPerMinute: 2 });
    expect(created.status).toBe(201);
    const responses = await runBatch(created.body.data.key, endpoint.id, 4, 'k');
    expect(succeeded(responses)).toHaveLength(2);
    expect(refused(responses)).toHaveLength(2);
    // Its other tool calls are admin requests, not executions: they still run.
    const listed = responsesOf((await mcp(created.body.data.key, toolCall(1, 'list_endpoints', {}))).body);
    expect(succeeded(listed)).toHaveLength(1);
    expect(await logCount(endpoint.id)).toBe(2);
  });

  it('asks a refused run_endpoint to wait for every full window: minute and hour both full, about an hour', async () => {
    const endpoint = await echoEndpoint();
    const created = await t.http.post('/admin/v1/keys').set(auth(tenant.admin)).send({
      name: 'hourly admin',
      type: 'admin',
      permission: 'ReadWrite',
      rateLimitPerMinute: 2,
      rateLimitPerHour: 2,
    });
    expect(created.status).toBe(201);
    const responses = await runBatch(created.body.data.key, endpoint.id, 3, 'h');
    expect(succeeded(responses)).toHaveLength(2);
    expect(refused(responses)).toHaveLength(1);
    const seconds = Number(/retry in (\d+) seconds/.exec(textOf(refused(responses)[0]))![1]);
    expect(seconds).toBeGreaterThan(3_500);
    expect(seconds).toBeLessThanOrEqual(3_600);
  });

  it('shares the execution counters with REST, both ways', async () => {
    const endpoint = await echoEndpoint({ rateLimitPerMinute: 3 });
    const key = (
      await t.app.get(KeysService).create(tenant.id, { name: 'both', type: 'admin', permission: 'ReadWrite' })
    ).key;
    const rest = await t.http.post(endpoint.path).set(auth(key)).send({ text: 'rest' });
    expect(rest.status).toBe(200);
    expect(rest.headers['x-ratelimit-remaining']).toBe('2');
    const responses = responsesOf(
      (await mcp(key, batchOf(3, 'run_endpoint', { endpointId: endpoint.id, inputs: { text: 'mcp' } }))).body,
    );
    expect(succeeded(responses)).toHaveLength(2);
    expect(refused(responses)).toHaveLength(1);
    const after = await t.http.post(endpoint.path).set(auth(key)).send({ text: 'rest' });
    expect(after.status).toBe(429);
    expect(await logCount(endpoint.id)).toBe(3);
  });

  it('answers a call refused for an unknown endpoint as before (not found), without running anything', async () => {
    const res = await mcp(
      tenant.admin,
      toolCall(1, 'run_endpoint', { endpointId: '00000000-0000-4000-8000-000000000000', inputs: {} }),
    );
    const [response] = responsesOf(res.body);
    expect(response.result?.isError).toBe(true);
    expect(textOf(response)).toMatch(/^not_found:/);
  });
});

describe('MCP tool calls and the admin rate limit', () => {
  let t: TestApp;
  let tenant: SeededTenant;

  const mcp = (key: string, body: unknown) =>
    t.http
      .post('/mcp')
      .set({ accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` })
      .send(body as object);
  const freshKey = async (permission: 'ReadWrite' | 'ReadOnly' = 'ReadWrite') =>
    (await t.app.get(KeysService).create(tenant.id, { name: 'mcp', type: 'admin', permission })).key;
  const toolsList = { jsonrpc: '2.0', id: 99, method: 'tools/list', params: {} };

  beforeAll(async () => {
    t = await createTestApp({ adminRateLimitPerMinute: 3 });
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  it('counts each call of a batch as one admin request: of 5 calls with a limit of 3, 3 run and 2 are refused', async () => {
    const key = await freshKey();
    const res = await mcp(key, batchOf(5, 'list_endpoints', {}));
    expect(res.status).toBe(200);
    const responses = responsesOf(res.body);
    expect(succeeded(responses)).toHaveLength(3);
    expect(refused(responses)).toHaveLength(2);
    expect(res.headers['x-ratelimit-limit']).toBe('3');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');

    // The window is full: a request without tool calls is refused with 429 before it is handled.
    const listed = await mcp(key, toolsList);
    expect(listed.status).toBe(429);
    expect(listed.body.error.message).toMatch(/^rate_limit_exceeded: Rate limit exceeded/);
    expect(Number(listed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(listed.headers['x-ratelimit-limit']).toBe('3');
    expect(listed.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('counts a request without tool calls as one admin request, and a request of N calls as N, not N + 1', async () => {
    const key = await freshKey('ReadOnly');
    const listed = await mcp(key, toolsList);
    expect(listed.status).toBe(200);
    expect(listed.headers['x-ratelimit-remaining']).toBe('2');
    const responses = responsesOf((await mcp(key, batchOf(2, 'list_endpoints', {}))).body);
    expect(succeeded(responses)).toHaveLength(2);
    expect(responsesOf((await mcp(key, toolCall(1, 'list_endpoints', {}))).body).map(textOf)).toEqual([
      expect.stringMatching(REFUSED),
    ]);
  });

  it("counts a ReadOnly key's refused writes, as the admin API does", async () => {
    const key = await freshKey('ReadOnly');
    const write = responsesOf(
      (await mcp(key, toolCall(1, 'create_endpoint', { name: 'x', path: '/api/v1/ro-x' }))).body,
    );
    expect(textOf(write[0])).toMatch(/^forbidden:/);
    const responses = responsesOf((await mcp(key, batchOf(3, 'list_endpoints', {}))).body);
    expect(succeeded(responses)).toHaveLength(2);
    expect(refused(responses)).toHaveLength(1);
  });

  it('counts calls the SDK refuses before they reach a tool (unknown tool, invalid arguments)', async () => {
    const key = await freshKey();
    const res = await mcp(key, [
      toolCall(1, 'no_such_tool', {}),
      toolCall(2, 'get_endpoint', { id: 42 }),
      toolCall(3, 'no_such_tool', {}),
    ]);
    expect(res.status).toBe(200);
    expect(responsesOf(res.body).every((r) => r.result?.isError || r.error)).toBe(true);
    expect((await mcp(key, toolsList)).status).toBe(429);
  });

  it('shares the admin counter with the admin REST API', async () => {
    const key = await freshKey();
    expect((await t.http.get('/admin/v1/endpoints').set(auth(key))).status).toBe(200);
    const responses = responsesOf((await mcp(key, batchOf(3, 'list_endpoints', {}))).body);
    expect(succeeded(responses)).toHaveLength(2);
    expect(refused(responses)).toHaveLength(1);
    const rest = await t.http.get('/admin/v1/endpoints').set(auth(key));
    expect(rest.status).toBe(429);
  });

  it('counts run_endpoint as an admin request too', async () => {
    const key = await freshKey();
    const responses = responsesOf(
      (await mcp(key, batchOf(4, 'run_endpoint', { endpointId: '00000000-0000-4000-8000-000000000000', inputs: {} })))
        .body,
    );
    expect(responses.slice(0, 3).map(textOf)).toEqual([
      expect.stringMatching(/^not_found:/),
      expect.stringMatching(/^not_found:/),
      expect.stringMatching(/^not_found:/),
    ]);
    expect((await mcp(key, toolsList)).status).toBe(429);
  });
});

describe('MCP batches: every message counts, and a batch must be a valid one', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  const LIMIT = 150;

  const mcp = (key: string, body: unknown) =>
    t.http
      .post('/mcp')
      .set({ accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` })
      .send(body as object);
  const freshKey = async () =>
    (await t.app.get(KeysService).create(tenant.id, { name: 'batch', type: 'admin', permission: 'ReadWrite' })).key;
  const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id,
    method,
    params,
  });
  const toolsList = request(1, 'tools/list');
  /** What the key has left in its admin window, read with one more request (which counts too). */
  const remainingAfter = async (key: string) => Number((await mcp(key, toolsList)).headers['x-ratelimit-remaining']);

  /** Runs `work` and answers every line written to the service log meanwhile. */
  async function logDuring(work: () => Promise<void>): Promise<string[]> {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    };
    try {
      await work();
    } finally {
      process.stdout.write = write;
    }
    return lines;
  }

  beforeAll(async () => {
    t = await createTestApp({ adminRateLimitPerMinute: LIMIT });
    tenant = await seedTenant(t.app);
  });
  afterAll(() => t.close());

  it('counts a batch of 1 tools/call and 99 resources/read as 100 admin requests', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {});
    const uri = `promptgate://endpoints/${endpoint.id}`;
    const key = await freshKey();
    const batch = [
      toolCall(1, 'list_endpoints', {}),
      ...Array.from({ length: 99 }, (_, i) => request(i + 2, 'resources/read', { uri })),
    ];
    const res = await mcp(key, batch);
    expect(res.status).toBe(200);
    const responses = responsesOf(res.body);
    expect(responses).toHaveLength(100);
    expect(JSON.parse(textOf(responses[0])).items).toHaveLength(1);
    const reads = responses.slice(1).map((r) => (r.result as unknown as { contents: { uri: string }[] }).contents);
    expect(reads.every((contents) => contents.length === 1 && contents[0].uri === uri)).toBe(true);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBe(LIMIT - 100);
    expect(await remainingAfter(key)).toBe(LIMIT - 101);
  });

  it('counts notifications and every other method too: a batch of 3 messages counts 3', async () => {
    const key = await freshKey();
    const res = await mcp(key, [
      request(1, 'tools/list'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      request(2, 'resources/templates/list'),
    ]);
    expect(res.status).toBe(200);
    expect(responsesOf(res.body)).toHaveLength(2);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBe(LIMIT - 3);
  });

  it('refuses a batch whose messages do not all fit the window with 429, running none of them', async () => {
    const key = await freshKey();
    const spent = await mcp(key, batchOf(100, 'list_endpoints', {}));
    expect(succeeded(responsesOf(spent.body))).toHaveLength(100);
    // 50 left: a batch of one create_endpoint and 60 reads does not fit.
    const batch = [
      toolCall(1, 'create_endpoint', { name: 'never', path: '/api/v1/batch-never' }),
      ...Array.from({ length: 60 }, (_, i) => request(i + 2, 'tools/list')),
    ];
    const refused = await mcp(key, batch);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^rate_limit_exceeded: Rate limit exceeded/);
    const listed = await t.http.get('/admin/v1/endpoints').query({ search: 'never' }).set(auth(tenant.admin));
    expect(listed.body.data).toEqual([]);
  });

  it('answers a batch of 100 tools/call all with id 1 with -32600 Invalid Request, runs none, logs nothing', async () => {
    const key = await freshKey();
    const batch = Array.from({ length: 100 }, (_, i) =>
      toolCall(1, 'create_endpoint', { name: `dup ${i}`, path: `/api/v1/batch-dup-${i}` }),
    );
    let res: Awaited<ReturnType<typeof mcp>> | undefined;
    const logged = await logDuring(async () => {
      res = await mcp(key, batch);
    });
    expect(res!.status).toBe(400);
    expect(res!.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: the batch uses the id 1 more than once' },
      id: null,
    });
    expect(logged).toEqual([]);
    expect(res!.headers['x-request-id']).toEqual(expect.any(String));
    const listed = await t.http.get('/admin/v1/endpoints').query({ search: 'dup' }).set(auth(tenant.admin));
    expect(listed.body.data).toEqual([]);
    // Refused as a whole, it counts as one admin request.
    expect(Number(res!.headers['x-ratelimit-remaining'])).toBe(LIMIT - 1);
  });

  it('refuses a repeated id across methods (a string id too), a batch of more than 100 messages and an empty one', async () => {
    const key = await freshKey();
    const mixed = await mcp(key, [
      { ...request(0, 'tools/list'), id: 'a' },
      toolCall(2, 'list_endpoints', {}),
      { ...request(0, 'resources/list'), id: 'a' },
    ]);
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toEqual({
      code: -32600,
      message: 'Invalid Request: the batch uses the id "a" more than once',
    });
    const large = await mcp(
      key,
      Array.from({ length: 101 }, (_, i) => request(i + 1, 'tools/list')),
    );
    expect(large.status).toBe(400);
    expect(large.body.error).toEqual({ code: -32600, message: 'Invalid Request: a batch holds at most 100 messages' });
    // An empty batch is an Invalid Request too, as JSON-RPC 2.0 has it.
    const empty = await mcp(key, []);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: a batch holds at least one message' },
      id: null,
    });
    // 1 and "1" are different ids.
    const distinct = await mcp(key, [request(1, 'tools/list'), { ...request(0, 'tools/list'), id: '1' }]);
    expect(distinct.status).toBe(200);
    expect(distinct.body).toHaveLength(2);
  });
});
