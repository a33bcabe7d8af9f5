import { auth } from '../support/seed';
import {
  accessibilityViolations,
  expectAccessible,
  expectReadOnlyBlocked,
  goTo,
  READ_ONLY_REASON,
  screenshot,
  useDashboard,
} from './support/dashboard';

describe('Dashboard: keys', () => {
  let summarize: { id: string; path: string };
  let other: { id: string; path: string };
  /** The endpoint key created in the browser: only this test knows its value, from the shown-once dialog. */
  let endpointKey = '';

  const h = useDashboard({
    setUp: async (h) => {
      await h.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
      // Two endpoints, each with a prompt that echoes `<name>: <text>`.
      const withPrompt = async (name: string) => {
        const endpoint = await h.createEndpoint({
          name,
          inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
        });
        await h.createPrompt(endpoint.id, { template: `${name}: {{ inputs.text }}`, llmModel: 'mock-echo' });
        return endpoint;
      };
      summarize = await withPrompt('Summarize');
      other = await withPrompt('Translate');
      await h.signIn(h.tenant.admin, '/keys');
    },
  });

  const keyRow = (name: string) =>
    h.page
      .getByRole('table')
      .getByRole('row')
      .filter({ has: h.page.getByRole('rowheader', { name, exact: true }) });
  /** The row's cells after its name, as text (screen-reader words included). */
  const cells = async (name: string) =>
    (await keyRow(name).getByRole('cell').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());

  it('lists the keys with type, permission or environment, last four, status, created and last used', async () => {
    await h.page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await keyRow('reader').waitFor();
    const headers = await h.page.getByRole('columnheader').allInnerTexts();
    expect(headers.slice(0, 9)).toEqual([
      'Name',
      'Type',
      'Permission or environment',
      'Key',
      'Status',
      'Endpoints',
      'Rate limits',
      'Created',
      'Last used',
    ]);
    const reader = await cells('reader');
    expect(reader.slice(0, 4)).toEqual(['Admin', 'ReadOnly', `ends in …${h.tenant.readOnly.slice(-4)}`, 'Active']);
    const caller = await cells('caller');
    expect(caller.slice(0, 6)).toEqual([
      'Endpoint',
      'live',
      `ends in …${h.tenant.endpointKey.slice(-4)}`,
      'Active',
      'Every endpoint',
      '60/min 1,000/h 10,000/day',
    ]);
    await expectAccessible(h.page, { keyboard: true });
  });

  it('creates a test endpoint key restricted to one endpoint and shows its value once, with a copy button', async () => {
    await h.page.getByRole('button', { name: 'Create key' }).click();
    const dialog = h.page.getByRole('dialog', { name: 'Create a key' });
    await dialog.waitFor();
    await dialog.getByLabel('Name').fill('CI caller');
    await dialog.getByRole('radio', { name: /^Endpoint key/ }).check();
    await dialog.getByRole('radio', { name: /^test/ }).check();
    await dialog.getByRole('radio', { name: 'Only the endpoints picked below' }).check();
    // Nothing picked yet: the form says what is missing instead of sending an empty restriction.
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.getByText('Pick at least one endpoint, or allow every endpoint.').waitFor();
    await dialog.getByRole('checkbox', { name: /^Summarize/ }).check();
    await dialog.getByLabel('Requests per minute').fill('120');
    expect(await accessibilityViolations(h.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const once = h.page.getByRole('dialog', { name: 'Key “CI caller” created' });
    await once.waitFor();
    await once.getByText('Copy this key now: it will never be shown again.').waitFor();
    endpointKey = (await once.locator('code.secret-value').textContent()) ?? '';
    expect(endpointKey).toMatch(/^ep_test_/);
    expect(await accessibilityViolations(h.page)).toEqual([]);
    await once.getByRole('button', { name: 'Copy key' }).click();
    await once.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await h.page.evaluate(() => navigator.clipboard.readText())).toBe(endpointKey);
    await once.getByRole('button', { name: 'I have stored it: close' }).click();
    await once.waitFor({ state: 'hidden' });

    // Gone: not in the page, the URL or the tab's storage; the list shows only its last four.
    expect(await h.page.content()).not.toContain(endpointKey);
    const traces = await h.page.evaluate(() => ({
      url: location.href,
      session: JSON.stringify(Object.entries(sessionStorage)),
      local: JSON.stringify(Object.entries(localStorage)),
    }));
    expect(traces.url).not.toContain(endpointKey);
    expect(traces.session).not.toContain(endpointKey);
    expect(traces.local).not.toContain(endpointKey);
    await h.page.getByRole('button', { name: 'Create key' }).and(h.page.locator(':focus')).waitFor();
    const row = await cells('CI caller');
    expect(row.slice(0, 8)).toEqual([
      'Endpoint',
      'test',
      `ends in …${endpointKey.slice(-4)}`,
      'Active',
      'Summarize',
      '120/min 1,000/h 10,000/day',
      row[6],
      'Never',
    ]);

    const stored = await h.t.http.get('/admin/v1/keys?pageSize=500').set(auth(h.tenant.admin)).expect(200);
    expect(stored.body.data.find((key: { name: string }) => key.name === 'CI caller')).toMatchObject({
      type: 'endpoint',
      environment: 'test',
      endpointIds: [summarize.id],
      rateLimitPerMinute: 120,
    });
  });

  it('that key executes its endpoint outside the browser, is refused elsewhere, and the list then shows when it was last used', async () => {
    expect(endpointKey).not.toBe('');
    const executed = await h.t.http.post(summarize.path).set('x-api-key', endpointKey).send({ text: 'a long story' });
    expect(executed.status).toBe(200);
    await h.t.http.post(other.path).set('x-api-key', endpointKey).send({ text: 'hola' }).expect(403);

    await goTo(h.page, '/endpoints');
    await goTo(h.page, '/keys');
    const lastUsed = keyRow('CI caller').getByRole('cell').nth(7);
    await lastUsed.locator('time').waitFor();
    expect(await lastUsed.innerText()).not.toBe('Never');
  });

  it('creates an admin ReadOnly key', async () => {
    await h.page.getByRole('button', { name: 'Create key' }).click();
    const dialog = h.page.getByRole('dialog', { name: 'Create a key' });
    await dialog.getByLabel('Name').fill('Auditor');
    await dialog.getByRole('radio', { name: /^Admin key/ }).check();
    // An admin key has a permission instead of an environment and an endpoint restriction.
    expect(await dialog.getByRole('radio', { name: /^test/ }).count()).toBe(0);
    await dialog.getByRole('radio', { name: /^ReadOnly/ }).check();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const once = h.page.getByRole('dialog', { name: 'Key “Auditor” created' });
    const value = (await once.locator('code.secret-value').textContent()) ?? '';
    expect(value).toMatch(/^epa_/);
    await once.getByText('Admin key (ReadOnly)').waitFor();
    // Escape closes it too, and the value goes with it.
    await h.page.keyboard.press('Escape');
    await once.waitFor({ state: 'hidden' });
    expect(await h.page.content()).not.toContain(value);
    const row = await cells('Auditor');
    expect(row.slice(0, 5)).toEqual(['Admin', 'ReadOnly', `ends in …${value.slice(-4)}`, 'Active', '— Not applicable']);
    await h.t.http.get('/admin/v1/endpoints').set(auth(value)).expect(200);
    await h.t.http.post('/admin/v1/keys').set(auth(value)).send({ name: 'nope', type: 'admin' }).expect(403);
  });

  it('revokes a key after confirming; the row shows Revoked and the API answers 401 for it', async () => {
    await keyRow('CI caller')
      .getByRole('button', { name: /^Revoke/ })
      .click();
    const confirm = h.page.getByRole('dialog', { name: 'Revoke the key “CI caller”?' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toMatch(/refused with 401 Unauthorized\s+immediately/);
    // Cancelling changes nothing.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await keyRow('CI caller').getByText('Active').count()).toBe(1);

    await keyRow('CI caller')
      .getByRole('button', { name: /^Revoke/ })
      .click();
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await keyRow('CI caller').getByText('Revoked', { exact: true }).waitFor();
    expect(
      await keyRow('CI caller')
        .getByRole('button', { name: /^Revoke/ })
        .count(),
    ).toBe(0);
    await h.t.http.post(summarize.path).set('x-api-key', endpointKey).send({ text: 'again' }).expect(401);
    await h.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(h.page, 'keys');
  });

  it('shows a ReadOnly key the create and revoke actions disabled, with the reason', async () => {
    await h.page.getByRole('button', { name: 'Sign out' }).click();
    await h.signIn(h.tenant.readOnly, '/keys');
    await h.page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    const create = h.page.getByRole('button', { name: 'Create key' });
    const revoke = keyRow('caller').getByRole('button', { name: /^Revoke/ });
    for (const button of [create, revoke]) {
      await expectReadOnlyBlocked(button);
      const description = await button.evaluate(
        (element) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent,
      );
      expect(description).toBe(READ_ONLY_REASON);
    }
    expect(await h.page.getByRole('dialog').count()).toBe(0);
  });
});
