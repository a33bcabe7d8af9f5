import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { KeysService } from '../../src/modules/keys/keys.service';
import { textEndpoint } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { createTestApp } from '../support/test-app';
import { sleep } from '../support/eventually';
import { parseHead, requestHead as head, writeSpaced } from '../support/raw-http';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection (within the wait). */
  closed: boolean;
}

/**
 * One request over a raw socket: `head` (request line and headers), then the `body` pieces, each after `pauseMs`.
 * Resolves with what the server answered once the answer is complete (with `awaitClose`, once the server closed the
 * connection), or when `waitMs` passed. The body may be left unsent entirely: an answer that arrives anyway was
 * given without reading it.
 */
function rawRequest(
  port: number,
  head: string,
  options: { body?: string[]; pauseMs?: number; waitMs?: number; awaitClose?: boolean } = {},
): Promise<RawAnswer> {
  const { body = [], pauseMs = 0, waitMs = 5000, awaitClose = false } = options;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = () => {
      timers.forEach(clearTimeout);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return reject(new Error(`no answer (closed: ${closed}): ${JSON.stringify(text)}`));
      const { status, headers } = parseHead(text.slice(0, end));
      resolve({ status, headers, body: text.slice(end + 4), closed });
      socket.destroy();
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (!awaitClose && isComplete(Buffer.concat(chunks).toString('latin1'))) finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.write(head);
    writeSpaced(socket, body, pauseMs, timers);
    timers.push(setTimeout(finish, waitMs));
  });
}

function isComplete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end));
  return end !== -1 && length !== null && Buffer.byteLength(text.slice(end + 4), 'latin1') >= Number(length[1]);
}

const NINE_MB = 9 * 1024 * 1024;
const TWO_MIB = 2 * 1024 * 1024;
/** MAX_ADMIN_BODY_BYTES's default, which the app under test keeps. */
const ADMIN_LIMIT = 1024 * 1024;
const JSON_TYPE = { 'content-type': 'application/json' };
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };
const flat = (error: string) => ({ error, message: expect.any(String) });
const envelope = { succeeded: false, messages: [expect.any(String)], data: null };
const mcpError = (prefix: string) => ({
  jsonrpc: '2.0',
  error: { code: -32001, message: expect.stringMatching(new RegExp(`^${prefix}: `)) },
  id: null,
});

describe(`HTTP edge (${process.env.HTTP_ADAPTER ?? 'fastify'}): authentication before the body, body limits, request timeouts, Host`, () => {
  const { t, tenant, other } = useTestApp({ listen: true, other: true });
  let port: number;
  let endpoint: { id: string; path: string };

  beforeAll(async () => {
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    endpoint = await textEndpoint(t, tenant.admin, 'received');
  });

  describe('a request without a valid key is answered 401 before its body is read', () => {
    const surfaces = () => [
      { name: 'execution', method: 'POST', path: endpoint.path, extra: {}, body: flat('unauthorized') },
      { name: 'admin', method: 'POST', path: '/admin/v1/endpoints', extra: {}, body: envelope },
      { name: 'MCP', method: 'POST', path: '/mcp', extra: MCP_ACCEPT, body: mcpError('unauthorized') },
    ];

    it('refuses a 9 MB body declared without a key on each surface, in its own error shape, and closes', async () => {
      for (const surface of surfaces()) {
        const answer = await rawRequest(
          port,
          head(surface.method, surface.path, {
            ...JSON_TYPE,
            ...surface.extra,
            'content-length': NINE_MB,
            'x-request-id': `edge-${surface.name}`,
          }),
          {
            awaitClose: true,
          },
        );
        expect({ surface: surface.name, status: answer.status }).toEqual({ surface: surface.name, status: 401 });
        expect(JSON.parse(answer.body)).toEqual(surface.body);
        expect(answer.headers['x-request-id']).toBe(`edge-${surface.name}`);
        expect(answer.closed).toBe(true);
      }
    });

    it('gives the MCP refusal its Bearer challenge', async () => {
      const answer = await rawRequest(
        port,
        head('POST', '/mcp', { ...JSON_TYPE, ...MCP_ACCEPT, 'content-length': NINE_MB }),
      );
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('refuses unknown, malformed and revoked keys before the body too', async () => {
      const created = await t.http
        .post('/admin/v1/keys')
        .set(auth(tenant.admin))
        .send({ name: 'revoked soon', type: 'admin' });
      await t.http.post(`/admin/v1/keys/${created.body.data.id}/revoke`).set(auth(tenant.admin)).expect(200);
      const keys = ['epa_' + 'Z'.repeat(40), 'ep_live_' + 'Z'.repeat(40), 'not-a-key', created.body.data.key as string];
      for (const key of keys) {
        for (const path of [endpoint.path, '/admin/v1/endpoints']) {
          const answer = await rawRequest(
            port,
            head('POST', path, { ...JSON_TYPE, 'x-api-key': key, 'content-length': NINE_MB }),
          );
          expect({ key, path, status: answer.status }).toEqual({ key, path, status: 401 });
          expect(answer.body).toMatch(/invalid or revoked/);
        }
        const mcp = await rawRequest(
          port,
          head('POST', '/mcp', {
            ...JSON_TYPE,
            ...MCP_ACCEPT,
            authorization: `Bearer ${key}`,
            'content-length': NINE_MB,
          }),
        );
        expect(mcp.status).toBe(401);
      }
    });

    it("refuses a key on another tenant's host before the body", async () => {
      const answer = await rawRequest(
        port,
        head('POST', endpoint.path, {
          ...JSON_TYPE,
          host: `${other.slug}.localhost`,
          'x-api-key': tenant.endpointKey,
          'content-length': NINE_MB,
        }),
      );
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({
        error: 'unauthorized',
        message: 'The API key does not belong to this tenant',
      });
    });

    it('refuses a chunked body without a key before reading it', async () => {
      const answer = await rawRequest(
        port,
        head('POST', '/admin/v1/endpoints', { ...JSON_TYPE, 'transfer-encoding': 'chunked' }),
        { awaitClose: true },
      );
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual(envelope);
      expect(answer.closed).toBe(true);
    });

    it('keeps the messages and shapes of each refusal (no key, a Bearer key on the execution surface)', async () => {
      const none = await t.http.post(endpoint.path).send({ text: 'x' });
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ error: 'unauthorized', message: 'An API key is required (x-api-key header)' });
      const bearer = await t.http
        .post(endpoint.path)
        .set('Authorization', `Bearer ${tenant.endpointKey}`)
        .send({ text: 'x' });
      expect(bearer.status).toBe(401);
      const admin = await t.http.post('/admin/v1/endpoints').send({ name: 'x', path: '/api/v1/x' });
      expect(admin.body).toEqual({
        succeeded: false,
        messages: ['An API key is required (x-api-key header)'],
        data: null,
      });
      const endpointKeyOnAdmin = await t.http.get('/admin/v1/endpoints').set(auth(tenant.endpointKey));
      expect(endpointKeyOnAdmin.status).toBe(403);
    });

    it('looks a key up once per request, for the early check and the guards together', async () => {
      const keys = t.app.get(KeysService);
      const lookup = jest.spyOn(keys, 'authenticate');
      try {
        expect((await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text: 'x' })).status).toBe(200);
        expect(lookup).toHaveBeenCalledTimes(1);
        lookup.mockClear();
        expect((await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin))).status).toBe(200);
        expect(lookup).toHaveBeenCalledTimes(1);
      } finally {
        lookup.mockRestore();
      }
    });

    it('leaves the open routes alone', async () => {
      expect((await t.http.get('/health')).status).toBe(200);
      expect((await t.http.get('/docs-json')).status).toBe(200);
      const unknown = await t.http.get('/nothing-here');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(flat('not_found'));
    });
  });

  describe('body limits', () => {
    it('answers 413 to a 2 MiB admin or MCP body from a valid key, before reading it', async () => {
      const admin = await rawRequest(
        port,
        head('POST', '/admin/v1/endpoints', { ...JSON_TYPE, 'x-api-key': tenant.admin, 'content-length': TWO_MIB }),
        {
          awaitClose: true,
        },
      );
      expect(admin.status).toBe(413);
      expect(JSON.parse(admin.body)).toEqual({ succeeded: false, messages: ['Request body is too large'], data: null });
      expect(admin.closed).toBe(true);
      const mcp = await rawRequest(
        port,
        head('POST', '/mcp', {
          ...JSON_TYPE,
          ...MCP_ACCEPT,
          authorization: `Bearer ${tenant.admin}`,
          'content-length': TWO_MIB,
        }),
      );
      expect(mcp.status).toBe(413);
      expect(JSON.parse(mcp.body)).toEqual(mcpError('payload_too_large'));
    });

    it('answers 413 to an execution body declared above MAX_BODY_BYTES, before reading it', async () => {
      const answer = await rawRequest(
        port,
        head('POST', endpoint.path, {
          ...JSON_TYPE,
          'x-api-key': tenant.endpointKey,
          'content-length': 11 * 1024 * 1024,
        }),
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({ error: 'payload_too_large', message: 'Request body is too large' });
    });

    /**
     * A chunked body just over the admin limit, sent at once with its last chunk. Fastify answers as soon as the
     * limit is passed and closes the connection; Express reads to the end first. Either way nothing is left unsent
     * behind the answer, so the connection is not reset under it.
     */
    const chunkedOverLimit = (build: (padding: string) => object) => {
      const bare = JSON.stringify(build('')).length;
      const json = JSON.stringify(build('x'.repeat(ADMIN_LIMIT + 1000 - bare)));
      const pieces: string[] = [];
      for (let at = 0; at < json.length; at += 64 * 1024) {
        const piece = json.slice(at, at + 64 * 1024);
        pieces.push(`${piece.length.toString(16)}\r\n${piece}\r\n`);
      }
      return [pieces.join('') + '0\r\n\r\n'];
    };

    it('bounds a chunked admin body by the admin limit', async () => {
      const body = chunkedOverLimit((padding) => ({ name: padding, path: '/api/v1/chunked' }));
      const answer = await rawRequest(
        port,
        head('POST', '/admin/v1/endpoints', {
          ...JSON_TYPE,
          'x-api-key': tenant.admin,
          'transfer-encoding': 'chunked',
        }),
        {
          body,
        },
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        succeeded: false,
        messages: ['Request body is too large'],
        data: null,
      });
      const list = await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin));
      expect(list.body.data.map((item: { path: string }) => item.path)).not.toContain('/api/v1/chunked');
    });

    it('bounds a chunked MCP body by the admin limit, in the MCP error shape', async () => {
      const body = chunkedOverLimit((padding) => ({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { padding },
      }));
      const answer = await rawRequest(
        port,
        head('POST', '/mcp', {
          ...JSON_TYPE,
          ...MCP_ACCEPT,
          authorization: `Bearer ${tenant.admin}`,
          'transfer-encoding': 'chunked',
        }),
        { body },
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual(mcpError('payload_too_large'));
    });

    it('takes a 2 MiB execution body (MAX_BODY_BYTES applies there)', async () => {
      const res = await t.http
        .post(endpoint.path)
        .set(auth(tenant.endpointKey))
        .send({ text: 'x'.repeat(TWO_MIB) });
      expect(res.status).toBe(200);
      expect(res.body).toBe('received');
    });

    it('takes an admin body under the admin limit', async () => {
      const res = await t.http
        .post('/admin/v1/endpoints')
        .set(auth(tenant.admin))
        .send({ name: 'Fits', description: 'd'.repeat(1000), path: '/api/v1/fits' });
      expect(res.status).toBe(201);
    });
  });

  describe('tenant hosts', () => {
    const execute = (host: string, key = tenant.endpointKey) =>
      t.http.post(endpoint.path).set('Host', host).set(auth(key)).send({ text: 'x' });

    it('ignores a trailing dot on a tenant host', async () => {
      for (const host of [
        `${tenant.slug}.localhost.`,
        `${tenant.slug}.localhost.:3000`,
        `${tenant.slug.toUpperCase()}.LOCALHOST.`,
      ]) {
        const res = await execute(host);
        expect({ host, status: res.status }).toEqual({ host, status: 200 });
      }
      const admin = await t.http
        .get('/admin/v1/endpoints')
        .set('Host', `${tenant.slug}.localhost.`)
        .set(auth(tenant.admin));
      expect(admin.status).toBe(200);
    });

    it("refuses another tenant's host written with a trailing dot, and a deeper host under the base domain (401)", async () => {
      for (const host of [
        `${other.slug}.localhost.`,
        `${other.slug}.localhost.:3000`,
        `x.${tenant.slug}.localhost`,
        `x.${tenant.slug}.localhost.:3000`,
      ]) {
        const res = await execute(host);
        expect({ host, status: res.status }).toEqual({ host, status: 401 });
        expect(res.body).toEqual({ error: 'unauthorized', message: 'The API key does not belong to this tenant' });
      }
      const admin = await t.http
        .get('/admin/v1/endpoints')
        .set('Host', `x.${tenant.slug}.localhost`)
        .set(auth(tenant.admin));
      expect(admin.status).toBe(401);
      expect(admin.body).toEqual({
        succeeded: false,
        messages: ['The API key does not belong to this tenant'],
        data: null,
      });
      const mcp = await t.http
        .post('/mcp')
        .set(MCP_ACCEPT)
        .set('Host', `${other.slug}.localhost.`)
        .set('Authorization', `Bearer ${tenant.admin}`)
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      expect(mcp.status).toBe(401);
      expect(mcp.body).toEqual(mcpError('unauthorized'));
    });

    it('answers 400 to a Host whose port is not digits, naming the Host header, on each surface', async () => {
      const host = `${tenant.slug}.localhost:abc`;
      const res = await execute(host);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'validation_error',
        message: expect.stringMatching(/Host header/),
        field: null,
      });
      const admin = await t.http.get('/admin/v1/endpoints').set('Host', host).set(auth(tenant.admin));
      expect(admin.status).toBe(400);
      expect(admin.body).toEqual({ succeeded: false, messages: [expect.stringMatching(/Host header/)], data: null });
      const mcp = await t.http
        .post('/mcp')
        .set(MCP_ACCEPT)
        .set('Host', host)
        .set('Authorization', `Bearer ${tenant.admin}`)
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      expect(mcp.status).toBe(400);
      expect(mcp.body).toEqual(mcpError('validation_error'));
    });

    it("keeps hosts without a tenant working with any tenant's key", async () => {
      for (const host of ['localhost', 'localhost.', 'localhost:3000', '127.0.0.1', '127.0.0.1:8080', '[::1]:3000']) {
        const res = await execute(host);
        expect({ host, status: res.status }).toEqual({ host, status: 200 });
      }
    });

    it('leaves the Host of open routes alone', async () => {
      expect((await t.http.get('/health').set('Host', 'beta.localhost:abc')).status).toBe(200);
    });
  });

  describe('request timeouts', () => {
    // A short timeout, so that a client sending a piece every 80 ms (each gap well inside the timeout) is too slow
    // overall within a moment.
    const { t: slow, tenant: slowTenant } = useTestApp({ config: { requestTimeoutMs: 200 }, listen: true });

    it('answers 408 and closes when a body arrives slower than REQUEST_TIMEOUT_MS', async () => {
      const answer = await rawRequest(
        slow.port,
        head('POST', '/admin/v1/endpoints', { ...JSON_TYPE, 'x-api-key': slowTenant.admin, 'content-length': 40 }),
        { body: ['{', '"', 'n', 'a', 'm'], pauseMs: 80, waitMs: 10_000, awaitClose: true },
      );
      expect(answer.status).toBe(408);
      expect(answer.closed).toBe(true);
    });

    it('answers 408 and closes when the headers arrive slower than REQUEST_TIMEOUT_MS', async () => {
      const answer = await rawRequest(slow.port, `GET /health HTTP/1.1\r\nhost: localhost\r\n`, {
        body: ['x-a: 1\r\n', 'x-b: 2\r\n', 'x-c: 3\r\n', 'x-d: 4\r\n', 'x-e: 5\r\n'],
        pauseMs: 80,
        waitMs: 10_000,
        awaitClose: true,
      });
      expect(answer.status).toBe(408);
      expect(answer.closed).toBe(true);
    });

    it('leaves an idle keep-alive connection alone: the timeout counts only while a request is arriving', async () => {
      // Its own instance with a much shorter timeout, so that idling for twice as long takes a moment only.
      const quick = await createTestApp({ requestTimeoutMs: 50 });
      await quick.app.listen(0, '127.0.0.1');
      const socket = net.connect((quick.app.getHttpServer().address() as AddressInfo).port, '127.0.0.1');
      try {
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        const answers = async (count: number) => {
          while ((received.match(/HTTP\/1\.1 \d{3}/g) ?? []).length < count) {
            if (socket.destroyed) throw new Error(`closed after: ${received}`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        };
        socket.write(head('GET', '/health', {}));
        await answers(1);
        await sleep(100);
        socket.write(head('GET', '/health', {}));
        await answers(2);
        expect(received.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
      } finally {
        socket.destroy();
        await quick.close();
      }
    });

    it('still serves requests whose body arrives in time', async () => {
      await slow.http
        .post('/admin/v1/endpoints')
        .set(auth(slowTenant.admin))
        .send({ name: 'On time', path: '/api/v1/on-time' })
        .expect(201);
    });
  });
});
