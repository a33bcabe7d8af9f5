import * as net from 'node:net';
import { textEndpoint } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { UUID } from '../support/envelope';
import { parseHead, writeSpaced } from '../support/raw-http';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

/**
 * Writes `bytes` on a fresh connection (then each of `later`, `pauseMs` apart) and reads the first answer: complete
 * by its Content-Length, or when the server closes the connection (or after 10 s, with what arrived).
 */
function sendRaw(
  port: number,
  bytes: string,
  options: { later?: string[]; pauseMs?: number } = {},
): Promise<RawAnswer> {
  const { later = [], pauseMs = 0 } = options;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timers: NodeJS.Timeout[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      // An interim 100 Continue comes before the answer.
      const text = Buffer.concat(chunks)
        .toString('latin1')
        .replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) {
        if (!closed) return;
        done = true;
        timers.forEach(clearTimeout);
        return reject(new Error(`closed without an answer: ${JSON.stringify(text.slice(0, 300))}`));
      }
      const { status, headers } = parseHead(text.slice(0, end));
      const rest = Buffer.from(text.slice(end + 4), 'latin1');
      const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      if (!closed && (length === undefined || rest.length < length)) return;
      done = true;
      timers.forEach(clearTimeout);
      const body = (length === undefined ? rest : rest.subarray(0, length)).toString('utf8');
      let json: unknown;
      try {
        json = body === '' ? undefined : JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status, headers, text: body, json });
      socket.destroy();
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      finish(false);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    socket.write(bytes, 'latin1');
    timers.push(setTimeout(() => finish(true), 10_000));
    writeSpaced(socket, later, pauseMs, timers);
  });
}

const envelope = { succeeded: false, messages: [expect.any(String)], data: null };
const flat = (error: string) => expect.objectContaining({ error, message: expect.any(String) });
const jsonRpc = (prefix: string) => ({
  jsonrpc: '2.0',
  error: { code: -32001, message: expect.stringMatching(new RegExp(`^${prefix}: `)) },
  id: null,
});

/** Every answer given outside Nest's pipeline still has a request id, a JSON body, and closes the connection. */
function expectProtocolAnswer(answer: RawAnswer, status: number, body: unknown): void {
  expect({ status: answer.status, body: answer.json }).toEqual({ status, body });
  expect(answer.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
}

const adapter = process.env.HTTP_ADAPTER ?? 'fastify';

describe(`protocol errors (${adapter}): what the HTTP server refuses by itself is answered in the surface's shape`, () => {
  const { t, tenant } = useTestApp({ listen: true });
  let endpoint: { id: string; path: string };
  beforeAll(async () => (endpoint = await textEndpoint(t, tenant.admin, 'received')));

  const request = (method: string, target: string, headers: string[], body = '') =>
    `${method} ${target} HTTP/1.1\r\n${headers.map((line) => `${line}\r\n`).join('')}\r\n${body}`;
  const adminGet = (...headers: string[]) =>
    request('GET', '/admin/v1/endpoints', ['Host: localhost', `x-api-key: ${tenant.admin}`, ...headers]);
  const execution = (headers: string[], body = '{"text":"hi"}') =>
    request(
      'POST',
      endpoint.path,
      ['Host: localhost', `x-api-key: ${tenant.endpointKey}`, 'Content-Type: application/json', ...headers],
      body,
    );
  const mcp = (headers: string[], body = '{}') =>
    request(
      'POST',
      '/mcp',
      [
        'Host: localhost',
        `Authorization: Bearer ${tenant.admin}`,
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        ...headers,
      ],
      body,
    );

  describe('paths the router refuses', () => {
    it('answers a malformed percent escape 400 in the admin envelope', async () => {
      const answer = await sendRaw(
        t.port,
        request(
          'PUT',
          `/admin/v1/endpoints/${endpoint.id}/input-fields/%`,
          ['Host: localhost', `x-api-key: ${tenant.admin}`, 'Content-Type: application/json', 'Content-Length: 2'],
          '{}',
        ),
      );
      expectProtocolAnswer(answer, 400, envelope);
      expect(answer.headers['x-request-id']).toMatch(UUID);
    });

    it('answers a malformed percent escape 400 in the execution shape', async () => {
      const answer = await sendRaw(
        t.port,
        execution(['Content-Length: 2'], '{}').replace(`POST ${endpoint.path} `, `POST ${endpoint.path}%ZZ `),
      );
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(flat('validation_error'));
      expect(answer.headers['x-request-id']).toBeTruthy();
    });

    it('keeps an incoming X-Request-Id on a path the router refuses', async () => {
      const answer = await sendRaw(
        t.port,
        request('GET', '/admin/v1/endpoints/%', [
          'Host: localhost',
          `x-api-key: ${tenant.admin}`,
          'X-Request-Id: router-refusal-1',
        ]),
      );
      expect(answer.status).toBe(400);
      expect(answer.headers['x-request-id']).toBe('router-refusal-1');
    });

    it('answers a path parameter of a few hundred characters like any malformed id (400)', async () => {
      const answer = await sendRaw(
        t.port,
        request('GET', `/admin/v1/keys/${'a'.repeat(500)}`, ['Host: localhost', `x-api-key: ${tenant.admin}`]),
      );
      expectProtocolAnswer(answer, 400, envelope);
    });

    it('answers a path parameter of 5,000 characters in the admin envelope', async () => {
      const answer = await sendRaw(
        t.port,
        request('GET', `/admin/v1/keys/${'a'.repeat(5000)}`, ['Host: localhost', `x-api-key: ${tenant.admin}`]),
      );
      // Fastify's router refuses a parameter over its maximum length itself (414); Express passes it to the id pipe.
      expectProtocolAnswer(answer, adapter === 'fastify' ? 414 : 400, envelope);
    });
  });

  describe('Host', () => {
    it('refuses an HTTP/1.1 request without Host, in the shape of its surface', async () => {
      expectProtocolAnswer(
        await sendRaw(t.port, request('GET', '/admin/v1/endpoints', [`x-api-key: ${tenant.admin}`])),
        400,
        envelope,
      );
      expectProtocolAnswer(await sendRaw(t.port, request('GET', '/health', [])), 400, flat('validation_error'));
    });

    it('takes an HTTP/1.0 request without Host', async () => {
      const answer = await sendRaw(t.port, 'GET /health HTTP/1.0\r\n\r\n');
      expect(answer.status).toBe(200);
    });

    it('refuses a repeated Host (400) instead of picking one', async () => {
      const twice = (target: string, key: string) =>
        request('GET', target, ['Host: localhost', 'Host: evil.example', `x-api-key: ${key}`]);
      const admin = await sendRaw(t.port, twice('/admin/v1/endpoints', tenant.admin));
      expectProtocolAnswer(admin, 400, envelope);
      expect((admin.json as { messages: string[] }).messages[0]).toMatch(/Host/);
      expectProtocolAnswer(await sendRaw(t.port, twice('/health', tenant.admin)), 400, flat('validation_error'));
      const otherCase = request(
        'POST',
        endpoint.path,
        [
          'host: localhost',
          'HOST: localhost',
          `x-api-key: ${tenant.endpointKey}`,
          'Content-Type: application/json',
          'Content-Length: 13',
        ],
        '{"text":"hi"}',
      );
      expectProtocolAnswer(await sendRaw(t.port, otherCase), 400, flat('validation_error'));
    });
  });

  describe('Expect', () => {
    it('answers an Expect other than 100-continue 417 in the shape of each surface', async () => {
      expectProtocolAnswer(await sendRaw(t.port, adminGet('Expect: nonsense')), 417, envelope);
      expectProtocolAnswer(
        await sendRaw(t.port, execution(['Expect: nonsense', 'Content-Length: 13'])),
        417,
        flat('expectation_failed'),
      );
      expectProtocolAnswer(
        await sendRaw(t.port, mcp(['Expect: nonsense', 'Content-Length: 2'])),
        417,
        jsonRpc('expectation_failed'),
      );
    });

    it('keeps an incoming X-Request-Id on a 417', async () => {
      const answer = await sendRaw(t.port, adminGet('Expect: nonsense', 'X-Request-Id: expect-417'));
      expect(answer.headers['x-request-id']).toBe('expect-417');
    });

    it('still serves Expect: 100-continue', async () => {
      const answer = await sendRaw(t.port, adminGet('Expect: 100-continue'));
      expect(answer.status).toBe(200);
    });
  });

  describe('request framing Node refuses', () => {
    const framing: [string, string[]][] = [
      ['Content-Length with Transfer-Encoding', ['Content-Length: 13', 'Transfer-Encoding: chunked']],
      ['a repeated Content-Length', ['Content-Length: 13', 'Content-Length: 14']],
      ['a Content-Length that is not a number', ['Content-Length: abc']],
      ['a control character in a header name', ['X-Bad\u0001Name: 1', 'Content-Length: 13']],
    ];

    it.each(framing)('answers %s 400 in the shape of each surface, and closes', async (_what, headers) => {
      const admin = await sendRaw(
        t.port,
        request(
          'POST',
          '/admin/v1/endpoints',
          ['Host: localhost', `x-api-key: ${tenant.admin}`, 'Content-Type: application/json', ...headers],
          '{"text":"hi"}',
        ),
      );
      expectProtocolAnswer(admin, 400, envelope);
      expect(admin.headers.connection).toBe('close');
      expectProtocolAnswer(await sendRaw(t.port, execution(headers)), 400, flat('validation_error'));
      expectProtocolAnswer(await sendRaw(t.port, mcp(headers, '{"text":"hi"}')), 400, jsonRpc('validation_error'));
    });

    it('answers an absolute-form target in the shape of its path', async () => {
      const answer = await sendRaw(
        t.port,
        request('POST', 'http://localhost/admin/v1/endpoints', ['Host: localhost', 'Content-Length: abc']),
      );
      expectProtocolAnswer(answer, 400, envelope);
    });

    it('answers a request line over 16 KB 414 and a head over 16 KB 431, in the shape of the surface', async () => {
      expectProtocolAnswer(
        await sendRaw(
          t.port,
          adminGet().replace('/admin/v1/endpoints', `/admin/v1/endpoints?q=${'q'.repeat(100_000)}`),
        ),
        414,
        envelope,
      );
      expectProtocolAnswer(await sendRaw(t.port, adminGet(`X-Filler: ${'x'.repeat(20_000)}`)), 431, envelope);
      expectProtocolAnswer(
        await sendRaw(t.port, execution([`X-Filler: ${'x'.repeat(20_000)}`, 'Content-Length: 13'])),
        431,
        flat('header_fields_too_large'),
      );
    });

    it('keeps serving after each refusal', async () => {
      const answer = await sendRaw(t.port, execution(['Content-Length: 13', 'Connection: close']));
      expect(answer.status).toBe(200);
    });
  });

  describe('request timeouts', () => {
    // A short timeout, so that a client sending a piece every 80 ms (each gap well inside the timeout) is too slow
    // overall within a moment.
    const { t: slow, tenant: slowTenant } = useTestApp({ config: { requestTimeoutMs: 200 }, listen: true });

    it('answers a body slower than REQUEST_TIMEOUT_MS 408 in the admin envelope, with the request id it was given', async () => {
      const head = request('POST', '/admin/v1/endpoints', [
        'Host: localhost',
        `x-api-key: ${slowTenant.admin}`,
        'Content-Type: application/json',
        'Content-Length: 40',
        'X-Request-Id: slow-body-1',
      ]);
      const answer = await sendRaw(slow.port, head, { later: ['{', '"', 'n', 'a', 'm'], pauseMs: 80 });
      expectProtocolAnswer(answer, 408, envelope);
      expect(answer.headers['x-request-id']).toBe('slow-body-1');
      expect(answer.headers.connection).toBe('close');
    });

    it('answers headers slower than REQUEST_TIMEOUT_MS 408 in the flat shape', async () => {
      const answer = await sendRaw(slow.port, 'GET /health HTTP/1.1\r\nHost: localhost\r\n', {
        later: ['x-a: 1\r\n', 'x-b: 2\r\n', 'x-c: 3\r\n', 'x-d: 4\r\n', 'x-e: 5\r\n'],
        pauseMs: 80,
      });
      expectProtocolAnswer(answer, 408, flat('request_timeout'));
      expect(answer.headers['x-request-id']).toMatch(UUID);
    });
  });
});
