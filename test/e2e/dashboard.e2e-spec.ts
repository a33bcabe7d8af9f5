import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { DASHBOARD_DIR } from '../../src/modules/dashboard/dashboard-assets';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';

/** The initial JavaScript of the dashboard (what the first page loads before any route's own code), gzipped. */
const INITIAL_JS_BUDGET_BYTES = 250 * 1024;

describe('Dashboard: served by the service', () => {
  const { t, tenant } = useTestApp({ listen: true });
  const index = () => fs.readFileSync(path.join(DASHBOARD_DIR, 'index.html'), 'utf8');

  it('redirects / and /dashboard to dashboard/ with a relative Location, so a proxy may mount it under any path', async () => {
    for (const from of ['/', '/dashboard']) {
      const response = await t.http.get(from).expect(302);
      expect(response.headers.location).toBe('dashboard/');
    }
  });

  it('serves the page with a strict Content-Security-Policy, no inline script or style, and relative asset URLs', async () => {
    const response = await t.http.get('/dashboard/').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const csp = response.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const html = response.text;
    // Every script has a src and there are no style elements or attributes.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    const urls = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls) expect(url).toMatch(/^(\.\/|data:)/);
  });

  it('serves hashed assets for a year, with the same policy, and answers 404 for an unknown file', async () => {
    const script = index().match(/src="\.\/(assets\/[^"]+\.js)"/)![1];
    const response = await t.http.get(`/dashboard/${script}`).expect(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    await t.http.get('/dashboard/assets/missing.js').expect(404);
    // A path that climbs out of the dashboard's directory is refused (Fastify 403, Express 404), never served.
    for (const escape of [
      '/dashboard/../package.json',
      '/dashboard/%2e%2e/package.json',
      '/dashboard/..%2fpackage.json',
    ]) {
      const refused = await t.http.get(escape);
      expect([403, 404]).toContain(refused.status);
      expect(refused.text).not.toContain('"name": "promptgate"');
    }
  });

  it('sends the brotli or gzip copy the build made to a browser that accepts it, and the file itself otherwise', async () => {
    const script = index().match(/src="\.\/(assets\/[^"]+\.js)"/)![1];
    const plain = fs.readFileSync(path.join(DASHBOARD_DIR, script));
    // The bytes as sent, undecoded (an HTTP client library would decode them).
    const raw = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const { port } = t.app.getHttpServer().address() as AddressInfo;
        const options = { port, host: '127.0.0.1', headers: { 'Accept-Encoding': encoding } };
        http
          .get(`http://127.0.0.1:${port}/dashboard/${script}`, options, (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const brotli = await raw('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.body.length).toBeLessThan(plain.length / 2);
    expect(brotliDecompressSync(brotli.body).equals(plain)).toBe(true);
    const gzip = await raw('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain)).toBe(true);
    const identity = await raw('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(plain)).toBe(true);
  });

  it(`keeps the initial JavaScript under ${INITIAL_JS_BUDGET_BYTES / 1024} KB gzipped`, () => {
    const initial = [...index().matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
    const bytes = initial.reduce(
      (sum, file) => sum + gzipSync(fs.readFileSync(path.join(DASHBOARD_DIR, file))).length,
      0,
    );
    expect(initial.length).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(INITIAL_JS_BUDGET_BYTES);
  });

  describe('GET /admin/v1/session', () => {
    it('names the key and its tenant', async () => {
      const response = await t.http.get('/admin/v1/session').set(auth(tenant.admin)).expect(200);
      expect(response.body).toEqual({
        succeeded: true,
        messages: [],
        data: {
          tenant: { slug: tenant.slug, name: tenant.slug, plan: 'free' },
          key: expect.objectContaining({ name: 'admin', type: 'admin', permission: 'ReadWrite', status: 'Active' }),
        },
      });
      expect(response.body.data.key).not.toHaveProperty('key');
    });

    it('answers a ReadOnly key too, and refuses endpoint keys and missing keys', async () => {
      const readOnly = await t.http.get('/admin/v1/session').set(auth(tenant.readOnly)).expect(200);
      expect(readOnly.body.data.key.permission).toBe('ReadOnly');
      await t.http.get('/admin/v1/session').set(auth(tenant.endpointKey)).expect(403);
      await t.http.get('/admin/v1/session').expect(401);
    });
  });
});
