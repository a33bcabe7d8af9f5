import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectAccessible, screenshot, useDashboard } from './support/dashboard';

describe('Dashboard: serving and sign-in', () => {
  const h = useDashboard();

  it('leads from / to the sign-in page, which is accessible and fully reachable by keyboard', async () => {
    const response = await h.page.goto(`${h.baseUrl}/`);
    expect(response?.status()).toBe(200);
    expect(new URL(h.page.url()).pathname).toBe('/dashboard/');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await h.page.getByRole('heading', { name: 'Promptgate' }).waitFor();
    await expectAccessible(h.page, { keyboard: true });
    await screenshot(h.page, 'sign-in');
  });

  it('refuses a wrong key with a message, and an endpoint key as not an admin key', async () => {
    await h.page.goto(`${h.baseUrl}/dashboard/`);
    await h.page.getByLabel('Admin key').fill('epa_wrong');
    await h.page.getByRole('button', { name: 'Sign in' }).click();
    await h.page.getByRole('alert').getByText('That key is not valid, or it was revoked.').waitFor();
    await h.page.getByLabel('Admin key').fill(h.tenant.endpointKey);
    await h.page.getByRole('button', { name: 'Sign in' }).click();
    await h.page
      .getByRole('alert')
      .getByText(/endpoint key/)
      .waitFor();
  });

  it('signs in with an admin key kept in sessionStorage only, shows the tenant, and signs out', async () => {
    await h.signIn(h.tenant.admin);
    await h.page.getByText(h.tenant.slug, { exact: true }).first().waitFor();
    const storage = await h.page.evaluate(() => ({
      session: Object.values(sessionStorage),
      local: Object.keys(localStorage).length,
      url: location.href,
      cookies: document.cookie,
    }));
    expect(storage.session).toContain(h.tenant.admin);
    expect(storage.local).toBe(0);
    expect(storage.url).not.toContain(h.tenant.admin);
    expect(storage.cookies).toBe('');
    // A reload keeps the tab's session.
    await h.page.reload();
    await h.page.getByRole('navigation', { name: 'Main' }).waitFor();
    await h.page.getByRole('button', { name: 'Sign out' }).click();
    await h.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await h.page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('returns to sign-in when the key is revoked while signed in', async () => {
    await h.signIn(h.tenant.readOnly);
    const session = await h.t.http.get('/admin/v1/session').set('x-api-key', h.tenant.readOnly).expect(200);
    await h.t.http
      .post(`/admin/v1/keys/${session.body.data.key.id}/revoke`)
      .set('x-api-key', h.tenant.admin)
      .expect(200);
    // The Keys page's first call is refused: the dashboard forgets the key and says why.
    await h.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
    await h.page.getByText('Your key is no longer accepted. Sign in again.').waitFor();
    expect(await h.page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('works behind a proxy that mounts the service under another base path', async () => {
    // A reverse proxy serving the service under /promptgate/: no URL in the dashboard may be absolute.
    const target = new URL(h.baseUrl);
    const proxy = http.createServer((request, response) => {
      if (!request.url?.startsWith('/promptgate/')) {
        response.writeHead(404).end('not behind the proxy');
        return;
      }
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url.slice('/promptgate'.length),
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/promptgate`;
    const paths: string[] = [];
    h.page.on('request', (request) => paths.push(new URL(request.url()).pathname));
    try {
      await h.page.goto(`${proxied}/`);
      expect(new URL(h.page.url()).pathname).toBe('/promptgate/dashboard/');
      await h.page.getByLabel('Admin key').fill(h.tenant.admin);
      await h.page.getByRole('button', { name: 'Sign in' }).click();
      await h.page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
      await h.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Models' }).click();
      await h.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Endpoints' }).click();
      await h.page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
      expect(paths.length).toBeGreaterThan(3);
      expect(paths.filter((path) => !path.startsWith('/promptgate/'))).toEqual([]);
      expect(paths).toContain('/promptgate/admin/v1/session');
    } finally {
      await h.page.evaluate(() => sessionStorage.clear());
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
