import { accessibilityViolations, type DashboardHarness, keyboardProblems, screenshot, signIn, startDashboard } from '../support/browser';

describe('Dashboard: serving and sign-in', () => {
  let h: DashboardHarness;

  beforeAll(async () => {
    h = await startDashboard();
  });

  afterAll(async () => {
    await h?.close();
  });

  afterEach(() => {
    expect(h.problems).toEqual([]);
  });

  it('leads from / to the sign-in page, which is accessible and fully reachable by keyboard', async () => {
    const response = await h.page.goto(`${h.baseUrl}/`);
    expect(response?.status()).toBe(200);
    expect(new URL(h.page.url()).pathname).toBe('/dashboard/');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await h.page.getByRole('heading', { name: 'Promptgate' }).waitFor();
    expect(await accessibilityViolations(h.page)).toEqual([]);
    expect(await keyboardProblems(h.page)).toEqual({ unreachable: [], noVisibleFocus: [] });
    await screenshot(h.page, 'sign-in');
  });

  it('refuses a wrong key with a message, and an endpoint key as not an admin key', async () => {
    await h.page.goto(`${h.baseUrl}/dashboard/`);
    await h.page.getByLabel('Admin key').fill('epa_wrong');
    await h.page.getByRole('button', { name: 'Sign in' }).click();
    await h.page.getByRole('alert').getByText('That key is not valid, or it was revoked.').waitFor();
    await h.page.getByLabel('Admin key').fill(h.tenant.endpointKey);
    await h.page.getByRole('button', { name: 'Sign in' }).click();
    await h.page.getByRole('alert').getByText(/endpoint key/).waitFor();
  });

  it('signs in with an admin key kept in sessionStorage only, shows the tenant, and signs out', async () => {
    await signIn(h.page, h.baseUrl, h.tenant.admin);
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
    await signIn(h.page, h.baseUrl, h.tenant.readOnly);
    const session = await h.t.http.get('/admin/v1/session').set('x-api-key', h.tenant.readOnly).expect(200);
    await h.t.http.post(`/admin/v1/keys/${session.body.data.key.id}/revoke`).set('x-api-key', h.tenant.admin).expect(200);
    // The next call the page makes is refused: the dashboard forgets the key and says why.
    await h.page.getByRole('link', { name: 'Keys' }).click();
    await h.page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await h.page.getByRole('link', { name: 'Endpoints' }).click();
    await h.page.getByText('Your key is no longer accepted. Sign in again.').waitFor();
    expect(await h.page.evaluate(() => sessionStorage.length)).toBe(0);
  });
});
