import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_INTEGER } from '../../src/common/http/integer-bounds';
import { KeysService } from '../../src/modules/keys/keys.service';
import { createEndpoint } from '../support/endpoint-fixtures';
import {
  claudeCodeConnection,
  type ClientConnection,
  codeBlocks,
  connectMcp,
  connectMcpWith,
  mcpRemoteConnection,
  toolJson,
  urlEntryConnection,
} from '../support/mcp-client';
import { useTestApp } from '../support/app-suite';
import { untilHealthy } from '../support/eventually';
import { freePort } from '../support/own-servers';

// The client setups of docs/mcp.md, read from the page and connected the way each client connects: the URL and the
// headers it sends once its placeholders are filled in. Then the 401 a client without a valid key meets, and the
// tool selection that keeps tools/list short.

const ROOT = path.join(__dirname, '..', '..');
const DOCS = codeBlocks(fs.readFileSync(path.join(ROOT, 'docs', 'mcp.md'), 'utf8'));
const PLACEHOLDER_KEY = 'epa_your_admin_key';
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** The one documented block that `matches`, with the placeholder key replaced by `key`. */
function documented(lang: string, matches: (text: string) => boolean, key: string): string {
  const found = DOCS.filter((block) => block.lang === lang && matches(block.text));
  expect(found).toHaveLength(1);
  return found[0].text.replaceAll(PLACEHOLDER_KEY, key);
}

/** Every `type` anywhere in a JSON value (to find type arrays). */
function typesIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(typesIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, inner]) => (name === 'type' ? [inner] : []).concat(typesIn(inner)));
}

describe('MCP client setups', () => {
  const { t, tenant } = useTestApp({ listen: true });
  let baseUrl: string;
  let endpointPath: string;

  beforeAll(async () => {
    baseUrl = await t.app.getUrl();
    endpointPath = (await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] })).path;
  });

  /** The names of every tool the admin key is shown without a selection. */
  async function everyTool(): Promise<string[]> {
    const client = await connectMcp(baseUrl, tenant.admin);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names.length).toBeGreaterThanOrEqual(33);
      return names;
    } finally {
      await client.close();
    }
  }

  /** Connects as the client would, lists its tools and lists the endpoints; answers the tool names. */
  async function exercise(connection: ClientConnection): Promise<string[]> {
    const client = await connectMcpWith(connection.url, connection.headers);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      const listed = toolJson(await client.callTool({ name: 'list_endpoints', arguments: {} }));
      expect(listed.items.map((endpoint: { path: string }) => endpoint.path)).toEqual([endpointPath]);
      return names;
    } finally {
      await client.close();
    }
  }

  describe('the setups of docs/mcp.md', () => {
    it('Claude Desktop through mcp-remote: the header written without a space, its Bearer value from env', async () => {
      const config = JSON.parse(documented('json', (text) => text.includes('"mcp-remote"'), tenant.admin));
      const entry = config.mcpServers.promptgate;
      expect(entry.command).toBe('npx');
      expect(entry.args).toContain('Authorization:${AUTH_HEADER}');
      const connection = mcpRemoteConnection(entry, baseUrl);
      expect(connection.headers).toEqual({ Authorization: `Bearer ${tenant.admin}` });
      expect(await exercise(connection)).toEqual(await everyTool());
    });

    it('takes the Authorization header with no space after the colon on the wire too', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const { port } = new URL(baseUrl);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization:Bearer ${tenant.admin}\r\n` +
            `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toContain('"name":"run_endpoint"');
    });

    it('Claude Code: claude mcp add --transport http with a header, and a .mcp.json reading the key from the environment', async () => {
      const command = documented('sh', (text) => text.startsWith('claude mcp add'), tenant.admin).trim();
      const added = claudeCodeConnection(command, baseUrl);
      expect(added.headers).toEqual({ Authorization: `Bearer ${tenant.admin}` });
      expect(await exercise(added)).toEqual(await everyTool());

      const project = JSON.parse(documented('json', (text) => text.includes('"Bearer ${PROMPTGATE_ADMIN_KEY}"'), ''));
      const entry = project.mcpServers.promptgate;
      expect(entry.type).toBe('http');
      const environment: Record<string, string> = { PROMPTGATE_ADMIN_KEY: tenant.admin };
      expect(await exercise(urlEntryConnection(entry, baseUrl, (name) => environment[name]))).toEqual(
        await everyTool(),
      );
    });

    it('Cursor: url and headers with ${env:…}, a selection that fits its tool cap', async () => {
      const config = JSON.parse(documented('json', (text) => text.includes('${env:'), ''));
      const entry = config.mcpServers.promptgate;
      const connection = urlEntryConnection(entry, baseUrl, (placeholder) => {
        expect(placeholder).toBe('env:PROMPTGATE_ADMIN_KEY');
        return tenant.admin;
      });
      const names = await exercise(connection);
      // Cursor uses about 40 tools across all its servers.
      expect(names.length).toBeLessThanOrEqual(30);
      expect(names).toEqual(expect.arrayContaining(['run_endpoint', 'create_prompt', 'update_endpoint']));
      expect(names).not.toContain('list_logs');
    });

    it('VS Code: type http, url and headers, the key asked for by a password input', async () => {
      const config = JSON.parse(documented('json', (text) => text.includes('"servers"'), ''));
      const entry = config.servers.promptgate;
      expect(entry.type).toBe('http');
      const inputs = new Map<string, { password: boolean }>(
        config.inputs.map((input: { id: string; password: boolean }) => [input.id, input]),
      );
      const connection = urlEntryConnection(entry, baseUrl, (placeholder) => {
        const [kind, id] = placeholder.split(':');
        expect(kind).toBe('input');
        expect(inputs.get(id)?.password).toBe(true);
        return tenant.admin;
      });
      expect(await exercise(connection)).toEqual(await everyTool());
    });

    it('the TypeScript SDK: a Bearer header in requestInit', async () => {
      const code = documented('ts', (text) => text.includes('StreamableHTTPClientTransport'), '');
      expect(code).toContain(
        'requestInit: { headers: { Authorization: `Bearer ${process.env.PROMPTGATE_ADMIN_KEY}` } }',
      );
      const client = await connectMcp(baseUrl, tenant.admin);
      const { structuredContent } = await client.callTool({ name: 'list_endpoints', arguments: {} });
      expect((structuredContent as { items: { path: string }[] }).items.map((e) => e.path)).toEqual([endpointPath]);
      await client.close();
    });
  });

  describe('a client without a valid key', () => {
    it('gets 401 with a plain Bearer challenge (no OAuth hint) and a JSON-RPC error saying a key is required', async () => {
      const none = await t.http.post('/mcp').set(MCP_HEADERS).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer realm="promptgate"');
      expect(none.body).toEqual({
        jsonrpc: '2.0',
        error: { code: -32001, message: 'unauthorized: An API key is required (x-api-key header)' },
        id: null,
      });
      const bad = await t.http
        .post('/mcp')
        .set({ ...MCP_HEADERS, authorization: `Bearer epa_${'Z'.repeat(40)}` })
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(bad.status).toBe(401);
      expect(bad.headers['www-authenticate']).toBe('Bearer realm="promptgate"');
      expect(bad.body.error.message).toBe('unauthorized: The API key is invalid or revoked');
    });

    it('finds no OAuth metadata to discover', async () => {
      for (const wellKnown of [
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-authorization-server',
        '/.well-known/openid-configuration',
      ]) {
        expect({ wellKnown, status: (await t.http.get(wellKnown)).status }).toEqual({ wellKnown, status: 404 });
      }
    });

    it('fails to connect with the SDK client with a 401 error', async () => {
      const refusal = connectMcpWith(new URL('/mcp', baseUrl), { Authorization: 'Bearer epa_wrong' });
      await expect(refusal).rejects.toBeInstanceOf(StreamableHTTPError);
      await expect(refusal).rejects.toMatchObject({ code: 401 });
    });
  });

  describe('the tool selection', () => {
    const list = (query: string, key = tenant.admin) =>
      t.http
        .post(`/mcp${query}`)
        .set({ ...MCP_HEADERS, authorization: `Bearer ${key}` })
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const namesOf = (res: { body: { result: { tools: { name: string }[] } } }) =>
      res.body.result.tools.map((tool) => tool.name);

    it('serves only the tools named in ?tools=, and the others are unknown tools', async () => {
      expect(namesOf(await list('?tools=run_endpoint,list_endpoints'))).toEqual(['list_endpoints', 'run_endpoint']);
      const client = await connectMcpWith(new URL('/mcp?tools=run_endpoint,list_endpoints', baseUrl), {
        Authorization: `Bearer ${tenant.admin}`,
      });
      try {
        await expect(client.callTool({ name: 'get_endpoint', arguments: { id: MAX_INTEGER } })).rejects.toThrow(
          'MCP error -32602: Unknown tool: get_endpoint',
        );
        expect(toolJson(await client.callTool({ name: 'list_endpoints', arguments: {} })).items).toHaveLength(1);
      } finally {
        await client.close();
      }
    });

    it('serves whole toolsets with ?toolsets=, and the union with ?tools=', async () => {
      const prompts = namesOf(await list('?toolsets=prompts'));
      expect(prompts).toHaveLength(15);
      expect(prompts).toEqual(expect.arrayContaining(['create_prompt', 'compare_versions', 'restore_version']));
      expect(namesOf(await list('?toolsets=execution,prompts'))).toEqual([...prompts, 'run_endpoint']);
      expect(namesOf(await list('?toolsets=logs&tools=list_models&tools=get_endpoint'))).toEqual([
        'get_endpoint',
        'list_models',
        'list_logs',
        'get_log',
        'score_execution',
        'get_stats',
      ]);
    });

    it('refuses an unknown or empty name with 400, naming the parameter and the names it takes', async () => {
      const unknown = await list('?toolsets=execution,everything');
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32001,
          message: expect.stringMatching(
            /^validation_error: toolsets has an unknown name 'everything'; known: endpoints, prompts, models, logs, execution, keys/,
          ),
        },
        id: null,
      });
      const tool = await list('?tools=run_endpoint,delete_everything');
      expect(tool.status).toBe(400);
      expect(tool.body.error.message).toMatch(
        /^validation_error: tools has an unknown name 'delete_everything'; known: /,
      );
      const empty = await list('?tools=');
      expect(empty.status).toBe(400);
      // Refused as a whole, it still counts as one admin request, a request of tool calls only too.
      const key = (
        await t.app.get(KeysService).create(tenant.id, { name: 'sel', type: 'admin', permission: 'ReadWrite' })
      ).key;
      const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_endpoints', arguments: {} } };
      const refusedCall = await t.http
        .post('/mcp?tools=nope')
        .set({ ...MCP_HEADERS, authorization: `Bearer ${key}` })
        .send(call);
      expect(refusedCall.status).toBe(400);
      expect(Number(refusedCall.headers['x-ratelimit-remaining'])).toBe(t.config.adminRateLimitPerMinute - 1);
      expect(empty.body.error.message).toBe(
        'validation_error: tools must be a comma-separated list of names, none empty',
      );
    });

    it('still shows a ReadOnly key only the tools it may call', async () => {
      const key = (
        await t.app.get(KeysService).create(tenant.id, { name: 'ro', type: 'admin', permission: 'ReadOnly' })
      ).key;
      expect(namesOf(await list('?toolsets=endpoints,execution', key))).toEqual([
        'list_endpoints',
        'get_endpoint',
        'run_endpoint',
      ]);
    });

    it("gives each tool the hints that differ from MCP's defaults (not read-only, destructive, open world)", async () => {
      const res = await list('?tools=list_endpoints,update_endpoint,delete_endpoint,run_endpoint');
      const hints = Object.fromEntries(
        res.body.result.tools.map((tool: { name: string; annotations: unknown }) => [tool.name, tool.annotations]),
      );
      expect(hints).toEqual({
        list_endpoints: { readOnlyHint: true, openWorldHint: false },
        update_endpoint: { destructiveHint: false, openWorldHint: false },
        delete_endpoint: { destructiveHint: true, openWorldHint: false },
        run_endpoint: { destructiveHint: false },
      });
    });

    it('describes nullable arguments as anyOf with a null branch, never as a type list', async () => {
      const res = await list('');
      expect(typesIn(res.body.result.tools).filter((type) => typeof type !== 'string')).toEqual([]);
      const create = res.body.result.tools.find((tool: { name: string }) => tool.name === 'create_endpoint');
      expect(create.inputSchema.properties.rateLimitPerHour.anyOf).toEqual([
        { type: 'integer', minimum: 1, maximum: MAX_INTEGER },
        { type: 'null' },
      ]);
    });
  });
});

describe('the size of tools/list in the built service (`npm test` builds it first)', () => {
  // The built service carries the DTOs' doc comments as property descriptions, which the test build does not.
  const key = 'epa_' + 'McpToolListSize'.repeat(3);
  let child: ChildProcess;
  let dataDir: string;
  let base: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-mcp-'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
      cwd: ROOT,
      env: { ...env, INITIAL_ADMIN_KEY: key, LOG_LEVEL: 'error' },
      stdio: 'ignore',
    });
    base = `http://127.0.0.1:${port}`;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await untilHealthy(`${base}/health`, exited);
  }, 120_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  const bytesOfList = async (query: string) => {
    const res = await fetch(`${base}/mcp${query}`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${key}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    return {
      bytes: Buffer.byteLength(text),
      tools: (JSON.parse(text) as { result: { tools: unknown[] } }).result.tools,
    };
  };

  it('keeps a selection under 15 KB, and the whole list lean', async () => {
    const pair = await bytesOfList('?tools=run_endpoint,list_endpoints');
    expect(pair.tools).toHaveLength(2);
    expect(pair.bytes).toBeLessThan(4_000);
    const toolsets = await bytesOfList('?toolsets=execution,prompts');
    expect(toolsets.tools).toHaveLength(16);
    expect(toolsets.bytes).toBeLessThan(15_000);
    const all = await bytesOfList('');
    // Lean descriptions: under about 1 KB a tool with its input schema, on average.
    expect(all.tools.length).toBeGreaterThanOrEqual(33);
    expect(all.bytes / all.tools.length).toBeLessThan(1_100);
  });

  it('publishes no OAuth metadata beside the dashboard either', async () => {
    // What an OAuth client (mcp-remote after a 401) asks for, in its order.
    for (const wellKnown of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]) {
      const res = await fetch(`${base}${wellKnown}`);
      expect({ wellKnown, status: res.status }).toEqual({ wellKnown, status: 404 });
    }
    // A client registration is refused before its body is read: no route of the service takes one there.
    const registration = await fetch(`${base}/register`, { method: 'POST', body: '{}' });
    expect(registration.status).toBe(413);
  });
});
