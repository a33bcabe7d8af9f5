import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MAX_INTEGER } from '../../src/common/http/integer-bounds';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { connectMcp, toolJson, toolText } from '../support/mcp-client';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant } from '../support/seed';
import { createTestApp } from '../support/test-app';

describe('MCP server (/mcp)', () => {
  const { t, tenant, other } = useTestApp({ listen: true, other: true });
  let baseUrl: string;
  let client: Client;

  beforeAll(async () => {
    baseUrl = await t.app.getUrl();
    client = await connectMcp(baseUrl, tenant.admin);
  });
  afterAll(async () => {
    await client?.close();
  });

  /** An endpoint with a required `text` input, made through the tools. */
  async function endpointWithText(name: string, path: string): Promise<{ id: string; path: string }> {
    const endpoint = toolJson(await client.callTool({ name: 'create_endpoint', arguments: { name, path } }));
    await client.callTool({
      name: 'add_input_field',
      arguments: { endpointId: endpoint.id, name: 'text', dataType: 'string', isRequired: true },
    });
    return endpoint;
  }

  /** A Draft prompt `Main` of mock-echo on `endpointId`, created by the create_prompt tool. */
  const mainPrompt = async (endpointId: string, template: string) =>
    toolJson(
      await client.callTool({
        name: 'create_prompt',
        arguments: { endpointId, name: 'Main', template, llmModel: 'mock-echo' },
      }),
    );

  it('lists tools with descriptions and input schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'list_endpoints',
        'list_keys',
        'create_endpoint',
        'add_input_field',
        'list_models',
        'create_prompt',
        'promote_prompt',
        'set_default_prompt',
        'validate_template',
        'list_versions',
        'compare_versions',
        'restore_version',
        'list_logs',
        'get_stats',
      ]),
    );
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(10);
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(tools.find((tool) => tool.name === 'list_endpoints')!.annotations?.readOnlyHint).toBe(true);
  });

  it("advertises the REST DTOs' bounds, enums and required properties, with path ids beside them", async () => {
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema as Record<string, any>;
    const create = schemaOf('create_endpoint');
    expect(create.additionalProperties).toBe(false);
    expect(create.required).toEqual(['name', 'path']);
    expect(create.properties.timeoutSeconds).toMatchObject({ type: 'integer', minimum: 1, maximum: 600 });
    expect(create.properties.cacheDurationSeconds).toMatchObject({ type: 'integer', minimum: 1, maximum: 2592000 });
    expect(create.properties.rateLimitPerHour).toMatchObject({
      anyOf: [{ type: 'integer', minimum: 1, maximum: MAX_INTEGER }, { type: 'null' }],
    });
    expect(create.properties.visibility.enum).toEqual(['Public', 'Private']);
    expect(create.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    const update = schemaOf('update_endpoint');
    expect(update.required).toEqual(['id']);
    expect(update.properties.id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(update.properties.timeoutSeconds).toMatchObject({ minimum: 1, maximum: 600 });
    expect(schemaOf('list_keys').properties.pageSize).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
    expect(schemaOf('list_logs').properties.pageSize).toMatchObject({ minimum: 1, maximum: 50 });
    expect(schemaOf('get_version').properties.versionNumber).toEqual(
      expect.objectContaining({ type: 'integer', minimum: 1, maximum: MAX_INTEGER }),
    );
    expect(schemaOf('create_prompt').properties.temperature).toMatchObject({ type: 'number', minimum: 0, maximum: 2 });
    // No integer anywhere advertises an unbounded minimum.
    expect(JSON.stringify(tools)).not.toContain(String(Number.MIN_SAFE_INTEGER));
    for (const tool of tools) expect(tool.outputSchema).toMatchObject({ type: 'object' });
  });

  it('answers structured content equal to the REST data, and the same as compact JSON text', async () => {
    const created = await client.callTool({
      name: 'create_endpoint',
      arguments: { name: 'Structured', path: '/api/v1/mcp-structured' },
    });
    const id = (created.structuredContent as { id: string }).id;
    const got = await client.callTool({ name: 'get_endpoint', arguments: { id } });
    const rest = await t.http.get(`/admin/v1/endpoints/${id}`).set(auth(tenant.admin));
    expect(got.structuredContent).toEqual(rest.body.data);
    expect(toolText(got)).toBe(JSON.stringify(got.structuredContent));
    expect(toolText(got)).not.toContain('\n');

    const listed = await client.callTool({ name: 'list_endpoints', arguments: { pageSize: 500 } });
    const restList = await t.http.get('/admin/v1/endpoints?pageSize=500').set(auth(tenant.admin));
    expect(listed.structuredContent).toEqual({ items: restList.body.data });
    expect(toolText(listed)).toBe(JSON.stringify(listed.structuredContent));
  });

  it('refuses bad arguments by the DTO, naming the field as REST does', async () => {
    const args = { name: 'Bounds', path: '/api/v1/mcp-bounds', timeoutSeconds: 601 };
    const tool = await client.callTool({ name: 'create_endpoint', arguments: args });
    const rest = await t.http.post('/admin/v1/endpoints').set(auth(tenant.admin)).send(args);
    expect(tool.isError).toBe(true);
    expect(toolText(tool)).toBe(`validation_error: ${rest.body.messages.join('; ')}`);
    const unknown = await client.callTool({ name: 'get_endpoint', arguments: { id: 'nope' } });
    expect(toolText(unknown)).toBe('validation_error: id must be a UUID');
    const extra = await client.callTool({
      name: 'create_endpoint',
      arguments: { ...args, timeoutSeconds: 5, colour: 'red' },
    });
    expect(toolText(extra)).toBe('validation_error: property colour should not exist');
  });

  it('declares tools and resources that never change (listChanged false)', () => {
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: false },
      resources: { listChanged: false },
    });
  });

  it('shows a ReadOnly key only the tools it may call', async () => {
    const reader = await connectMcp(baseUrl, tenant.readOnly);
    try {
      const readable = (await reader.listTools()).tools.map((tool) => tool.name);
      const all = (await client.listTools()).tools;
      const writes = all
        .filter((tool) => !tool.annotations?.readOnlyHint && tool.name !== 'run_endpoint')
        .map((tool) => tool.name);
      expect(writes).toEqual(
        expect.arrayContaining(['create_endpoint', 'delete_endpoint', 'promote_prompt', 'restore_version']),
      );
      for (const name of writes) expect(readable).not.toContain(name);
      expect(readable).toEqual(
        expect.arrayContaining(['list_endpoints', 'get_prompt', 'list_logs', 'run_endpoint', 'validate_template']),
      );
      expect(readable.length + writes.length).toBe(all.length);
    } finally {
      await reader.close();
    }
  });

  it('creates an endpoint and a field through tools, visible over REST', async () => {
    const created = toolJson(
      await client.callTool({
        name: 'create_endpoint',
        arguments: { name: 'Summarize', path: '/api/v1/mcp-summarize' },
      }),
    );
    expect(created).toMatchObject({
      name: 'Summarize',
      path: '/api/v1/mcp-summarize',
      visibility: 'Public',
      timeoutSeconds: 60,
    });
    const field = toolJson(
      await client.callTool({
        name: 'add_input_field',
        arguments: { endpointId: created.id, name: 'text', dataType: 'string', isRequired: true },
      }),
    );
    expect(field).toMatchObject({ name: 'text', dataType: 'string', isRequired: true });

    const res = await t.http.get(`/admin/v1/endpoints/${created.id}`).set(auth(tenant.admin));
    expect(res.status).toBe(200);
    expect(res.body.data.inputFields.map((f: { name: string }) => f.name)).toEqual(['text']);

    const listed = toolJson(await client.callTool({ name: 'list_endpoints', arguments: { search: 'summ' } })).items;
    expect(listed.map((e: { id: string }) => e.id)).toContain(created.id);
  });

  it('applies the same validation rules as REST, as a tool error naming the field', async () => {
    const result = await client.callTool({ name: 'create_endpoint', arguments: { name: 'Bad', path: '/not-api/x' } });
    expect(result.isError).toBe(true);
    expect(toolText(result)).toMatch(/^validation_error: path must match/);
  });

  it('answers conflicts and unknown ids as tool errors', async () => {
    await client.callTool({ name: 'create_endpoint', arguments: { name: 'One', path: '/api/v1/mcp-dup' } });
    const dup = await client.callTool({ name: 'create_endpoint', arguments: { name: 'Two', path: '/api/v1/mcp-dup' } });
    expect(dup.isError).toBe(true);
    expect(toolText(dup)).toMatch(/^conflict:/);
    const missing = await client.callTool({
      name: 'get_endpoint',
      arguments: { id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing.isError).toBe(true);
    expect(toolText(missing)).toMatch(/^not_found:/);
  });

  it('pages list_keys and list_endpoints with page and pageSize, validated as the REST query is', async () => {
    const own = await seedTenant(t.app);
    for (const i of [1, 2, 3]) {
      await t.http
        .post('/admin/v1/endpoints')
        .set(auth(own.admin))
        .send({ name: `Paged ${i}`, path: `/api/v1/mcp-paged-${i}` });
    }
    const keysOverRest = (await t.http.get('/admin/v1/keys').set(auth(own.admin))).body.data;
    expect(keysOverRest.map((k: { name: string }) => k.name)).toEqual(['admin', 'reader', 'caller']);
    const keyIds = keysOverRest.map((k: { id: string }) => k.id);
    const idsOf = (result: unknown) => toolJson(result).items.map((row: { id: string }) => row.id);
    const reader = await connectMcp(baseUrl, own.readOnly);
    try {
      const { tools } = await reader.listTools();
      for (const name of ['list_keys', 'list_endpoints']) {
        const tool = tools.find((candidate) => candidate.name === name)!;
        expect(tool.description).toMatch(/paged: 100 per page by default/);
        expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['page', 'pageSize']));
        expect(tool.annotations?.readOnlyHint).toBe(true);
      }

      const all = toolJson(await reader.callTool({ name: 'list_keys', arguments: {} })).items;
      // The same records as REST (lastUsedAt aside: the reader key has been used since).
      expect(all.map(({ lastUsedAt: _, ...record }: { lastUsedAt: unknown }) => record)).toEqual(
        keysOverRest.map(({ lastUsedAt: _, ...record }: { lastUsedAt: unknown }) => record),
      );
      expect(idsOf(await reader.callTool({ name: 'list_keys', arguments: { pageSize: 2 } }))).toEqual(
        keyIds.slice(0, 2),
      );
      expect(idsOf(await reader.callTool({ name: 'list_keys', arguments: { page: 2, pageSize: 2 } }))).toEqual(
        keyIds.slice(2),
      );

      const endpoints = toolJson(
        await reader.callTool({ name: 'list_endpoints', arguments: { page: 2, pageSize: 2 } }),
      ).items;
      expect(endpoints.map((e: { name: string }) => e.name)).toEqual(['Paged 3']);

      const tooBig = await reader.callTool({ name: 'list_keys', arguments: { pageSize: 501 } });
      expect(tooBig.isError).toBe(true);
      expect(toolText(tooBig)).toBe('validation_error: pageSize must not be greater than 500');
      const pageZero = await reader.callTool({ name: 'list_endpoints', arguments: { page: 0 } });
      expect(pageZero.isError).toBe(true);
      expect(toolText(pageZero)).toBe('validation_error: page must not be less than 1');
    } finally {
      await reader.close();
    }
  });

  it("keeps tenants apart: another tenant's endpoint is not found", async () => {
    const created = await t.http
      .post('/admin/v1/endpoints')
      .set(auth(other.admin))
      .send({ name: 'Theirs', path: '/api/v1/theirs' })
      .expect(201);
    const result = await client.callTool({ name: 'get_endpoint', arguments: { id: created.body.data.id } });
    expect(result.isError).toBe(true);
    expect(toolText(result)).toMatch(/^not_found:/);
    const listed = toolJson(await client.callTool({ name: 'list_endpoints', arguments: {} })).items;
    expect(listed.map((e: { id: string }) => e.id)).not.toContain(created.body.data.id);
  });

  it('refuses write tools to a ReadOnly key and changes nothing, but allows reads', async () => {
    const reader = await connectMcp(baseUrl, tenant.readOnly);
    try {
      const result = await reader.callTool({
        name: 'create_endpoint',
        arguments: { name: 'Nope', path: '/api/v1/mcp-readonly' },
      });
      expect(result.isError).toBe(true);
      expect(toolText(result)).toMatch(/^forbidden: create_endpoint changes resources and this admin key is ReadOnly/);
      const list = await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin));
      expect(list.body.data.map((e: { path: string }) => e.path)).not.toContain('/api/v1/mcp-readonly');
      const models = toolJson(await reader.callTool({ name: 'list_models', arguments: {} })).items;
      expect(models.map((m: { id: string }) => m.id)).toContain('mock-echo');
    } finally {
      await reader.close();
    }
  });

  it('runs the prompt lifecycle through tools: create, validate, update, promote, default, versions, compare, restore', async () => {
    const endpoint = await endpointWithText('Tone', '/api/v1/mcp-tone');

    const check = toolJson(
      await client.callTool({
        name: 'validate_template',
        arguments: { endpointId: endpoint.id, template: 'Hi {{ inputs.text }} {{ inputs.nope }}' },
      }),
    );
    expect(check).toMatchObject({
      valid: false,
      variables: ['inputs.text', 'inputs.nope'],
      unknownVariables: ['inputs.nope'],
    });

    const prompt = await mainPrompt(endpoint.id, 'Rewrite: {{ inputs.text }}');
    expect(prompt).toMatchObject({ status: 'Draft', currentVersion: 1 });
    const updated = toolJson(
      await client.callTool({
        name: 'update_prompt',
        arguments: { id: prompt.id, template: 'Rewrite politely: {{ inputs.text }}', changeNotes: 'polite' },
      }),
    );
    expect(updated.currentVersion).toBe(2);
    expect(toolJson(await client.callTool({ name: 'promote_prompt', arguments: { id: prompt.id } })).status).toBe(
      'Live',
    );
    expect(
      toolJson(await client.callTool({ name: 'set_default_prompt', arguments: { id: prompt.id } })).isDefault,
    ).toBe(true);

    const rest = await t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(auth(tenant.admin));
    expect(rest.body.data.defaultPromptId).toBe(prompt.id);

    const versions = toolJson(await client.callTool({ name: 'list_versions', arguments: { id: prompt.id } })).items;
    expect(versions.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([1, 2]);
    const compared = await client.callTool({ name: 'compare_versions', arguments: { id: prompt.id, from: 1, to: 2 } });
    expect(compared.isError).toBeFalsy();
    expect(toolText(compared)).toContain('Rewrite politely');
    const restored = toolJson(
      await client.callTool({ name: 'restore_version', arguments: { id: prompt.id, versionNumber: 1 } }),
    );
    expect(restored).toMatchObject({ status: 'Draft', template: 'Rewrite: {{ inputs.text }}', name: 'Main (v1)' });

    const archiveDefault = await client.callTool({ name: 'archive_prompt', arguments: { id: prompt.id } });
    expect(archiveDefault.isError).toBe(true);
    expect(toolText(archiveDefault)).toMatch(/^conflict:/);
  });

  it('refuses prompt writes to a ReadOnly key but lets it read prompts, validate, logs and stats', async () => {
    const endpoint = toolJson(
      await client.callTool({ name: 'create_endpoint', arguments: { name: 'RO', path: '/api/v1/mcp-ro-prompts' } }),
    );
    const prompt = toolJson(
      await client.callTool({
        name: 'create_prompt',
        arguments: { endpointId: endpoint.id, name: 'P', template: 'x', llmModel: 'mock-echo' },
      }),
    );
    const reader = await connectMcp(baseUrl, tenant.readOnly);
    try {
      const denied = await reader.callTool({ name: 'promote_prompt', arguments: { id: prompt.id } });
      expect(denied.isError).toBe(true);
      expect(toolText(denied)).toMatch(/^forbidden:/);
      const still = await t.http.get(`/admin/v1/prompts/${prompt.id}`).set(auth(tenant.admin));
      expect(still.body.data.status).toBe('Draft');

      const listed = toolJson(
        await reader.callTool({ name: 'list_prompts', arguments: { endpointId: endpoint.id } }),
      ).items;
      expect(listed.map((p: { id: string }) => p.id)).toEqual([prompt.id]);
      const valid = toolJson(
        await reader.callTool({ name: 'validate_template', arguments: { endpointId: endpoint.id, template: 'plain' } }),
      );
      expect(valid.valid).toBe(true);
      const logs = await reader.callTool({ name: 'list_logs', arguments: { endpointId: endpoint.id } });
      expect(logs.isError).toBeFalsy();
      const stats = await reader.callTool({
        name: 'get_stats',
        arguments: { endpointId: endpoint.id, interval: 'day' },
      });
      expect(stats.isError).toBeFalsy();
      const badPage = await reader.callTool({ name: 'list_logs', arguments: { pageSize: 51 } });
      expect(badPage.isError).toBe(true);
      expect(toolText(badPage)).toMatch(/pageSize/);
    } finally {
      await reader.close();
    }
  });

  it('exposes each endpoint definition as a resource, tenant-scoped', async () => {
    const endpoint = toolJson(
      await client.callTool({ name: 'create_endpoint', arguments: { name: 'Resource', path: '/api/v1/mcp-resource' } }),
    );
    const { resources } = await client.listResources();
    const uri = `promptgate://endpoints/${endpoint.id}`;
    expect(resources.map((r) => r.uri)).toContain(uri);
    const read = await client.readResource({ uri });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
      id: endpoint.id,
      path: '/api/v1/mcp-resource',
    });
    const theirs = await t.http
      .post('/admin/v1/endpoints')
      .set(auth(other.admin))
      .send({ name: 'Hidden', path: '/api/v1/hidden' });
    expect(resources.map((r) => r.uri)).not.toContain(`promptgate://endpoints/${theirs.body.data.id}`);
    await expect(client.readResource({ uri: `promptgate://endpoints/${theirs.body.data.id}` })).rejects.toMatchObject({
      code: -32002,
    });
    await expect(client.readResource({ uri: 'promptgate://prompts/x' })).rejects.toMatchObject({ code: -32002 });
  });

  it("titles each endpoint resource with the endpoint's name", async () => {
    const endpoint = toolJson(
      await client.callTool({ name: 'create_endpoint', arguments: { name: 'Titled one', path: '/api/v1/mcp-titled' } }),
    );
    const { resources } = await client.listResources();
    const resource = resources.find((each) => each.uri === `promptgate://endpoints/${endpoint.id}`)!;
    expect(resource).toMatchObject({ name: 'Titled one', title: 'Titled one' });
    const names = (await t.http.get('/admin/v1/endpoints?pageSize=500').set(auth(tenant.admin))).body.data.map(
      (e: { name: string }) => e.name,
    );
    expect(resources.map((each) => each.title)).toEqual(names);
  });

  it('runs an endpoint with run_endpoint, logged with source Internal, also for a ReadOnly key', async () => {
    const endpoint = await endpointWithText('Echo', '/api/v1/mcp-echo');
    const prompt = await mainPrompt(endpoint.id, 'Echo: {{ inputs.text }}');
    await client.callTool({ name: 'promote_prompt', arguments: { id: prompt.id } });
    await client.callTool({ name: 'set_default_prompt', arguments: { id: prompt.id } });

    const ran = await client.callTool({
      name: 'run_endpoint',
      arguments: { endpointId: endpoint.id, inputs: { text: 'hello' } },
    });
    expect(ran.isError).toBeFalsy();
    expect(toolJson(ran)).toEqual({ output: 'Echo: hello' });

    const invalid = await client.callTool({ name: 'run_endpoint', arguments: { endpointId: endpoint.id, inputs: {} } });
    expect(invalid.isError).toBe(true);
    expect(toolText(invalid)).toBe("validation_error: Field 'text' is required");

    const reader = await connectMcp(baseUrl, tenant.readOnly);
    try {
      const byReader = await reader.callTool({
        name: 'run_endpoint',
        arguments: { endpointId: endpoint.id, inputs: { text: 'ro' } },
      });
      expect(toolJson(byReader)).toEqual({ output: 'Echo: ro' });
    } finally {
      await reader.close();
    }

    await t.app.get(ExecutionLogsService).flush();
    const logs = await t.http.get('/admin/v1/logs').query({ endpointId: endpoint.id }).set(auth(tenant.admin));
    expect(logs.status).toBe(200);
    const items = logs.body.data.items as { source: string; status: string }[];
    expect(items).toHaveLength(3);
    expect(items.every((log) => log.source === 'Internal')).toBe(true);
    expect(items.map((log) => log.status).sort()).toEqual(['error', 'success', 'success']);
  });

  it('answers 401 with a Bearer challenge without a key or with a bad one, and 403 to endpoint keys', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { accept: 'application/json, text/event-stream' };
    const none = await t.http.post('/mcp').set(headers).send(body);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const bad = await t.http
      .post('/mcp')
      .set(headers)
      .set('Authorization', 'Bearer epa_' + 'x'.repeat(40))
      .send(body);
    expect(bad.status).toBe(401);
    const endpointKey = await t.http
      .post('/mcp')
      .set(headers)
      .set('Authorization', `Bearer ${tenant.endpointKey}`)
      .send(body);
    expect(endpointKey.status).toBe(403);
    await expect(connectMcp(baseUrl, 'epa_' + 'y'.repeat(40))).rejects.toThrow();
  });

  it('answers GET with 405 (stateless server) and stays out of the OpenAPI document', async () => {
    const get = await t.http.get('/mcp').set('Authorization', `Bearer ${tenant.admin}`);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    const docs = await t.http.get('/docs-json');
    expect(Object.keys(docs.body.paths)).not.toContain('/mcp');
  });

  it("counts MCP requests against the key's admin rate limit", async () => {
    const limited = await createTestApp({ adminRateLimitPerMinute: 3 });
    try {
      const seeded = await seedTenant(limited.app);
      const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
      const call = () =>
        limited.http
          .post('/mcp')
          .set({ accept: 'application/json, text/event-stream', Authorization: `Bearer ${seeded.admin}` })
          .send(body);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call()).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await call();
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    } finally {
      await limited.close();
    }
  });
});
