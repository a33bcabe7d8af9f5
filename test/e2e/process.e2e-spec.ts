import SwaggerParser from '@apidevtools/swagger-parser';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killAndWait, untilHealthy } from '../support/eventually';
import { freePort } from '../support/own-servers';

/**
 * The built service as a user runs it (`npm test` builds it first): its own process on a temporary DATA_DIR, the
 * CLI beside it, and the shutdown. Always on the embedded database: that is where the CLI socket and the data
 * directory lock matter.
 */
const ROOT = path.join(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const CLI_MAIN = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const ADMIN_KEY = 'epa_' + 'Pr0cessTestKey'.repeat(3);

interface Service {
  child: ChildProcess;
  port: number;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...extra };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.INITIAL_ADMIN_KEY;
  delete env.INITIAL_TENANT;
  return { ...env, ...extra };
}

function start(env: Record<string, string>, port: number): Service {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: baseEnv({ PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_DRAIN_MS: '0', ...env }),
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(...chunk.toString().split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, stdout, stderr, exited };
}

function waitForHealth(service: Service): Promise<void> {
  return untilHealthy(`http://127.0.0.1:${service.port}/health`, service.exited, () => service.stderr.join('\n'));
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: ROOT, env: baseEnv(env), timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

const lastLine = (text: string) => text.trim().split('\n').pop() ?? '';

describe('the built service as a process', () => {
  let dataDir: string;
  let service: Service;
  let base: string;
  const cli = (...args: string[]) => run(CLI_MAIN, args, { DATA_DIR: dataDir });

  beforeAll(async () => {
    if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" (npm test does it first)`);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-process-'));
    const port = await freePort();
    service = start({ DATA_DIR: dataDir, INITIAL_ADMIN_KEY: ADMIN_KEY, INITIAL_TENANT: 'acme' }, port);
    base = `http://127.0.0.1:${port}`;
    await waitForHealth(service);
  }, 120_000);

  afterAll(async () => {
    if (service) await killAndWait(service.child, service.exited);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a bad environment variable with one line naming it and exit code 1', async () => {
    const result = await run(MAIN, [], { PORT: 'abc', DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual(['Invalid configuration: PORT must be an integer number']);
  });

  it('serves liveness and readiness', async () => {
    const live = await fetch(`${base}/health`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    expect(live.headers.get('x-request-id')).toBeTruthy();
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('serves Swagger UI and a valid, typed OpenAPI 3 document without a key', async () => {
    const docs = await fetch(`${base}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    expect(await docs.text()).toMatch(/swagger/i);

    const res = await fetch(`${base}/docs-json`);
    expect(res.status).toBe(200);
    const document = await res.json();
    expect(document.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();

    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['api-key', 'bearer']);
    const schemas = document.components.schemas;
    // The CLI plugin ran in `nest build`: request bodies and responses are typed.
    expect(schemas.CreateEndpointDto.properties).toEqual(
      expect.objectContaining({ name: expect.any(Object), path: expect.any(Object), visibility: expect.any(Object) }),
    );
    expect(schemas.CreateEndpointDto.required).toEqual(expect.arrayContaining(['name', 'path']));
    expect(schemas.EndpointResponse.properties).toEqual(
      expect.objectContaining({
        id: expect.any(Object),
        inputFields: expect.any(Object),
        cacheDurationSeconds: expect.any(Object),
      }),
    );
    expect(schemas.CreateKeyDto.properties).toEqual(
      expect.objectContaining({ name: expect.any(Object), type: expect.any(Object) }),
    );
    expect(schemas.CreatedKeyResponse.properties ?? schemas.CreatedKeyResponse.allOf).toBeTruthy();
    // Every log response names the fields stored cut to LOG_FIELD_MAX_BYTES.
    expect(schemas.ExecutionLogResponse.properties.truncatedFields).toMatchObject({
      type: 'array',
      items: { type: 'string' },
    });
    expect(schemas.ExecutionLogResponse.required).toContain('truncatedFields');

    const one = document.paths['/admin/v1/endpoints/{id}'];
    expect(one.get.responses['200'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/EndpointResponse',
    });
    expect(one.put.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/UpdateEndpointDto',
    });
    expect(one.get.security).toEqual(expect.arrayContaining([{ 'api-key': [] }, { bearer: [] }]));
    const list = document.paths['/admin/v1/endpoints'];
    expect(list.get.responses['200'].content['application/json'].schema.properties.data).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/EndpointResponse' },
    });
    expect(list.post.responses['201'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/EndpointResponse',
    });
    expect(list.post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateEndpointDto',
    });
    expect(list.get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'category',
      'deleted',
      'page',
      'pageSize',
      'search',
      'visibility',
    ]);
    const pageSize = (path: string) =>
      document.paths[path].get.parameters.find((p: { name: string }) => p.name === 'pageSize');
    expect(pageSize('/admin/v1/endpoints')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    });
    expect(pageSize('/admin/v1/keys')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    });
    expect(pageSize('/admin/v1/logs')).toMatchObject({ schema: { type: 'integer', maximum: 50, default: 20 } });
    expect(document.paths['/admin/v1/keys'].get.responses['200'].headers.Link).toEqual(
      expect.objectContaining({ schema: { type: 'string' } }),
    );
    const field = document.paths['/admin/v1/endpoints/{id}/input-fields'];
    expect(field.post.responses['201'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/InputFieldResponse',
    });
  });

  it('creates the INITIAL_ADMIN_KEY tenant and key at start', async () => {
    const res = await fetch(`${base}/admin/v1/endpoints`, { headers: { 'x-api-key': ADMIN_KEY } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ succeeded: true, messages: [], data: [] });
    const onHost = await fetch(`${base}/admin/v1/keys`, {
      headers: { 'x-api-key': ADMIN_KEY, host: `acme.localhost:${service.port}` },
    });
    expect(onHost.status).toBe(200);
    const keys = (await onHost.json()).data;
    expect(keys).toEqual([
      expect.objectContaining({
        name: 'initial admin key',
        type: 'admin',
        permission: 'ReadWrite',
        last4: ADMIN_KEY.slice(-4),
      }),
    ]);
  });

  it('runs the CLI against the running service through its socket', async () => {
    // Through the npm script's wrapper once; the rest calls the built CLI directly.
    const created = await run(
      path.join(ROOT, 'scripts', 'cli.js'),
      ['tenant', 'create', 'beta', '--name', 'Beta Inc', '--plan', 'pro'],
      { DATA_DIR: dataDir },
    );
    expect(created).toMatchObject({ code: 0 });
    expect(created.stdout).toContain('Created tenant beta (name: Beta Inc, plan: pro)');

    const updated = await cli('tenant', 'update', 'beta', '--plan', 'enterprise');
    expect(updated.stdout).toContain('Updated tenant beta (name: Beta Inc, plan: enterprise)');
    const duplicate = await cli('tenant', 'create', 'beta');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("Tenant 'beta' already exists");
    const usage = await cli('key', 'create', '--tenant', 'beta');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Missing --type');

    const key = await cli('key', 'create', '--tenant', 'beta', '--type', 'admin', '--name', 'ops');
    expect(key.code).toBe(0);
    const adminKey = lastLine(key.stdout);
    expect(adminKey).toMatch(/^epa_[A-Za-z0-9]{32,}$/);
    const endpointRun = await cli('key', 'create', '--tenant', 'beta', '--type', 'endpoint', '--environment', 'test');
    expect(lastLine(endpointRun.stdout)).toMatch(/^ep_test_[A-Za-z0-9]{32,}$/);

    // The new key works over HTTP, in its tenant only.
    const endpoint = await fetch(`${base}/admin/v1/endpoints`, {
      method: 'POST',
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the CLI key', path: '/api/v1/cli' }),
    });
    expect(endpoint.status).toBe(201);
    const acme = await (await fetch(`${base}/admin/v1/endpoints`, { headers: { 'x-api-key': ADMIN_KEY } })).json();
    expect(acme.data).toEqual([]);

    const listed = await cli('key', 'list', '--tenant', 'beta');
    expect(listed.code).toBe(0);
    const opsLine = listed.stdout.split('\n').find((line) => line.endsWith('ops'))!;
    expect(opsLine).toContain(`…${adminKey.slice(-4)}`);
    expect(opsLine).toContain('ReadWrite');
    expect(opsLine).toContain('Active');
    expect(listed.stdout).not.toContain(adminKey);
    const keyId = opsLine.split(/\s+/)[0];

    const malformed = await cli('key', 'revoke', '--tenant', 'beta', 'ops');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('<key-id> must be a key id as shown by key list');
    const revoked = await cli('key', 'revoke', '--tenant', 'beta', keyId);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked key ${keyId}`);
    const refused = await fetch(`${base}/admin/v1/endpoints`, { headers: { 'x-api-key': adminKey } });
    expect(refused.status).toBe(401);
  }, 240_000);

  it('refuses a second service on the same data directory with a clear message', async () => {
    const second = start({ DATA_DIR: dataDir }, await freePort());
    expect(await second.exited).toBe(1);
    expect(second.stderr).toEqual([
      `The data directory ${dataDir} is in use by process ${service.child.pid}; only one process may open an embedded database`,
    ]);
  });

  it('logs JSON lines with request ids and never a key', () => {
    const entries = service.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = entries.filter((entry) => entry.msg === 'request');
    expect(requests.length).toBeGreaterThan(5);
    for (const entry of requests) expect(entry.requestId).toEqual(expect.any(String));
    expect(service.stdout.join('\n')).not.toContain(ADMIN_KEY);
    expect(service.stdout.join('\n')).not.toContain(ADMIN_KEY.slice(4));
  });

  it('exits 0 on SIGTERM, after which the CLI opens the data directory itself', async () => {
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'promptgate.sock'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'promptgate.pid'))).toBe(false);

    const listed = await cli('key', 'list', '--tenant', 'beta');
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/ops$/m);
    expect(listed.stdout.split('\n').find((line) => line.endsWith('ops'))).toContain('Revoked');
  }, 120_000);
});
