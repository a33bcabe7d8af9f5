import { accessibilityViolations, goTo, keyboardProblems, useDashboard } from './support/dashboard';

/**
 * Every page of the dashboard, with data on it, for a ReadWrite and a ReadOnly key: no serious or critical axe-core
 * violation, and every enabled control reachable with Tab, showing where the focus is.
 */
describe('Dashboard: every page is accessible and keyboard reachable', () => {
  const routes: [name: string, route: string][] = [];
  const h = useDashboard({ setUp: seed });

  async function seed(): Promise<void> {
    const admin = h.admin();
    const endpoint = await h.createEndpoint({
      name: 'Summarize',
      category: 'text',
      inputs: [
        { name: 'text', dataType: 'string', isRequired: true, maxLength: 500, description: 'The text' },
        { name: 'sentences', dataType: 'integer', minimum: 1, maximum: 5, defaultValue: 2 },
        { name: 'picture', dataType: 'image' },
      ],
      outputs: [{ name: 'summary', dataType: 'string' }],
    });
    const deleted = await h.createEndpoint({ name: 'Old one' });
    await h.t.http.delete(`/admin/v1/endpoints/${deleted.id}`).set(admin).expect(200);
    const prompt = await h.createPrompt(endpoint.id, {
      name: 'Short',
      template: 'Summarize {{ inputs.text }} in {{ inputs.sentences }}.',
    });
    await h.t.http
      .put(`/admin/v1/prompts/${prompt.id}`)
      .set(admin)
      .send({ template: 'Summarize {{ inputs.text }} in {{ inputs.sentences }} short sentences.' })
      .expect(200);
    // A test run's log row is written before it answers.
    const run = await h.t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/test`)
      .set(admin)
      .send({ promptId: prompt.id, inputs: { text: 'Hello there' } })
      .expect(200);
    const dataset = await h.t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/datasets`)
      .set(admin)
      .send({ name: 'Cases', checks: [{ type: 'contains', value: 'Hello' }] })
      .expect(201);
    await h.t.http
      .post(`/admin/v1/datasets/${dataset.body.data.id}/items`)
      .set(admin)
      .send({ items: [{ inputs: { text: 'Hello there' } }, { inputs: { text: 'Good morning' } }] })
      .expect(201);
    const evalRun = await h.t.http
      .post(`/admin/v1/datasets/${dataset.body.data.id}/runs`)
      .set(admin)
      .send({ promptId: prompt.id, baseline: 'none' })
      .expect(202);
    await h.t.http
      .post('/admin/v1/budgets')
      .set(admin)
      .send({ name: 'Daily', scope: { type: 'tenant' }, period: 'day', limitUsd: 5 })
      .expect(201);
    const base = `/endpoints/${endpoint.id}`;
    routes.push(
      ['endpoints', '/endpoints'],
      ['new endpoint', '/endpoints/new'],
      ['deleted endpoints', '/endpoints/deleted'],
      ['endpoint', base],
      ['new prompt', `${base}/prompts/new`],
      ['prompt', `${base}/prompts/${prompt.id}`],
      ['test runner', `${base}/run?prompt=${prompt.id}`],
      ['compare side by side', `${base}/run/compare?prompt=${prompt.id}`],
      ['versions', `${base}/prompts/${prompt.id}/versions`],
      ['version', `${base}/prompts/${prompt.id}/versions/1`],
      ['compare', `${base}/prompts/${prompt.id}/versions/compare?from=1&to=2`],
      ['keys', '/keys'],
      ['logs', '/logs'],
      ['log', `/logs/${run.body.data.logId}`],
      ['stats', '/stats'],
      ['models', '/models'],
      ['score configs', '/settings/score-configs'],
      ['budgets', '/budgets'],
      ['evaluate', `${base}/evaluate`],
      ['dataset', `${base}/datasets/${dataset.body.data.id}`],
      ['evaluation run', `${base}/eval-runs/${evalRun.body.data.id}`],
    );
  }

  /** Opens a route and waits for its heading and data (no loading message left). */
  async function open(route: string): Promise<void> {
    await goTo(h.page, route);
    await h.page.getByRole('heading', { level: 1 }).first().waitFor();
    await h.page.waitForFunction(
      () => document.querySelectorAll('.loading').length === 0 && !document.body.textContent?.includes('Loading'),
    );
  }

  for (const [who, key] of [
    ['ReadWrite', 'admin'],
    ['ReadOnly', 'readOnly'],
  ] as const) {
    it(`every page, signed in with a ${who} key`, async () => {
      await h.signIn(h.tenant[key]);
      const report: Record<string, unknown> = {};
      for (const [name, route] of routes) {
        await open(route);
        const violations = await accessibilityViolations(h.page);
        const keyboard = await keyboardProblems(h.page);
        if (violations.length > 0 || keyboard.unreachable.length > 0 || keyboard.noVisibleFocus.length > 0)
          report[name] = { violations, keyboard };
      }
      expect(report).toEqual({});
      await h.page.getByRole('button', { name: 'Sign out' }).click();
    });
  }

  it('on a narrow screen the navigation folds behind a Menu button, and a page reached through it has the focus', async () => {
    await h.signIn(h.tenant.admin);
    await h.page.setViewportSize({ width: 390, height: 844 });
    try {
      const menu = h.page.getByRole('button', { name: 'Menu' });
      const navigation = h.page.getByRole('navigation', { name: 'Main' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await navigation.isVisible()).toBe(false);
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await navigation.getByRole('link', { name: 'Keys' }).click();
      const heading = h.page.getByRole('heading', { level: 1, name: 'Keys' });
      await heading.waitFor();
      // The menu closed behind the choice, and keyboard focus starts on the page's heading.
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await navigation.isVisible()).toBe(false);
      await h.page.waitForFunction(
        () => document.activeElement?.textContent === 'Keys' && document.activeElement.tagName === 'H1',
      );
      // The keys table scrolls within its box: the page itself is no wider than the screen.
      await h.page.locator('table.keys-table').waitFor();
      const widths = await h.page.evaluate(() => {
        const table = document.querySelector('table.keys-table')!;
        return { table: table.scrollWidth, box: table.clientWidth, page: document.documentElement.scrollWidth };
      });
      expect(widths.table).toBeGreaterThan(widths.box);
      expect(widths.page).toBeLessThanOrEqual(390);
      // On a wide screen the navigation is always shown, and a navigation moves the focus to the new page's heading.
      await h.page.setViewportSize({ width: 1280, height: 800 });
      expect(await menu.isVisible()).toBe(false);
      await navigation.getByRole('link', { name: 'Models' }).click();
      await h.page.waitForFunction(
        () => document.activeElement?.tagName === 'H1' && document.activeElement.textContent?.includes('Models'),
      );
    } finally {
      await h.page.setViewportSize({ width: 1280, height: 800 });
      await h.page.getByRole('button', { name: 'Sign out' }).click();
    }
  });

  for (const width of [390, 1366]) {
    it(`every page at ${width} px wide: no axe violation of any impact, and nothing wider than the screen`, async () => {
      await h.signIn(h.tenant.admin);
      await h.page.setViewportSize({ width, height: 844 });
      try {
        const report: Record<string, unknown> = {};
        for (const [name, route] of routes) {
          await open(route);
          const violations = await accessibilityViolations(h.page, { every: true });
          const overflow = await h.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (violations.length > 0 || overflow > 0) report[name] = { violations, overflow };
        }
        expect(report).toEqual({});
      } finally {
        await h.page.setViewportSize({ width: 1280, height: 800 });
        await h.page.getByRole('button', { name: 'Sign out' }).click();
      }
    });
  }
});
