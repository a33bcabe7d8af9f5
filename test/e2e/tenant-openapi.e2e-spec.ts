import SwaggerParser from '@apidevtools/swagger-parser';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { KeysService } from '../../src/modules/keys/keys.service';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant } from '../support/seed';

type Json = Record<string, any>;

const NODE_MODULES = path.join(__dirname, '..', '..', 'node_modules');
const ERROR_STATUSES = ['400', '401', '403', '404', '409', '413', '422', '429', '502', '503', '504'];

/** The execution API's route that scores an execution: in every tenant document. */
const SCORES_PATH = '/api/v1/_scores';

/**
 * `GET /api/v1/openapi.json`: the OpenAPI document of the endpoints a key may call, from which the applications that
 * call them generate a client. It must validate, generate types a strict TypeScript client compiles against, and that
 * client must call the endpoint; it lists exactly what the key may call, and its ETag follows the definitions.
 */
describe('tenant OpenAPI documents', () => {
  const { t, tenant } = useTestApp({ listen: true });
  let port: number;
  let restrictedKey: string;
  let summarize: { id: string; path: string };
  let chat: { id: string; path: string };
  let internal: { id: string; path: string };
  let picture: { id: string; path: string };
  let directory: string;

  beforeAll(async () => {
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    const suffix = Date.now().toString(36);
    summarize = await createEndpoint(t, tenant.admin, {
      path: `/api/v1/summarize-text-${suffix}`,
      description: 'Summarizes a text in a few sentences',
      inputs: [
        { name: 'text', dataType: 'string', isRequired: true, maxLength: 500, description: 'The text to summarize' },
        { name: 'sentences', dataType: 'integer', isRequired: true, minimum: 1, maximum: 10, defaultValue: 3 },
        { name: 'temperature', dataType: 'number', minimum: 0, maximum: 1.5 },
        { name: 'formal', dataType: 'boolean' },
        { name: 'context', dataType: 'object' },
        { name: 'tags', dataType: 'array' },
        { name: 'photo', dataType: 'image', description: 'A photo of the page' },
      ],
      outputs: [
        { name: 'summary', dataType: 'string', description: 'The summary' },
        { name: 'wordCount', dataType: 'integer' },
        { name: 'details', dataType: 'object' },
      ],
    });
    await createPrompt(t, tenant.admin, summarize.id, {
      template: 'Summarize in {{ inputs.sentences }}: {{ inputs.text }}',
    });
    chat = await createEndpoint(t, tenant.admin, {
      path: `/api/v1/chat-${suffix}`,
      inputs: [{ name: 'message', dataType: 'string', isRequired: true }],
    });
    await createPrompt(t, tenant.admin, chat.id, { template: 'Answer: {{ inputs.message }}' });
    internal = await createEndpoint(t, tenant.admin, { path: `/api/v1/internal-${suffix}`, visibility: 'Private' });
    picture = await createEndpoint(t, tenant.admin, {
      path: `/api/v1/picture-${suffix}`,
      inputs: [{ name: 'subject', dataType: 'string', isRequired: true }],
      outputs: [{ name: 'image', dataType: 'image' }],
    });
    const restricted = await t.app
      .get(KeysService)
      .create(tenant.id, { name: 'restricted', type: 'endpoint', environment: 'live', endpointIds: [chat.id] });
    restrictedKey = restricted.key;
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-tenant-openapi-'));
    // The client's imports (openapi-fetch, @types/node) resolve as they would in an application's own project.
    fs.symlinkSync(NODE_MODULES, path.join(directory, 'node_modules'), 'dir');
  });
  afterAll(async () => {
    if (directory) fs.rmSync(directory, { recursive: true, force: true });
  });

  const documentOf = (key: string) => t.http.get('/api/v1/openapi.json').set(auth(key));
  /** The endpoints a document describes (every document also has the scores route). */
  const pathsOf = (body: Json) =>
    Object.keys(body.paths as Json)
      .filter((each) => each !== SCORES_PATH)
      .sort();

  it('answers 401 without a key, with an unknown key, and with a key of another tenant on a tenant host', async () => {
    const none = await t.http.get('/api/v1/openapi.json');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
    expect(none.headers['x-request-id']).toBeDefined();
    expect((await documentOf('ep_live_nonsense')).status).toBe(401);
    const other = await seedTenant(t.app);
    expect((await documentOf(other.admin).set('Host', `${tenant.slug}.localhost`)).status).toBe(401);
  });

  it('is an OpenAPI 3.1 document that validates, with the key scheme and the tenant base URL as its server', async () => {
    const res = await documentOf(tenant.admin).set('Host', `localhost:${port}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    const document = res.body;
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([
      { url: `http://${tenant.slug}.localhost:${port}`, description: expect.any(String) },
    ]);
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(document.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    );
    // On its own host, and behind a TLS-terminating proxy.
    const own = await documentOf(tenant.admin)
      .set('Host', `${tenant.slug}.localhost:8443`)
      .set('X-Forwarded-Proto', 'https');
    expect(own.body.servers[0].url).toBe(`https://${tenant.slug}.localhost:8443`);
  });

  it('describes each endpoint as one operation: a camelCase operationId, the input fields as its body, the output fields as its answer', async () => {
    const document: Json = (await documentOf(tenant.admin)).body;
    const operation = document.paths[summarize.path].post;
    expect(Object.keys(document.paths[summarize.path])).toEqual(['post']);
    expect(operation.operationId).toMatch(/^summarizeText[A-Z][a-z0-9]+$/);
    expect(operation.summary).toBe(`Endpoint ${summarize.path}`);
    expect(operation.description).toBe('Summarizes a text in a few sentences');
    const body = operation.requestBody.content['application/json'];
    expect(operation.requestBody.required).toBe(true);
    expect(body.schema.required).toEqual(['text']);
    expect(body.schema.properties).toEqual({
      text: { type: 'string', maxLength: 500, description: 'The text to summarize' },
      sentences: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
      temperature: { type: 'number', minimum: 0, maximum: 1.5 },
      formal: { type: 'boolean' },
      context: { type: 'object', additionalProperties: true },
      tags: { type: 'array' },
      photo: {
        type: 'string',
        pattern: '^data:(?:image/png|image/jpeg|image/webp|image/gif);base64,',
        description: expect.stringMatching(/^A photo of the page\n\nA PNG, JPEG, WebP or GIF image as a data URI/),
      },
    });
    expect(body.example).toEqual(
      expect.objectContaining({
        text: 'your text',
        sentences: 3,
        photo: expect.stringMatching(/^data:image\/png;base64,/),
      }),
    );
    const success = operation.responses['200'];
    expect(success.content['application/json'].schema).toEqual({
      type: 'object',
      properties: {
        summary: { type: 'string', description: 'The summary' },
        wordCount: { type: 'integer' },
        details: { type: 'object', additionalProperties: true },
      },
      required: ['summary', 'wordCount', 'details'],
      additionalProperties: false,
    });
    expect(Object.keys(success.headers)).toEqual([
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-Cache',
      'X-Prompt',
      'X-Model',
      'X-Attempts',
    ]);
    // Text endpoints stream too; image endpoints do not.
    expect(Object.keys(success.content)).toEqual(['application/json', 'text/event-stream']);
    expect(Object.keys(document.paths[picture.path].post.responses['200'].content)).toEqual(['application/json']);
    // Without output fields: any JSON value. An image endpoint: the generated images.
    expect(document.paths[chat.path].post.responses['200'].content['application/json'].schema).toEqual({
      description: expect.any(String),
    });
    const images = document.paths[picture.path].post.responses['200'].content['application/json'].schema;
    expect(images.required).toEqual(['generatedImages', 'usage']);
    // Every error status shares one schema, the execution API's {error, message, field?}.
    expect(Object.keys(operation.responses).sort()).toEqual(['200', ...ERROR_STATUSES].sort());
    for (const status of ERROR_STATUSES) {
      expect(operation.responses[status].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ExecutionError',
      });
      expect(operation.responses[status].headers['X-Request-Id']).toBeDefined();
    }
    expect(operation.responses['429'].headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(document.components.schemas.ExecutionError.required).toEqual(['error', 'message']);
    const ids = Object.values(document.paths as Json).map((item) => item.post.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists the endpoints the key may call: every one for admin keys, Public ones for endpoint keys, its own for a restricted key', async () => {
    const admin = pathsOf((await documentOf(tenant.admin)).body);
    expect(admin).toEqual([chat.path, internal.path, picture.path, summarize.path].sort());
    expect(pathsOf((await documentOf(tenant.readOnly)).body)).toEqual(admin);
    const endpointKey = pathsOf((await documentOf(tenant.endpointKey)).body);
    expect(endpointKey).toEqual([chat.path, picture.path, summarize.path].sort());
    expect(pathsOf((await documentOf(restrictedKey)).body)).toEqual([chat.path]);
    for (const key of [tenant.admin, tenant.endpointKey, restrictedKey]) {
      expect((await documentOf(key)).body.paths[SCORES_PATH].post.operationId).toBe('recordScore');
    }
    // The same rule refuses the executions the document leaves out.
    expect((await t.http.post(summarize.path).set(auth(restrictedKey)).send({ text: 'x' })).status).toBe(403);
    expect((await t.http.post(internal.path).set(auth(tenant.endpointKey)).send({})).status).toBe(403);
  });

  it('has a strong ETag: If-None-Match answers 304, and the document changes exactly when a definition does', async () => {
    const first = await documentOf(tenant.endpointKey);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await documentOf(tenant.endpointKey).set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await documentOf(tenant.endpointKey).set('If-None-Match', '"something-else"')).status).toBe(200);

    // A prompt is not part of the definitions: same document.
    await createPrompt(t, tenant.admin, chat.id, { template: 'Reply: {{ inputs.message }}' }, 'Live');
    expect((await documentOf(tenant.endpointKey)).headers.etag).toBe(etag);

    // A field changes: a new document, with the new bound.
    const endpoint = await t.http.get(`/admin/v1/endpoints/${chat.id}`).set(auth(tenant.admin));
    const message = endpoint.body.data.inputFields[0];
    const changed = await t.http
      .put(`/admin/v1/endpoints/${chat.id}/input-fields/${message.id}`)
      .set(auth(tenant.admin))
      .send({ maxLength: 2000 });
    expect(changed.status).toBe(200);
    const after = await documentOf(tenant.endpointKey).set('If-None-Match', etag);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.body.paths[chat.path].post.requestBody.content['application/json'].schema.properties.message).toEqual({
      type: 'string',
      maxLength: 2000,
    });
    expect(after.body.info.version).not.toBe(first.body.info.version);

    // A new endpoint appears, a deleted one goes.
    const extra = await createEndpoint(t, tenant.admin, {});
    expect(pathsOf((await documentOf(tenant.endpointKey)).body)).toContain(extra.path);
    expect((await t.http.delete(`/admin/v1/endpoints/${extra.id}`).set(auth(tenant.admin))).status).toBe(200);
    const final = await documentOf(tenant.endpointKey);
    expect(pathsOf(final.body)).not.toContain(extra.path);
    expect(final.headers.etag).toBe(after.headers.etag);
  });

  it('generates types with openapi-typescript that a strict client compiles against, and that client calls the endpoint', async () => {
    const document = (await documentOf(tenant.endpointKey)).body;
    const types = astToString(await openapiTS(document));
    fs.writeFileSync(path.join(directory, 'promptgate.d.ts'), types);
    fs.writeFileSync(path.join(directory, 'package.json'), JSON.stringify({ type: 'module' }));
    // The program the dashboard offers to copy, pointed at this test's server (Node's fetch does not resolve
    // *.localhost names).
    const shown = await t.http.get(`/admin/v1/endpoints/${summarize.id}/openapi`).set(auth(tenant.admin));
    expect(shown.status).toBe(200);
    const snippet: string = shown.body.data.snippets.typescript;
    const serverUrl: string = document.servers[0].url;
    expect(snippet).toContain(`baseUrl: "${serverUrl}"`);
    fs.writeFileSync(
      path.join(directory, 'client.ts'),
      snippet.replace(`baseUrl: "${serverUrl}"`, `baseUrl: "http://127.0.0.1:${port}"`),
    );
    expect(compile(directory, 'client.ts')).toEqual([]);

    // The types say something: a wrong body does not compile.
    fs.writeFileSync(
      path.join(directory, 'wrong.ts'),
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './promptgate';",
        "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });",
        `await client.POST(${JSON.stringify(summarize.path)}, { body: { text: 'x', sentences: 'three' } });`,
        `await client.POST(${JSON.stringify(summarize.path)}, { body: { sentences: 2 } });`,
        "await client.POST('/api/v1/not-an-endpoint', { body: {} });",
        "await client.POST('/api/v1/_scores', { body: { requestId: 'r', name: 'helpful' } });",
        'export {};',
      ].join('\n'),
    );
    const problems = compile(directory, 'wrong.ts');
    expect(problems).toHaveLength(4);

    // A score, typed by the document, compiles.
    fs.writeFileSync(
      path.join(directory, 'score.ts'),
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './promptgate';",
        "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });",
        "const { data } = await client.POST('/api/v1/_scores', { body: { requestId: 'r', name: 'helpful', value: true } });",
        'const value: boolean | number | string | undefined = data?.value;',
        'export { value };',
      ].join('\n'),
    );
    expect(compile(directory, 'score.ts')).toEqual([]);

    const output = await run(path.join(directory, 'client.js'), { ENDPOINT_KEY: tenant.endpointKey });
    expect(output).toContain("summary: 'Summarize in 3: your text'");
  }, 120_000);

  it('answers an endpoint operation and calls to copy on the admin API, for admin keys of the tenant', async () => {
    const res = await t.http
      .get(`/admin/v1/endpoints/${chat.id}/openapi`)
      .set(auth(tenant.readOnly))
      .set('Host', `localhost:${port}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    const tenantDocument = (await documentOf(tenant.admin)).body;
    expect(data.operationId).toBe(tenantDocument.paths[chat.path].post.operationId);
    expect(data.url).toBe(`http://${tenant.slug}.localhost:${port}${chat.path}`);
    expect(Object.keys(data.document.paths)).toEqual([chat.path]);
    expect(data.document.paths[chat.path]).toEqual(tenantDocument.paths[chat.path]);
    await expect(SwaggerParser.validate(structuredClone(data.document))).resolves.toBeTruthy();
    expect(data.snippets.curl).toBe(
      [
        `curl -X POST 'http://${tenant.slug}.localhost:${port}${chat.path}' \\`,
        '  -H "x-api-key: $ENDPOINT_KEY" \\',
        "  -H 'Content-Type: application/json' \\",
        `  -d '{"message":"your message"}'`,
      ].join('\n'),
    );
    expect((await t.http.get(`/admin/v1/endpoints/${chat.id}/openapi`).set(auth(tenant.endpointKey))).status).toBe(403);
    const other = await seedTenant(t.app);
    expect((await t.http.get(`/admin/v1/endpoints/${chat.id}/openapi`).set(auth(other.admin))).status).toBe(404);
  });

  it('serves Swagger UI at /api/v1/docs without a key; the page asks for one and fetches the document with it', async () => {
    const page = await t.http.get('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toContain('<script src="../../docs/swagger-ui-bundle.js"></script>');
    expect(page.text).toContain('<script src="docs/tenant-docs.js"></script>');
    const script = await t.http.get('/api/v1/docs/tenant-docs.js');
    expect(script.status).toBe(200);
    expect(script.text).toContain("fetch('openapi.json', { headers: { 'x-api-key': key }");
    expect(script.text).toContain("ui.preauthorizeApiKey('apiKey', key)");
    expect((await t.http.get('/api/v1/docs/tenant-docs.css')).status).toBe(200);
    // The files the page loads are there.
    const bundle = await t.http.get('/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect((await t.http.get('/docs/swagger-ui.css')).status).toBe(200);
    // Only these GETs skip the key: any other request under /api/v1 still needs one.
    expect((await t.http.post('/api/v1/docs').send({})).status).toBe(401);
    expect((await t.http.get('/api/v1/docs/other')).status).toBe(401);
  });

  it('never shadows an endpoint: executions are POST, and no endpoint path can be openapi.json', async () => {
    const docs = await createEndpoint(t, tenant.admin, {
      path: '/api/v1/docs',
      inputs: [{ name: 'q', dataType: 'string' }],
    });
    await createPrompt(t, tenant.admin, docs.id, { template: 'docs endpoint: {{ inputs.q }}' });
    const executed = await t.http.post('/api/v1/docs').set(auth(tenant.endpointKey)).send({ q: 'hi' });
    expect([executed.status, executed.body]).toEqual([200, 'docs endpoint: hi']);
    expect((await t.http.get('/api/v1/docs')).text).toContain('swagger-ui-bundle.js');
    expect((await documentOf(tenant.endpointKey)).body.paths['/api/v1/docs'].post.operationId).toBe('docs');
    const refused = await t.http
      .post('/admin/v1/endpoints')
      .set(auth(tenant.admin))
      .send({ name: 'Document', path: '/api/v1/openapi.json' });
    expect(refused.status).toBe(400);
  });
});

/** Type-checks and emits `file` of `directory` under `strict`, as an ES module; answers the diagnostics. */
function compile(directory: string, file: string): string[] {
  const program = ts.createProgram([path.join(directory, file)], {
    strict: true,
    noEmitOnError: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ['node'],
    skipLibCheck: true,
    outDir: directory,
  });
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length === 0) program.emit();
  return problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

function run(file: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { env: { ...process.env, ...env }, timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}
