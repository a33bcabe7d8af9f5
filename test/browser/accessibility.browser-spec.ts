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
    const base = `/endpoints/${endpoint.id}`;
    routes.push(
      ['endpoints', '/endpoints'],
      ['new endpoint', '/endpoints/new'],
      ['deleted endpoints', '/endpoints/deleted'],
      ['endpoint', base],
      ['new prompt', `${base}/prompts/new`],
      ['prompt', `${base}/prompts/${prompt.id}`],
      ['test runner', `${base}/run?prompt=${prompt.id}`],
      ['versions', `${base}/prompts/${prompt.id}/versions`],
      ['version', `${base}/prompts/${prompt.id}/versions/1`],
      ['compare', `${base}/prompts/${prompt.id}/versions/compare?from=1&to=2`],
      ['keys', '/keys'],
      ['logs', '/logs'],
      ['log', `/logs/${run.body.data.logId}`],
      ['stats', '/stats'],
      ['models', '/models'],
      ['score configs', '/settings/score-configs'],
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
});
