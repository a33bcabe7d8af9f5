import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A JSON schema as the service's OpenAPI document writes it. */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

/** One admin operation of the document, its request body schema resolved. */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** The path template, `/admin/v1/endpoints/{id}`. */
  path: string;
  parameters: Parameter[];
  /** The name of the body's schema (`CreateEndpointDto`), when the operation takes a body. */
  bodySchemaName?: string;
  body?: Schema;
  isSecured: boolean;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: any; security?: unknown[] }>>;
  components: { schemas: Record<string, Schema> };
}

const ROOT = path.join(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const BUILD_INFO = path.join(ROOT, 'dist', 'tsconfig.tsbuildinfo');

/**
 * The service's OpenAPI document with its request schemas. Those come from the Swagger CLI plugin, which runs in
 * `nest build` only (tests compile with swc, where every DTO schema is empty), so the document is read from the built
 * service: started once on a temporary DATA_DIR and a free port, then stopped. It is read synchronously, because Jest
 * names the tests (one per operation) before any of them runs, and kept in the temporary directory per build, so the
 * suite's files share one start.
 */
export function builtOpenApiDocument(): OpenApiDocument {
  if (!fs.existsSync(MAIN))
    throw new Error(`${MAIN} is missing: run "npm run build" first (npm run test:fuzz does it)`);
  const build = fs.statSync(fs.existsSync(BUILD_INFO) ? BUILD_INFO : MAIN);
  const cached = path.join(os.tmpdir(), `promptgate-fuzz-openapi-${Math.round(build.mtimeMs)}-${build.size}.json`);
  if (!fs.existsSync(cached)) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-fuzz-docs-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' };
      for (const name of ['DATABASE_URL', 'REDIS_URL', 'INITIAL_ADMIN_KEY', 'INITIAL_TENANT', 'PORT', 'HOST'])
        delete env[name];
      const result = spawnSync(process.execPath, ['-e', FETCH_DOCUMENT, MAIN, cached], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
      if (result.status !== 0)
        throw new Error(`The built service did not serve /docs-json: ${result.stderr || result.error}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return JSON.parse(fs.readFileSync(cached, 'utf8'));
}

/** Starts `argv[1]` (dist/src/main.js) on a free port, writes its /docs-json to `argv[2]`, and stops it by its pid. */
const FETCH_DOCUMENT = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const [main, target] = process.argv.slice(1);
const server = net.createServer().listen(0, '127.0.0.1', async () => {
  const port = server.address().port;
  server.close();
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 90000;
  try {
    while (Date.now() < deadline && child.exitCode === null) {
      try {
        const response = await fetch('http://127.0.0.1:' + port + '/docs-json');
        if (response.status === 200) {
          fs.writeFileSync(target + '.' + process.pid, await response.text());
          fs.renameSync(target + '.' + process.pid, target);
          return;
        }
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    process.exitCode = 1;
  } finally {
    child.kill('SIGKILL');
  }
});
`;

/** `method path` of every operation, for comparing two documents. */
export function operationKeys(document: OpenApiDocument): string[] {
  return Object.entries(document.paths)
    .flatMap(([route, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`))
    .sort();
}

/** Resolves `$ref`s (and a single-member `allOf`, Swagger's way of annotating one) in place of their schemas. */
export function resolveSchema(document: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  if (schema.$ref)
    return resolveSchema(document, document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]);
  if (schema.allOf?.length === 1) return { ...schema, ...resolveSchema(document, schema.allOf[0]), allOf: undefined };
  return schema;
}

/** Every operation under /admin/, in document order. */
export function adminOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [route, methods] of Object.entries(document.paths)) {
    if (!route.startsWith('/admin/')) continue;
    for (const [method, operation] of Object.entries(methods)) {
      const bodyRef: Schema | undefined = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method as Operation['method'],
        path: route,
        parameters: operation.parameters ?? [],
        bodySchemaName: bodyRef?.$ref?.replace('#/components/schemas/', ''),
        body: resolveSchema(document, bodyRef),
        isSecured: (operation.security ?? []).length > 0,
      });
    }
  }
  return operations;
}
