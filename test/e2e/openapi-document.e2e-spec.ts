import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_INTEGER } from '../../src/common/http/integer-bounds';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';

/**
 * The service's OpenAPI document is what the dashboard's typed client is generated from, so it must say the whole
 * truth. It is read from the built service (the Swagger CLI plugin types the DTOs in `nest build` only) by the same
 * script that generates the client: the committed client must equal what the document generates today, the document
 * must lint clean, and it must state what the service does.
 */
const ROOT = path.join(__dirname, '..', '..');
const FAILURE_REF = '#/components/schemas/FailureEnvelope';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Json = Record<string, any>;
interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  operation: Json;
}

describe('the OpenAPI document', () => {
  let document: Json;
  let operations: Operation[];
  let admin: Operation[];
  let directory: string;

  beforeAll(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-openapi-document-'));
    const file = path.join(directory, 'openapi.json');
    const run = spawnSync(process.execPath, ['scripts/openapi-client.mjs', '--check', '--document', file], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 150_000,
    });
    // The drift test: the committed client types are what today's document generates.
    if (run.status !== 0)
      throw new Error(`scripts/openapi-client.mjs --check failed (${run.status}):\n${run.stderr}${run.error ?? ''}`);
    document = JSON.parse(fs.readFileSync(file, 'utf8'));
    operations = Object.entries(document.paths as Json).flatMap(([route, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({ method, path: route, operation: item[method] })),
    );
    admin = operations.filter((each) => each.path.startsWith('/admin/'));
  }, 180_000);

  afterAll(() => {
    if (directory) fs.rmSync(directory, { recursive: true, force: true });
  });

  const schemas = () => document.components.schemas as Record<string, Json>;
  const named = (name: string) => operations.find((each) => each.operation.operationId === name)!;
  const parameter = (name: string, parameterName: string) =>
    (named(name).operation.parameters as Json[]).find((each) => each.name === parameterName)!;
  const resolve = (schema: Json): Json => (schema.$ref ? schemas()[schema.$ref.split('/').pop()] : schema);

  it('matches the committed client and lints clean with the recommended rules', () => {
    const lint = spawnSync(
      path.join(ROOT, 'node_modules', '.bin', 'redocly'),
      ['lint', path.join(directory, 'openapi.json'), '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    const report = JSON.parse(lint.stdout);
    const problems = (report.problems as Json[]).map(
      (problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0].pointer}: ${problem.message}`,
    );
    expect(problems.filter((problem) => problem.startsWith('error'))).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  describe('operations', () => {
    it('are named for the reader and each has a summary and a defined tag', () => {
      const ids = operations.map((each) => each.operation.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
      expect(ids.filter((id) => /Controller/.test(id))).toEqual([]);
      expect(ids).toEqual(
        expect.arrayContaining([
          'createEndpoint',
          'listEndpoints',
          'getEndpoint',
          'updateEndpoint',
          'deleteEndpoint',
          'restoreEndpoint',
          'addInputField',
          'setDefaultPrompt',
          'runTest',
          'getSession',
          'listModels',
          'validatePrompt',
          'compareVersions',
          'getStats',
          'listLogs',
          'createKey',
        ]),
      );
      const tags = new Map((document.tags as Json[]).map((tag) => [tag.name, tag.description]));
      for (const { operation } of operations) {
        expect(typeof operation.summary === 'string' && operation.summary.length > 0).toBe(true);
        for (const tag of operation.tags) expect(tags.get(tag)).toEqual(expect.any(String));
      }
    });

    it('describe the keys as opaque, on a relative server', () => {
      expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
      const { bearer, 'api-key': apiKey } = document.components.securitySchemes;
      expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer', description: expect.stringMatching(/opaque/) });
      expect(bearer.bearerFormat).toBeUndefined();
      expect(apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
      for (const { operation } of admin)
        expect(operation.security).toEqual(expect.arrayContaining([{ 'api-key': [] }, { bearer: [] }]));
      for (const probe of ['getLiveness', 'getReadiness']) {
        expect(named(probe).operation.security).toEqual([]);
        expect(Object.keys(named(probe).operation.responses)).not.toContain('401');
      }
    });
  });

  describe('errors', () => {
    it('are one FailureEnvelope component, referenced by every failure and inlined nowhere', () => {
      expect(schemas().FailureEnvelope).toMatchObject({
        type: 'object',
        required: ['succeeded', 'messages', 'data'],
        properties: {
          succeeded: { type: 'boolean', enum: [false] },
          messages: { type: 'array', items: { type: 'string' } },
        },
      });
      let inline = 0;
      for (const { operation } of admin) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          if (Number(status) < 400) continue;
          expect(response.content['application/json'].schema).toEqual({ $ref: FAILURE_REF });
        }
      }
      const visit = (value: unknown): void => {
        if (!value || typeof value !== 'object') return;
        const record = value as Json;
        if (record.properties?.succeeded?.enum?.[0] === false) inline++;
        Object.values(record).forEach(visit);
      };
      visit(document.paths);
      expect(inline).toBe(0);
    });

    it('are only the statuses each operation can answer', () => {
      for (const { method, path: route, operation } of admin) {
        const where = `${method.toUpperCase()} ${route}`;
        const statuses = Object.keys(operation.responses);
        // Every admin route: a key is needed (401), admin keys only (403), a per-key limit (429), the database (503).
        expect({ where, statuses }).toEqual({ where, statuses: expect.arrayContaining(['401', '403', '429', '503']) });
        const hasBody = Boolean(operation.requestBody);
        const hasInput = hasBody || (operation.parameters ?? []).length > 0;
        const looksUpId =
          /\{/.test(route) ||
          ['listPrompts', 'validatePrompt', 'createPrompt', 'createBudget'].includes(operation.operationId);
        expect({ where, 400: statuses.includes('400') }).toEqual({ where, 400: hasInput });
        expect({ where, 413: statuses.includes('413') }).toEqual({ where, 413: hasBody });
        expect({ where, 404: statuses.includes('404') }).toEqual({ where, 404: looksUpId });
        if (method === 'get') expect({ where, 409: statuses.includes('409') }).toEqual({ where, 409: false });
        const refusesReadOnly =
          method !== 'get' && !['validatePrompt', 'runTest', 'streamTest'].includes(operation.operationId);
        expect({ where, readOnly: /ReadOnly/.test(operation.responses['403'].description) }).toEqual({
          where,
          readOnly: refusesReadOnly,
        });
      }
      expect(Object.keys(named('listLogs').operation.responses).sort()).toEqual([
        '200',
        '400',
        '401',
        '403',
        '429',
        '503',
      ]);
      expect(Object.keys(named('createEndpoint').operation.responses)).toEqual(expect.arrayContaining(['409', '413']));
      expect(Object.keys(named('getSession').operation.responses).sort()).toEqual(['200', '401', '403', '429', '503']);
    });

    it('document the headers the service sends', () => {
      for (const { operation } of operations) {
        for (const response of Object.values(operation.responses as Record<string, Json>)) {
          expect(response.headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/RequestId' });
        }
      }
      for (const { operation } of admin) {
        const success = Object.entries(operation.responses as Record<string, Json>).find(([status]) =>
          status.startsWith('2'),
        )![1];
        const limited = operation.responses['429'];
        for (const headers of [success.headers, limited.headers]) {
          expect(Object.keys(headers)).toEqual(
            expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
          );
        }
        expect(limited.headers['Retry-After']).toEqual({ $ref: '#/components/headers/RetryAfter' });
        expect(operation.responses['503'].headers['Retry-After']).toBeDefined();
      }
      expect(named('listEndpoints').operation.responses['200'].headers.Link).toBeDefined();
      expect(named('listKeys').operation.responses['200'].headers.Link).toBeDefined();
      expect(document.components.headers.RateLimitReset.schema).toEqual({ type: 'integer', minimum: 0 });
    });
  });

  describe('schemas', () => {
    /** Every property schema of the components and every parameter schema, with where it is. */
    function everySchema(): [string, Json][] {
      const found: [string, Json][] = [];
      const visit = (where: string, schema: Json | undefined) => {
        if (!schema || schema.$ref) return;
        found.push([where, schema]);
        for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>))
          visit(`${where}.${name}`, property);
        if (schema.items) visit(`${where}[]`, schema.items);
        if (typeof schema.additionalProperties === 'object') visit(`${where}{}`, schema.additionalProperties);
        for (const part of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
          visit(where, part);
      };
      for (const [name, schema] of Object.entries(schemas())) visit(name, schema);
      for (const { operation } of operations) {
        for (const each of operation.parameters ?? []) visit(`${operation.operationId}(${each.name})`, each.schema);
      }
      return found;
    }

    it('declare values that may be any JSON as the empty schema, never as an object without properties', () => {
      const anyJson = { description: expect.any(String) };
      expect(schemas().CreateInputFieldDto.properties.defaultValue).toEqual(anyJson);
      expect(schemas().UpdateInputFieldDto.properties.defaultValue).toEqual(anyJson);
      expect(schemas().InputFieldResponse.properties.defaultValue).toEqual(anyJson);
      expect(schemas().TestRunDto.properties.inputs).toEqual(anyJson);
      expect(schemas().ExecutionLogDetailResponse.properties.inputs).toEqual(anyJson);
      expect(schemas().ExecutionLogDetailResponse.properties.parsedOutput).toEqual(anyJson);
      expect(schemas().SettingChangeResponse.properties.from).toEqual(anyJson);
      expect(schemas().SettingChangeResponse.properties.to).toEqual(anyJson);
      const shapeless = everySchema().filter(
        ([, schema]) =>
          schema.type === 'object' &&
          !schema.properties &&
          schema.additionalProperties === undefined &&
          !schema.enum &&
          // A nullable reference to a named schema is `{type: object, nullable, allOf: [{$ref}]}`: shaped by the ref.
          !schema.allOf,
      );
      expect(shapeless.map(([where]) => where)).toEqual([]);
      expect(
        everySchema()
          .filter(([, schema]) => schema.format === 'any-json')
          .map(([where]) => where),
      ).toEqual([]);
    });

    it('let a generated client pass any JSON where any JSON is accepted', () => {
      // The values the service accepts compile against the committed client types, under strict TypeScript.
      const file = path.join(directory, 'any-json.ts');
      const types = path.join(ROOT, 'dashboard', 'src', 'api', 'schema');
      fs.writeFileSync(
        file,
        `import type { components } from ${JSON.stringify(types)};\n` +
          `type S = components['schemas'];\n` +
          `export const field: S['CreateInputFieldDto'] = { name: 'n', dataType: 'integer', defaultValue: 3 };\n` +
          `export const text: S['UpdateInputFieldDto'] = { defaultValue: 'x' };\n` +
          `export const run: S['TestRunDto'] = { promptId: '00000000-0000-4000-8000-000000000000', inputs: { text: 'x' } };\n` +
          `export const list: S['TestRunDto'] = { promptId: '00000000-0000-4000-8000-000000000000', inputs: [1, 'two', null] };\n` +
          `export const endpoint: S['CreateEndpointDto'] = { name: 'n', path: '/api/v1/n', visibility: 'Private', timeoutSeconds: 30 };\n`,
      );
      const tsc = spawnSync(
        process.execPath,
        [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--skipLibCheck', file],
        {
          cwd: directory,
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    }, 60_000);

    it('type integers as integers with the bounds the service validates, in requests and responses', () => {
      const create = schemas().CreateEndpointDto.properties;
      expect(create.cacheDurationSeconds).toMatchObject({ type: 'integer', minimum: 1, maximum: 2592000 });
      expect(create.timeoutSeconds).toMatchObject({ type: 'integer', minimum: 1, maximum: 600 });
      for (const limit of ['rateLimitPerMinute', 'rateLimitPerHour', 'rateLimitPerDay']) {
        expect(create[limit]).toMatchObject({ type: 'integer', nullable: true, minimum: 1, maximum: MAX_INTEGER });
        expect(schemas().EndpointResponse.properties[limit]).toMatchObject({ type: 'integer', nullable: true });
        expect(schemas().CreateKeyDto.properties[limit]).toMatchObject({
          type: 'integer',
          minimum: 1,
          maximum: MAX_INTEGER,
        });
        expect(schemas().KeyResponse.properties[limit]).toMatchObject({ type: 'integer' });
      }
      expect(schemas().EndpointResponse.properties.cacheDurationSeconds).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 2592000,
      });
      expect(schemas().CreatePromptDto.properties.maxTokens).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 2_000_000,
      });
      expect(schemas().CreateInputFieldDto.properties.maxLength).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: MAX_INTEGER,
      });
      expect(schemas().PromptVersionResponse.properties.versionNumber).toMatchObject({ type: 'integer', minimum: 1 });
      expect(schemas().ExecutionLogResponse.properties.inputTokens).toMatchObject({
        type: 'integer',
        nullable: true,
        minimum: 0,
      });
      expect(schemas().ExecutionLogPageResponse.properties.total).toMatchObject({ type: 'integer' });
      for (const end of ['from', 'to'])
        expect(parameter('compareVersions', end).schema).toEqual({ type: 'integer', minimum: 1, maximum: MAX_INTEGER });
      expect(parameter('getVersion', 'versionNumber').schema).toEqual({
        type: 'integer',
        minimum: 1,
        maximum: MAX_INTEGER,
      });
      expect(parameter('listLogs', 'pageSize').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
      // Whole-number fields are never plain numbers: those left are the decimals (temperature and a model's highest
      // temperature, prices, rates, bounds, a score's value, a score's mean and the bounds of its interval, a judge
      // check's threshold).
      const numbers = everySchema()
        .filter(([, schema]) => schema.type === 'number')
        .map(([where]) => where.split('.').pop());
      expect(new Set(numbers)).toEqual(
        new Set([
          'minimum',
          'maximum',
          'temperature',
          'maxTemperature',
          'costUsd',
          'passRate',
          'baselinePassRate',
          'minPassRate',
          'p50',
          'p95',
          'errorRate',
          'cacheHitRate',
          'inputPerMillionTokens',
          'outputPerMillionTokens',
          'perImage',
          'value',
          'mean',
          'ci95[]',
          'limitUsd',
          'spentUsd',
          'reservedUsd',
          'threshold',
          'remainingUsd',
        ]),
      );
    });

    it('name their enums and formats', () => {
      expect(resolve(parameter('listLogs', 'source').schema)).toEqual({
        type: 'string',
        enum: ['Api', 'TestPage', 'Internal', 'Eval'],
      });
      expect(resolve(parameter('listLogs', 'status').schema)).toEqual({ type: 'string', enum: ['success', 'error'] });
      expect(resolve(parameter('getStats', 'interval').schema)).toEqual({ type: 'string', enum: ['hour', 'day'] });
      for (const operation of ['listLogs', 'getStats']) {
        for (const end of ['from', 'to'])
          expect(parameter(operation, end).schema).toEqual({ type: 'string', format: 'date-time' });
      }
      const log = schemas().ExecutionLogResponse.properties;
      expect(resolve(log.source.allOf?.[0] ?? log.source).enum).toEqual(['Api', 'TestPage', 'Internal', 'Eval']);
      expect(resolve(log.status).enum).toEqual(['success', 'error']);
      expect(log.keyEnvironment).toMatchObject({ type: 'string', nullable: true, enum: ['live', 'test', null] });
      expect(log.errorCode).toMatchObject({
        type: 'string',
        nullable: true,
        enum: expect.arrayContaining([
          'timeout',
          'upstream_error',
          'validation_error',
          'prompt_error',
          'internal_error',
          null,
        ]),
      });
      expect(schemas().Visibility).toEqual({ type: 'string', enum: ['Public', 'Private'] });
      expect(schemas().KeyType).toEqual({ type: 'string', enum: ['endpoint', 'admin'] });
      expect(schemas().Permission).toEqual({ type: 'string', enum: ['ReadWrite', 'ReadOnly'] });
      expect(schemas().KeyEnvironment).toEqual({ type: 'string', enum: ['live', 'test'] });
      expect(schemas().KeyStatus).toEqual({ type: 'string', enum: ['Active', 'Revoked'] });
      expect(schemas().PromptStatus).toEqual({ type: 'string', enum: ['Draft', 'Live', 'Archived'] });
      expect(schemas().InputDataType.enum).toContain('integer');
      expect(resolve(schemas().EndpointResponse.properties.visibility)).toEqual(schemas().Visibility);
      expect(resolve(schemas().CreateInputFieldDto.properties.dataType)).toEqual(schemas().InputDataType);

      for (const { operation } of operations) {
        for (const each of operation.parameters ?? []) {
          if (each.in === 'path' && /^(id|fieldId)$/.test(each.name))
            expect(each.schema).toEqual({ type: 'string', format: 'uuid' });
        }
      }
      expect(schemas().EndpointResponse.properties.id).toMatchObject({ type: 'string', format: 'uuid' });
      expect(schemas().EndpointResponse.properties.defaultPromptId).toMatchObject({ format: 'uuid', nullable: true });
      expect(schemas().KeyResponse.properties.endpointIds.items).toEqual({ type: 'string', format: 'uuid' });
      expect(schemas().EndpointResponse.properties.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
    });

    it('close request bodies: unknown properties are refused', () => {
      for (const { operation } of operations.filter((each) => each.operation.requestBody)) {
        expect(resolve(operation.requestBody.content['application/json'].schema)).toMatchObject({
          type: 'object',
          additionalProperties: false,
        });
      }
    });
  });

  describe('against the running service', () => {
    const { t, tenant } = useTestApp();

    /** The operation's path with every parameter filled: an unknown id, version 1. */
    const target = ({ path: route }: Operation) =>
      route.replace(/\{versionNumber\}/g, '1').replace(/\{[^}]+\}/g, () => randomUUID());
    const send = (operation: Operation, key?: string) => {
      const call = t.http[operation.method](target(operation));
      if (key) call.set(auth(key));
      return operation.operation.requestBody ? call.send({}) : call;
    };
    const documented = (operation: Operation) => Object.keys(operation.operation.responses).map(Number);

    it('answers each admin operation with a documented status, whatever the key', async () => {
      for (const operation of admin) {
        const where = `${operation.method.toUpperCase()} ${operation.path}`;
        const none = await send(operation);
        expect({ where, status: none.status }).toEqual({ where, status: 401 });
        const endpointKey = await send(operation, tenant.endpointKey);
        expect({ where, status: endpointKey.status }).toEqual({ where, status: 403 });
        const readOnly = await send(operation, tenant.readOnly);
        const refusesReadOnly = /ReadOnly/.test(operation.operation.responses['403'].description);
        expect({ where, readOnlyRefused: readOnly.status === 403 }).toEqual({
          where,
          readOnlyRefused: refusesReadOnly,
        });
        const readWrite = await send(operation, tenant.admin);
        expect({ where, documented: documented(operation).includes(readWrite.status) }).toEqual({
          where,
          documented: true,
        });
        for (const name of ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          expect({ where, name, sent: readWrite.headers[name] !== undefined }).toEqual({ where, name, sent: true });
        }
      }
    }, 120_000);

    it('refuses an unknown property of a request body, as additionalProperties false says', async () => {
      const answer = await t.http
        .post('/admin/v1/endpoints')
        .set(auth(tenant.admin))
        .send({ name: 'E', path: '/api/v1/closed', colour: 'red' });
      expect(answer.status).toBe(400);
      expect(answer.body.messages).toEqual(['property colour should not exist']);
    });
  });
});
