import fc from 'fast-check';
import type { FuzzWorld } from './fuzz-world';
import { Repeat } from './json-text';
import type { SentRequest } from './raw-http';

/** Requests that change nothing the other cases rely on, to send with odd headers. */
export type BaseRequest =
  'adminRead' | 'adminValidate' | 'adminCreate' | 'execution' | 'health' | 'unknownAdmin' | 'unknownPath';

/** Which key a header carries: one of the tenant's, the other tenant's, or a made-up one. */
type KeyChoice = 'readWrite' | 'readOnly' | 'endpoint' | 'other' | 'made-up';

/** A header value: text, a key spliced into a pattern (`{key}`), or one value per line of a repeated header. */
type HeaderValue = string | Repeat | { pattern: string; key: KeyChoice } | HeaderValue[];

export interface HeaderCase {
  base: BaseRequest;
  headers: Record<string, HeaderValue>;
}

const key: fc.Arbitrary<KeyChoice> = fc.constantFrom(
  'readWrite',
  'readWrite',
  'readOnly',
  'endpoint',
  'other',
  'made-up',
);
const keyed = (...patterns: string[]) => fc.record({ pattern: fc.constantFrom(...patterns), key });

const hosts: fc.Arbitrary<HeaderValue> = fc.oneof(
  fc.constantFrom(
    'localhost',
    'LOCALHOST',
    'localhost.',
    'localhost:',
    'localhost:0',
    'localhost:99999',
    'localhost:abc',
    '127.0.0.1:1',
    '[::1]',
    '[::1]:80',
    '',
    ' ',
    '-',
    '.localhost',
    '..localhost',
    'a b',
    'évil.localhost',
    'evil.example',
    'localhost/admin',
    'localhost?x',
    'localhost#x',
    'user@localhost',
    '{tenant}.localhost',
    '{tenant}.localhost.',
    '{tenant}.localhost:3000',
    '{tenant}.localhost.:3000',
    'x.{tenant}.localhost',
    '{tenant}.localhost:abc',
    '{tenant}.localhost:3000:1',
    '{tenant}..localhost',
    '{TENANT}.LOCALHOST',
    '{other}.localhost',
    'nope.localhost',
  ),
  // A repeated Host is written byte by byte (RAW_REQUESTS): node:http sends one Host only.
  fc.constant(new Repeat('a', 2_000)),
);

const apiKeys: fc.Arbitrary<HeaderValue> = fc.oneof(
  keyed('{key}', ' {key}', '{key} ', '{key}\t', '{KEY}', '{key},{key}', '{key}x', 'x{key}', '{key};', '"{key}"'),
  fc.constantFrom(
    '',
    ' ',
    'epa_',
    'ep_live_',
    'ep_test_',
    'epa_' + 'x'.repeat(40),
    'ep_live_' + 'x'.repeat(40),
    'épa_clé',
    'null',
    'undefined',
    '%00',
  ),
  fc.integer({ min: 1, max: 8_000 }).map((count) => new Repeat('k', count)),
  fc.tuple(key, key).map(([first, second]) => [
    { pattern: '{key}', key: first },
    { pattern: '{key}', key: second },
  ]),
);

const authorizations: fc.Arbitrary<HeaderValue> = fc.oneof(
  keyed(
    'Bearer {key}',
    'Bearer  {key}',
    'Bearer {key} extra',
    'bearer {key}',
    'BEARER {key}',
    'Bearer\t{key}',
    ' Bearer {key}',
    'Bearer {key},',
    'Token {key}',
    'Basic {key}',
    'Bearer "{key}"',
  ),
  fc.constantFrom('Bearer', 'Bearer ', 'Bearer  ', 'Basic dXNlcjpwYXNz', 'Bearer null', 'Digest username="x"', ''),
  fc.constant(new Repeat('B', 8_000)),
);

const contentTypes: fc.Arbitrary<HeaderValue> = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'Application/Json; Charset=UTF-8',
  'application/json; charset=latin1',
  'application/json;charset=utf-16',
  'application/json; charset=nonsense',
  'application/json;;;',
  'application/json, text/plain',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'application/xml',
  'application/octet-stream',
  '*/*',
  '',
  ' ',
  'json',
  'application/',
  '/',
);

const otherHeaders: Record<string, fc.Arbitrary<HeaderValue>> = {
  'x-cache-bypass': fc.constantFrom('true', 'TRUE', ' true ', 'false', '1', 'yes', '', 'tru', 'x'.repeat(4_000)),
  'x-request-id': fc.constantFrom(
    '',
    'fuzz-id-1',
    'a'.repeat(129),
    'a'.repeat(128),
    '../../',
    'a b',
    'id\u00e9',
    '<script>',
  ),
  accept: fc.constantFrom('text/event-stream', 'application/xml', '*/*', 'application/json;q=0', '', 'text/html'),
  'content-encoding': fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x', 'gzip, gzip'),
  'accept-encoding': fc.constantFrom('gzip', 'br', '*', 'x'),
  'x-forwarded-for': fc.constantFrom('1.2.3.4', '127.0.0.1', 'x'),
  'x-forwarded-host': fc.constantFrom('{tenant}.localhost', 'evil.example'),
  origin: fc.constantFrom('http://evil.example', 'null'),
  cookie: fc.constantFrom('a=b', 'x'.repeat(2_000)),
  expect: fc.constantFrom('100-continue', 'nonsense'),
};

export const headerCase: fc.Arbitrary<HeaderCase> = fc.record({
  base: fc.constantFrom<BaseRequest>(
    'adminRead',
    'adminRead',
    'adminValidate',
    'adminCreate',
    'execution',
    'execution',
    'execution',
    'health',
    'unknownAdmin',
    'unknownPath',
  ),
  headers: fc.record(
    { host: hosts, 'x-api-key': apiKeys, authorization: authorizations, 'content-type': contentTypes, ...otherHeaders },
    { requiredKeys: [] },
  ),
});

function keyOf(world: FuzzWorld, choice: KeyChoice, base: BaseRequest): string {
  switch (choice) {
    case 'readWrite':
      return base === 'execution' ? world.tenant.endpoint : world.tenant.readWrite;
    case 'readOnly':
      return world.tenant.readOnly;
    case 'endpoint':
      return world.tenant.endpoint;
    case 'other':
      return world.other.readWrite;
    case 'made-up':
      return 'epa_' + 'Zz9'.repeat(13) + 'Q';
  }
}

function headerText(world: FuzzWorld, value: HeaderValue, base: BaseRequest): string | string[] {
  if (Array.isArray(value)) return value.map((item) => headerText(world, item, base) as string);
  if (value instanceof Repeat) return value.value;
  const text = typeof value === 'string' ? value : value.pattern;
  const apiKey = typeof value === 'string' ? '' : keyOf(world, value.key, base);
  return text
    .replaceAll('{key}', apiKey)
    .replaceAll('{KEY}', apiKey.toUpperCase())
    .replaceAll('{tenant}', world.tenant.slug)
    .replaceAll('{TENANT}', world.tenant.slug.toUpperCase())
    .replaceAll('{other}', world.other.slug);
}

export function headerRequest(world: FuzzWorld, fuzzCase: HeaderCase): SentRequest {
  const base = baseRequest(world, fuzzCase.base);
  const headers: Record<string, string | string[]> = { ...base.headers };
  for (const [name, value] of Object.entries(fuzzCase.headers)) {
    // A header the case sets replaces the base request's own (its key, its content type).
    if (name === 'authorization') delete headers['x-api-key'];
    headers[name] = headerText(world, value, fuzzCase.base);
  }
  return { ...base, headers };
}

let created = 0;

function baseRequest(world: FuzzWorld, base: BaseRequest): SentRequest {
  const json = { 'content-type': 'application/json' };
  const admin = { 'x-api-key': world.tenant.readWrite };
  switch (base) {
    case 'adminRead':
      return { method: 'GET', target: `/admin/v1/endpoints/${world.known.endpointId}`, headers: admin };
    case 'adminValidate':
      return {
        method: 'POST',
        target: '/admin/v1/prompts/validate',
        headers: { ...admin, ...json },
        body: JSON.stringify({ endpointId: world.known.endpointId, template: 'Hi {{ inputs.text }}' }),
      };
    case 'adminCreate':
      return {
        method: 'POST',
        target: '/admin/v1/endpoints',
        headers: { ...admin, ...json },
        body: JSON.stringify({
          name: 'from the header fuzz',
          path: `/api/v1/fz-h-${Date.now().toString(36)}-${++created}`,
        }),
      };
    case 'execution':
      return {
        method: 'POST',
        target: world.known.path,
        headers: { 'x-api-key': world.tenant.endpoint, ...json },
        body: JSON.stringify({ text: 'hi' }),
      };
    case 'health':
      return { method: 'GET', target: '/health', headers: {} };
    case 'unknownAdmin':
      return { method: 'GET', target: '/admin/v1/nothing-here', headers: admin };
    case 'unknownPath':
      return { method: 'POST', target: '/nothing/here', headers: json, body: '{}' };
  }
}

/**
 * Whole requests written byte by byte: what node:http will not build (duplicate or missing Host, absolute-form
 * targets, conflicting lengths, an oversized head). `{key}`, `{path}`, `{tenant}` are filled in when sent.
 */
export const RAW_REQUESTS: string[] = [
  'GET /admin/v1/endpoints HTTP/1.1\r\nHost: {tenant}.localhost\r\nHost: {other}.localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints HTTP/1.1\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints HTTP/1.0\r\nx-api-key: {key}\r\n\r\n',
  'GET http://evil.example/admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'GET http://{tenant}.localhost/admin/v1/endpoints HTTP/1.1\r\nHost: {other}.localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'POST {path} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nContent-Type: application/json\r\nContent-Length: 13\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nd\r\n{"text":"hi"}\r\n0\r\n\r\n',
  'POST {path} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nContent-Type: application/json\r\nContent-Length: 13\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{"text":"hi"}',
  'POST {path} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nContent-Type: application/json\r\nContent-Length: abc\r\nConnection: close\r\n\r\n{"text":"hi"}',
  'POST {path} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\n{"tex\r\n8\r\nt":"hi"}\r\n0\r\n\r\n',
  'POST {path} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
  'POST {path} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints?{longQuery} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'POST {path}?prompt={longQuery} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nContent-Type: application/json\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{"text":"hi"}',
  'GET /admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nX-Filler: {longQuery}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nX-Bad\u0001Name: 1\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nx-api-key:{key}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: {key}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nx-api-key: {otherKey}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nAuthorization: Bearer {otherKey}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints/../../health HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints/%2e%2e/%2e%2e/keys HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'GET //admin//v1//endpoints HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'GET /admin/v1/endpoints/%ZZ HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'POST {path}%ZZ HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
  'GET /admin/v1/endpoints?page=%ZZ HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'DELETE /admin/v1/prompts HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'PATCH /admin/v1/endpoints/{endpointId} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
  'OPTIONS /admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\nAccess-Control-Request-Method: DELETE\r\nConnection: close\r\n\r\n',
  'HEAD /admin/v1/endpoints HTTP/1.1\r\nHost: localhost\r\nx-api-key: {key}\r\nConnection: close\r\n\r\n',
  'GET {path} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nConnection: close\r\n\r\n',
  'PUT {path} HTTP/1.1\r\nHost: localhost\r\nx-api-key: {endpointKey}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
];

export function rawRequestBytes(world: FuzzWorld, template: string): string {
  return template
    .replaceAll('{key}', world.tenant.readWrite)
    .replaceAll('{otherKey}', world.other.readWrite)
    .replaceAll('{endpointKey}', world.tenant.endpoint)
    .replaceAll('{tenant}', world.tenant.slug)
    .replaceAll('{other}', world.other.slug)
    .replaceAll('{path}', world.known.path)
    .replaceAll('{endpointId}', world.known.endpointId)
    .replaceAll('{longQuery}', 'q'.repeat(100_000));
}

/** The request line of a raw request, for the checks (surface, echoed text). */
export function rawTarget(bytes: string): SentRequest {
  const [requestLine, ...rest] = bytes.split('\r\n');
  const [method, target] = requestLine.split(' ');
  const path = target.startsWith('http://') ? target.replace(/^http:\/\/[^/]*/, '') : target;
  return { method, target: path, headers: { raw: rest.join('\n') } };
}
