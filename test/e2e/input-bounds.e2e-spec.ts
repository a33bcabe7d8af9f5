import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { FakeLlmServer } from '../support/fake-llm-server';
import { auth, SeededTenant, seedTenant } from '../support/seed';
import { createTestApp, TestApp } from '../support/test-app';

const MAX_INTEGER = 2147483647;
const TOO_BIG = 1e11;
const DEPTH_MESSAGE = 'Request body is nested deeper than 64 levels';
/** What no message may carry: SQL or driver text, stack frames, error codes of the network, addresses. */
const INTERNALS =
  /SELECT |INSERT |UPDATE |QueryFailed|invalid input syntax|out of range for type|\bat .+\(.+:\d+:\d+\)|ECONN|ENOTFOUND|127\.0\.0\.1|localhost:\d+/i;

/** `levels` nested JSON arrays as text, e.g. 2 → `[[]]`. */
const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** A port nothing listens on: one the system handed out, then closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Hostile input: integers past the int4 columns, bodies nested past the depth limit, and failures whose detail
 * (driver text, provider addresses) must not reach any surface.
 */
describe('input bounds', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let providerPort: number;
  let fake: FakeLlmServer;
  let modelsDir: string;

  beforeAll(async () => {
    providerPort = await closedPort();
    fake = await FakeLlmServer.start();
    modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-bounds-'));
    const modelsFile = path.join(modelsDir, 'models.json');
    fs.writeFileSync(
      modelsFile,
      JSON.stringify({
        providers: [{ name: 'local', baseUrl: `${fake.url}/local/v1`, models: [{ id: 'llama-test' }] }],
      }),
    );
    t = await createTestApp(
      {},
      {
        OPENAI_API_KEY: 'sk-test-openai',
        OPENAI_BASE_URL: `http://127.0.0.1:${providerPort}/v1`,
        MODELS_FILE: modelsFile,
      },
    );
    tenant = await seedTenant(t.app);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  const admin = () => auth(tenant.admin);
  const expectRefused = (response: { status: number; body: unknown }, message: string) => {
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ succeeded: false, messages: [message], data: null });
  };
  const tooBig = (field: string) => `${field} must not be greater than ${MAX_INTEGER}`;

  /** A JSON-RPC request to /mcp as raw text, answered as plain JSON. */
  const mcp = (body: string) =>
    t.http
      .post('/mcp')
      .set('Authorization', `Bearer ${tenant.admin}`)
      .set('Content-Type', 'application/json')
      .set('Accept', 'application/json, text/event-stream')
      .send(body);

  describe('integers are at most 2147483647', () => {
    it.each(['rateLimitPerMinute', 'rateLimitPerHour', 'rateLimitPerDay'])(
      'key %s: 400 naming it on create and update',
      async (field) => {
        expectRefused(
          await t.http
            .post('/admin/v1/keys')
            .set(admin())
            .send({ name: 'k', type: 'endpoint', [field]: TOO_BIG }),
          tooBig(field),
        );
        const created = await t.http
          .post('/admin/v1/keys')
          .set(admin())
          .send({ name: 'k', type: 'endpoint', [field]: MAX_INTEGER });
        expect(created.status).toBe(201);
        expect(created.body.data[field]).toBe(MAX_INTEGER);
        expectRefused(
          await t.http
            .put(`/admin/v1/keys/${created.body.data.id}`)
            .set(admin())
            .send({ [field]: MAX_INTEGER + 1 }),
          tooBig(field),
        );
        expect((await t.http.get(`/admin/v1/keys/${created.body.data.id}`).set(admin())).body.data[field]).toBe(
          MAX_INTEGER,
        );
      },
    );

    it.each(['rateLimitPerMinute', 'rateLimitPerHour', 'rateLimitPerDay'])(
      'endpoint %s: 400 naming it on create and update',
      async (field) => {
        expectRefused(
          await t.http
            .post('/admin/v1/endpoints')
            .set(admin())
            .send({ name: 'e', path: `/api/v1/big-${field.toLowerCase()}`, [field]: TOO_BIG }),
          tooBig(field),
        );
        const endpoint = await createEndpoint(t, tenant.admin, { [field]: MAX_INTEGER });
        expectRefused(
          await t.http
            .put(`/admin/v1/endpoints/${endpoint.id}`)
            .set(admin())
            .send({ [field]: TOO_BIG }),
          tooBig(field),
        );
        expect((await t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(admin())).body.data[field]).toBe(
          MAX_INTEGER,
        );
      },
    );

    it.each([
      ['timeoutSeconds', 'timeoutSeconds must not be greater than 600'],
      ['cacheDurationSeconds', 'cacheDurationSeconds must not be greater than 2592000'],
    ])('endpoint %s: 400 naming it', async (field, message) => {
      expectRefused(
        await t.http
          .post('/admin/v1/endpoints')
          .set(admin())
          .send({ name: 'e', path: '/api/v1/big-settings', [field]: TOO_BIG }),
        message,
      );
    });

    it('input field maxLength: 400 naming it on create and update', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const fields = `/admin/v1/endpoints/${endpoint.id}/input-fields`;
      expectRefused(
        await t.http.post(fields).set(admin()).send({ name: 's', dataType: 'string', maxLength: TOO_BIG }),
        tooBig('maxLength'),
      );
      const field = await t.http
        .post(fields)
        .set(admin())
        .send({ name: 's', dataType: 'string', maxLength: MAX_INTEGER });
      expect(field.status).toBe(201);
      expectRefused(
        await t.http.put(`${fields}/${field.body.data.id}`).set(admin()).send({ maxLength: TOO_BIG }),
        tooBig('maxLength'),
      );
    });

    it('number field bounds take any finite number, integer field bounds the int4 range; non-finite ones are refused', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const fields = `/admin/v1/endpoints/${endpoint.id}/input-fields`;
      const wide = await t.http
        .post(fields)
        .set(admin())
        .send({ name: 'n', dataType: 'number', minimum: -1.7e308, maximum: 1.7e308, defaultValue: 5e-324 });
      expect(wide.status).toBe(201);
      expect(wide.body.data).toMatchObject({ minimum: -1.7e308, maximum: 1.7e308, defaultValue: 5e-324 });
      // The bounds of an integer field are integers of the request: within the int4 range.
      expectRefused(
        await t.http.post(fields).set(admin()).send({ name: 'm', dataType: 'integer', minimum: 1e11 }),
        tooBig('minimum'),
      );
      expectRefused(
        await t.http.post(fields).set(admin()).send({ name: 'm', dataType: 'integer', maximum: -1e11 }),
        'maximum must not be less than -2147483648',
      );
      const integer = await t.http
        .post(fields)
        .set(admin())
        .send({ name: 'm', dataType: 'integer', minimum: -2147483648, maximum: MAX_INTEGER });
      expect(integer.status).toBe(201);
      expectRefused(
        await t.http.put(`${fields}/${integer.body.data.id}`).set(admin()).send({ maximum: TOO_BIG }),
        tooBig('maximum'),
      );
      // 1e400 parses to Infinity.
      const infinite = await t.http
        .post(fields)
        .set(admin())
        .set('Content-Type', 'application/json')
        .send('{"name":"i","dataType":"number","maximum":1e400}');
      expectRefused(infinite, 'maximum must be a finite number');
      const execution = await t.http
        .post(endpoint.path)
        .set(auth(tenant.endpointKey))
        .set('Content-Type', 'application/json')
        .send('{"n":-1e400}');
      expect(execution.status).toBe(400);
      expect(execution.body).toMatchObject({ error: 'validation_error', field: 'n' });
    });

    it('prompt maxTokens: 400 naming it on create and update', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const body = { endpointId: endpoint.id, name: 'p', template: 'x', llmModel: 'mock-echo' };
      expectRefused(
        await t.http
          .post('/admin/v1/prompts')
          .set(admin())
          .send({ ...body, maxTokens: TOO_BIG }),
        'maxTokens must not be greater than 2000000',
      );
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'x' }, 'Draft');
      expectRefused(
        await t.http.put(`/admin/v1/prompts/${prompt.id}`).set(admin()).send({ maxTokens: TOO_BIG }),
        'maxTokens must not be greater than 2000000',
      );
    });

    it.each([
      ['/admin/v1/keys?page=100000000000', 'page'],
      ['/admin/v1/endpoints?page=100000000000', 'page'],
      ['/admin/v1/logs?page=99999999999999999999', 'page'],
    ])('%s: 400 naming the query parameter', async (path, field) => {
      expectRefused(await t.http.get(path).set(admin()), tooBig(field));
    });

    it('pages up to 2147483647 are answered (empty)', async () => {
      const response = await t.http.get(`/admin/v1/keys?page=${MAX_INTEGER}&pageSize=500`).set(admin());
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
    });

    it('version numbers in paths and compare: 400 naming them, and a version up to the bound is a plain 404', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'x' }, 'Draft');
      const versions = `/admin/v1/prompts/${prompt.id}/versions`;
      expectRefused(await t.http.get(`${versions}/100000000000`).set(admin()), tooBig('versionNumber'));
      expectRefused(await t.http.post(`${versions}/100000000000/restore`).set(admin()), tooBig('versionNumber'));
      expectRefused(await t.http.get(`${versions}/99999999999999999999999`).set(admin()), tooBig('versionNumber'));
      expectRefused(await t.http.get(`${versions}/0`).set(admin()), 'versionNumber must not be less than 1');
      expectRefused(await t.http.get(`${versions}/1.5`).set(admin()), 'versionNumber must be an integer');
      expectRefused(await t.http.get(`${versions}/abc`).set(admin()), 'versionNumber must be an integer');
      expectRefused(await t.http.get(`${versions}/compare?from=1&to=100000000000`).set(admin()), tooBig('to'));
      expectRefused(await t.http.get(`${versions}/compare?from=100000000000&to=1`).set(admin()), tooBig('from'));
      expect((await t.http.get(`${versions}/${MAX_INTEGER}`).set(admin())).status).toBe(404);
      expect((await t.http.get(`${versions}/1`).set(admin())).status).toBe(200);
    });

    it('MCP tools refuse the same integers, and nothing is saved', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const call = (name: string, args: Record<string, unknown>) =>
        mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }));
      const update = await call('update_endpoint', { id: endpoint.id, rateLimitPerMinute: TOO_BIG });
      expect(update.status).toBe(200);
      const outcome = JSON.stringify(update.body);
      expect(outcome).toContain('rateLimitPerMinute');
      expect(update.body.error ?? update.body.result?.isError).toBeTruthy();
      expect(
        (await t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(admin())).body.data.rateLimitPerMinute,
      ).toBeNull();
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'x' }, 'Draft');
      const version = await call('get_version', { id: prompt.id, versionNumber: TOO_BIG });
      expect(version.body.error ?? version.body.result?.isError).toBeTruthy();
      expect(JSON.stringify(version.body)).not.toMatch(INTERNALS);
    });
  });

  describe('bodies nested deeper than 64 levels', () => {
    it('an execution 5,000 deep on a caching endpoint: 400 with field null, and the service keeps answering', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        cacheEnabled: true,
        inputs: [{ name: 'data', dataType: 'array' }],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'got {{ inputs.data | size }}' });
      const response = await t.http
        .post(endpoint.path)
        .set(auth(tenant.endpointKey))
        .set('Content-Type', 'application/json')
        .send(`{"data":${nestedArrays(5000)}}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'validation_error', message: DEPTH_MESSAGE, field: null });
      expect((await t.http.get('/health')).status).toBe(200);
      const ok = await t.http
        .post(endpoint.path)
        .set(auth(tenant.endpointKey))
        .send({ data: [1, 2] });
      expect(ok.status).toBe(200);
    });

    it('a body exactly 64 deep is accepted; one level more is refused', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        cacheEnabled: true,
        inputs: [{ name: 'data', dataType: 'array' }],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'got {{ inputs.data | size }}' });
      const send = (levels: number) =>
        t.http
          .post(endpoint.path)
          .set(auth(tenant.endpointKey))
          .set('Content-Type', 'application/json')
          .send(`{"data":${nestedArrays(levels)}}`);
      // The body object is one level, the arrays the rest.
      const accepted = await send(63);
      expect(accepted.status).toBe(200);
      const cached = await send(63);
      expect(cached.status).toBe(200);
      expect(cached.headers['x-cache']).toBe('HIT');
      const refused = await send(64);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'validation_error', message: DEPTH_MESSAGE, field: null });
    });

    it('an admin body 20,000 deep: 400 in the envelope, and the service keeps answering', async () => {
      const response = await t.http
        .post('/admin/v1/endpoints')
        .set(admin())
        .set('Content-Type', 'application/json')
        .send(`{"name":"deep","path":"/api/v1/deep","description":${nestedArrays(20_000)}}`);
      expectRefused(response, DEPTH_MESSAGE);
      expect((await t.http.get('/admin/v1/endpoints?pageSize=1').set(admin())).status).toBe(200);
    });

    it('an admin body exactly 64 deep reaches validation', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const response = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/input-fields`)
        .set(admin())
        .set('Content-Type', 'application/json')
        .send(`{"name":"deep","dataType":"array","defaultValue":${nestedArrays(63)}}`);
      expect(response.status).toBe(201);
    });

    it('an execution test run 1,000 deep: 400 in the envelope', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'data', dataType: 'array' }] });
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, { template: 'x' });
      const response = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(admin())
        .set('Content-Type', 'application/json')
        .send(`{"promptId":"${prompt.id}","inputs":{"data":${nestedArrays(1000)}}}`);
      expectRefused(response, DEPTH_MESSAGE);
    });

    it('a model answer nested 5,000 deep is answered as its text, not parsed', async () => {
      // mock-echo answers the rendered prompt, so the caller controls the answer's text.
      const endpoint = await createEndpoint(t, tenant.admin, {
        cacheEnabled: true,
        inputs: [{ name: 'text', dataType: 'string' }],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: '{{ inputs.text }}' });
      const deep = nestedArrays(5000);
      const response = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: deep });
      expect(response.status).toBe(200);
      expect(response.body).toBe(deep);
      const shallow = await t.http
        .post(endpoint.path)
        .set(auth(tenant.endpointKey))
        .send({ text: nestedArrays(3) });
      expect(shallow.status).toBe(200);
      expect(shallow.body).toEqual([[[]]]);
    });

    it('a structured answer nested past the limit is a 502 from the provider, and the service keeps answering', async () => {
      const local = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string' }],
        outputs: [{ name: 'items', dataType: 'array' }],
      });
      await createPrompt(t, tenant.admin, local.id, { template: 'Say {{ inputs.text }}', llmModel: 'llama-test' });
      fake.reply({ text: `{"items":${nestedArrays(5000)}}` });
      const response = await t.http.post(local.path).set(auth(tenant.endpointKey)).send({ text: 'hi' });
      expect(response.status).toBe(502);
      expect(response.body).toEqual({
        error: 'upstream_error',
        message: 'local answered JSON nested deeper than 64 levels',
      });
      fake.reply({ text: '{"items":[[1]]}' });
      const fine = await t.http.post(local.path).set(auth(tenant.endpointKey)).send({ text: 'hi' });
      expect(fine.status).toBe(200);
      expect(fine.body).toEqual({ items: [[1]] });
    });

    it('an image field whose exampleValue nests past the limit is refused on save', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      const response = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/output-fields`)
        .set(admin())
        .send({
          name: 'picture',
          dataType: 'image',
          exampleValue: `{"size":"1024x1024","style":${nestedArrays(3000)}}`,
        });
      expectRefused(response, 'exampleValue of an image field must not be nested deeper than 64 levels');
    });

    it('an MCP request 100 deep: a JSON-RPC error, and MCP keeps answering', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'data', dataType: 'array' }] });
      const args = `{"endpointId":"${endpoint.id}","inputs":{"data":${nestedArrays(100)}}}`;
      const response = await mcp(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run_endpoint","arguments":${args}}}`,
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        jsonrpc: '2.0',
        error: { code: -32001, message: `validation_error: ${DEPTH_MESSAGE}` },
        id: null,
      });
      const list = await mcp(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
      expect(list.status).toBe(200);
      expect(list.body.result.tools.length).toBeGreaterThan(0);
    });
  });

  describe('messages carry no internals', () => {
    it('MCP resources/read of an id that is not a UUID: not found in MCP form, without driver text', async () => {
      const response = await mcp(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'resources/read',
          params: { uri: 'promptgate://endpoints/not-a-uuid' },
        }),
      );
      expect(response.status).toBe(200);
      expect(response.body.error).toEqual({ code: -32002, message: 'not_found: Endpoint not-a-uuid not found' });
      expect(JSON.stringify(response.body)).not.toMatch(INTERNALS);
      const unknown = await mcp(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 4,
          method: 'resources/read',
          params: { uri: 'promptgate://endpoints/00000000-0000-4000-8000-000000000000' },
        }),
      );
      expect(unknown.body.error).toEqual({
        code: -32002,
        message: 'not_found: Endpoint 00000000-0000-4000-8000-000000000000 not found',
      });
    });

    describe('a provider that refuses connections', () => {
      let endpoint: { id: string; path: string };
      let promptId: string;
      const reached = "the provider 'openai' could not be reached";
      const expectClean = (body: unknown) => {
        const text = JSON.stringify(body);
        expect(text).not.toContain('127.0.0.1');
        expect(text).not.toContain(String(providerPort));
        expect(text).not.toContain('ECONNREFUSED');
        expect(text).not.toMatch(INTERNALS);
      };

      beforeAll(async () => {
        endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
        promptId = (
          await createPrompt(t, tenant.admin, endpoint.id, {
            template: 'Say {{ inputs.text }}',
            llmModel: 'gpt-4o-mini',
          })
        ).id;
      });

      it('the caller gets 502 naming the provider, and the log says the same', async () => {
        const response = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: 'hi' });
        expect(response.status).toBe(502);
        expect(response.body).toEqual({ error: 'upstream_error', message: reached });
        expectClean(response.body);
        const deadline = Date.now() + 3000;
        let row: any;
        while (!row && Date.now() < deadline) {
          const list = await t.http.get(`/admin/v1/logs?endpointId=${endpoint.id}`).set(admin());
          row = (list.body.data.items ?? list.body.data).find(
            (r: any) => r.requestId === response.headers['x-request-id'],
          );
          if (!row) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const detail = await t.http.get(`/admin/v1/logs/${row.id}`).set(admin());
        expect(detail.body.data).toMatchObject({
          status: 'error',
          httpStatus: 502,
          errorCode: 'upstream_error',
          errorMessage: reached,
        });
        expectClean(detail.body);
      });

      it('a test run answers the same message in the envelope', async () => {
        const response = await t.http
          .post(`/admin/v1/endpoints/${endpoint.id}/test`)
          .set(admin())
          .send({ promptId, inputs: { text: 'hi' } });
        expect(response.status).toBe(502);
        expect(response.body).toEqual({ succeeded: false, messages: [reached], data: null });
        expectClean(response.body);
      });

      it("a provider error is told in our words, with its status, never the provider's text or the addresses it names", async () => {
        const local = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
        await createPrompt(t, tenant.admin, local.id, { template: 'Say {{ inputs.text }}', llmModel: 'llama-test' });
        fake.reply({
          status: 500,
          message: 'upstream http://10.1.2.3:8080/v1/chat failed; try backend-7.internal:9000',
        });
        const response = await t.http.post(local.path).set(auth(tenant.endpointKey)).send({ text: 'hi' });
        expect(response.status).toBe(502);
        expect(response.body).toEqual({
          error: 'upstream_error',
          message: "the provider 'local' refused the call: server error (500)",
        });
        expect(JSON.stringify(response.body)).not.toMatch(
          new RegExp(`10\\.1\\.2\\.3|internal|${fake.url.split(':').pop()}`),
        );
      });

      it('MCP run_endpoint answers a tool error with the same message', async () => {
        const response = await mcp(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 5,
            method: 'tools/call',
            params: { name: 'run_endpoint', arguments: { endpointId: endpoint.id, inputs: { text: 'hi' } } },
          }),
        );
        expect(response.status).toBe(200);
        expect(response.body.result.isError).toBe(true);
        expect(response.body.result.content[0].text).toContain(reached);
        expectClean(response.body);
      });
    });
  });
});
