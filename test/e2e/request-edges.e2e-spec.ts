import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import type { Server } from 'node:http';
import { eventually } from '../support/eventually';
import { parseHead, requestHead as head } from '../support/raw-http';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from sending the head to the answer's first bytes. */
  answeredAfterMs: number;
  /** The server closed the connection (within the wait). */
  closed: boolean;
}

/**
 * A request head over a raw socket, with `body` written after it (or nothing): resolves once the server closed the
 * connection, or after `waitMs`, with the answer it gave.
 */
function rawRequest(port: number, head: string, body?: Buffer, waitMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = Date.now();
    const chunks: Buffer[] = [];
    let answeredAfterMs = -1;
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return reject(new Error(`no answer (closed: ${closed}): ${JSON.stringify(text)}`));
      const { status, headers } = parseHead(text.slice(0, end));
      resolve({
        status,
        headers,
        body: text.slice(end + 4),
        answeredAfterMs,
        closed,
      });
      socket.destroy();
    };
    socket.on('data', (chunk) => {
      if (answeredAfterMs < 0) answeredAfterMs = Date.now() - started;
      chunks.push(chunk);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.write(head);
    if (body) socket.write(body);
    const timer = setTimeout(finish, waitMs);
  });
}

const MB = 1024 * 1024;

/**
 * Sends uploads with Node's own fetch from a process of its own (in this process the client and the service would
 * take turns on one event loop, which hides the race): `count` POSTs of `megabytes` MB to `url` with `headers`,
 * `atOnce` at a time. Resolves with each one's status, or its error's code.
 */
function uploadsFromAnotherProcess(
  url: string,
  headers: Record<string, string>,
  megabytes: number,
  count: number,
  atOnce = 5,
): Promise<(number | string)[]> {
  const script = `
    const [url, headers, megabytes, count, atOnce] = JSON.parse(process.argv[1]);
    const body = Buffer.alloc(megabytes * 1024 * 1024, 'x');
    const send = () => fetch(url, { method: 'POST', headers, body }).then(
      (response) => response.arrayBuffer().then(() => response.status),
      (error) => String(error.cause?.code ?? error.message),
    );
    (async () => {
      const statuses = [];
      for (let sent = 0; sent < count; sent += atOnce)
        statuses.push(...(await Promise.all(Array.from({ length: Math.min(atOnce, count - sent) }, send))));
      process.stdout.write(JSON.stringify(statuses));
    })();`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', script, JSON.stringify([url, headers, megabytes, count, atOnce])],
      { timeout: 60_000 },
      (error, stdout) =>
        error
          ? reject(new Error(`the uploading process failed: ${error.message}`))
          : resolve(JSON.parse(stdout) as (number | string)[]),
    );
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe(`Request edges (${process.env.HTTP_ADAPTER ?? 'fastify'}): bodies nobody reads, early answers, security headers`, () => {
  const { t, tenant } = useTestApp({ listen: true });
  let port: number;
  let base: string;

  beforeAll(async () => {
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });

  describe('a body sent to a route that takes none is refused before it is read', () => {
    const OPEN_ROUTES = [
      ['POST', '/nonexist'],
      ['POST', '/health'],
      ['GET', '/health'],
      ['POST', '/metrics'],
      ['GET', '/docs'],
      ['POST', '/docs'],
      ['POST', '/dashboard/x'],
      ['GET', '/api/v1/docs'],
    ];

    it('answers 413 at once to a declared 9 MB body that never comes, on every open route', async () => {
      for (const [method, path] of OPEN_ROUTES) {
        const answer = await rawRequest(port, head(method, path, { ...JSON_TYPE, 'content-length': 9_000_000 }));
        expect({ method, path, status: answer.status }).toEqual({ method, path, status: 413 });
        expect(JSON.parse(answer.body)).toEqual({
          error: 'payload_too_large',
          message: 'This route takes no request body',
        });
        // Answered before anything of the body arrived, and closed once the client sent nothing more.
        expect(answer.answeredAfterMs).toBeLessThan(2_000);
        expect(answer.closed).toBe(true);
      }
    });

    it('answers a chunked body the same way', async () => {
      const answer = await rawRequest(
        port,
        head('POST', '/nonexist', { ...JSON_TYPE, 'transfer-encoding': 'chunked' }),
      );
      expect(answer.status).toBe(413);
    });

    it('refuses a body on a keyed GET once the key is accepted, and 401 without a key first', async () => {
      const keyed = await rawRequest(
        port,
        head('GET', '/admin/v1/endpoints', { ...JSON_TYPE, 'x-api-key': tenant.admin, 'content-length': 9_000_000 }),
      );
      expect(keyed.status).toBe(413);
      expect(JSON.parse(keyed.body)).toEqual({
        succeeded: false,
        messages: ['This route takes no request body'],
        data: null,
      });
      const keyless = await rawRequest(port, head('GET', '/admin/v1/endpoints', { 'content-length': 9_000_000 }));
      expect(keyless.status).toBe(401);
    });

    it('reads no more of a chunked body to an unknown admin or MCP route than the admin limit', async () => {
      const piece = 'x'.repeat(64 * 1024);
      const chunked = Buffer.from(`${piece.length.toString(16)}\r\n${piece}\r\n`.repeat(48) + '0\r\n\r\n');
      for (const path of ['/admin/v1/nothing-here', '/mcp/nothing-here']) {
        const answer = await rawRequest(
          port,
          head('POST', path, {
            ...JSON_TYPE,
            authorization: `Bearer ${tenant.admin}`,
            'transfer-encoding': 'chunked',
          }),
          chunked,
        );
        expect({ path, status: answer.status }).toEqual({ path, status: 413 });
      }
    });

    it('keeps the open routes working without a body (a zero Content-Length is no body)', async () => {
      expect((await t.http.get('/health')).status).toBe(200);
      expect((await t.http.get('/health').set('content-length', '0')).status).toBe(200);
      expect((await t.http.get('/nothing-here')).status).toBe(404);
    });

    it('keeps /health quick while 30 clients send 9 MB bodies to an unknown route', async () => {
      const uploads = uploadsFromAnotherProcess(`${base}/nonexist`, JSON_TYPE, 9, 30, 30);
      // Once the uploads are under way: the other process has started, built its body and connected.
      const server = t.app.getHttpServer() as Server;
      await eventually(
        () => new Promise<boolean>((resolve) => server.getConnections((_, count) => resolve(count >= 10))),
        'the uploads to connect',
      );
      const started = Date.now();
      const health = await fetch(`${base}/health`);
      const healthMs = Date.now() - started;
      expect(health.status).toBe(200);
      // A generous bound on a shared machine: reading and parsing 270 MB took seconds.
      expect(healthMs).toBeLessThan(1_500);
      expect(await uploads).toEqual(Array(30).fill(413));
    });
  });

  describe('an early answer reaches an ordinary client still sending its body', () => {
    it('gives 20 keyless 12 MB uploads sent with fetch their 401', async () => {
      const statuses = await uploadsFromAnotherProcess(`${base}/admin/v1/endpoints`, JSON_TYPE, 12, 20);
      expect(statuses).toEqual(Array(20).fill(401));
    });

    it('gives over-limit bodies their 413: a 2 MB admin body, a 12 MB body on a route that takes none', async () => {
      const admin = await uploadsFromAnotherProcess(
        `${base}/admin/v1/endpoints`,
        { ...JSON_TYPE, 'x-api-key': tenant.admin },
        2,
        10,
      );
      expect(admin).toEqual(Array(10).fill(413));
      expect(await uploadsFromAnotherProcess(`${base}/nonexist`, JSON_TYPE, 12, 10)).toEqual(Array(10).fill(413));
    });

    it('stops reading a body nobody reads after its bound, then closes', async () => {
      // 40 MB declared and sent as fast as possible: the service closes after at most 16 MiB more, well before the end.
      // Half-open allowed: the client goes on sending after the answer and the service's end of stream.
      const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.on('error', () => undefined);
      socket.write(head('POST', '/nonexist', { ...JSON_TYPE, 'content-length': 40 * MB }));
      let written = 0;
      const piece = Buffer.alloc(256 * 1024, 'x');
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      let isClosed = false;
      void closed.then(() => (isClosed = true));
      while (!isClosed && written < 40 * MB) {
        if (!socket.write(piece)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
        written += piece.length;
      }
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      expect(isClosed).toBe(true);
      expect(written).toBeLessThan(40 * MB);
    });
  });

  describe('security headers on every page and answer', () => {
    const expectFramingAndSniffing = (headers: Record<string, string>) => {
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    };

    it('gives /docs (Swagger UI) a policy that allows its own scripts and inline styles, and no inline script', async () => {
      const page = await t.http.get('/docs').redirects(1);
      expect(page.status).toBe(200);
      expectFramingAndSniffing(page.headers);
      const csp = page.headers['content-security-policy'];
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      // Swagger UI's page has no inline script: its initialiser is a file of its own.
      expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui-init.js', '/docs/swagger-ui.css']) {
        const response = await t.http.get(asset);
        expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
        expectFramingAndSniffing(response.headers);
      }
    });

    it('gives the dashboard and the tenant docs page their policies', async () => {
      const tenantDocs = await t.http.get('/api/v1/docs');
      expect(tenantDocs.status).toBe(200);
      expectFramingAndSniffing(tenantDocs.headers);
      expect(tenantDocs.headers['content-security-policy']).toContain("script-src 'self'");
      const redirect = await t.http.get('/dashboard');
      expectFramingAndSniffing(redirect.headers);
    });

    it('gives JSON answers, errors and refusals the same headers, with a policy that lets nothing load', async () => {
      const answers = [
        await t.http.get('/health'),
        await t.http.get('/docs-json'),
        await t.http.get('/nothing-here'),
        await t.http.get('/admin/v1/endpoints'),
        await t.http.get('/admin/v1/endpoints').set(auth(tenant.admin)),
        await t.http.post('/api/v1/whatever').send({}),
      ];
      for (const answer of answers) {
        expectFramingAndSniffing(answer.headers);
        expect(answer.headers['content-security-policy']).toMatch(/^default-src 'none'/);
      }
    });

    it('gives the answers to malformed requests (written before any route) the same headers', async () => {
      const tooLarge = await rawRequest(port, head('GET', '/health', { 'x-filler': 'x'.repeat(20_000) }));
      expect(tooLarge.status).toBe(431);
      expectFramingAndSniffing(tooLarge.headers);
    });
  });
});
