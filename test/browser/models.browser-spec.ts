import type { AddressInfo } from 'node:net';
import { seedTenant } from '../support/seed';
import { createTestApp } from '../support/test-app';
import { expectAccessible, screenshot, signIn, useDashboard, watchProblems } from './support/dashboard';

describe('Dashboard: Models', () => {
  const h = useDashboard();

  const row = (id: string) => h.page.locator(`tr[data-model="${id}"]`);

  it('lists the catalog with prices, context windows, capabilities and availability, available models first', async () => {
    await h.signIn(h.tenant.admin, '/models');
    await h.page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
    await row('mock-echo').waitFor();

    const catalog: {
      id: string;
      provider: string;
      available: boolean;
      pricing: { inputPerMillionTokens: number | null };
    }[] = (await h.t.http.get('/admin/v1/prompts/models').set('x-api-key', h.tenant.admin).expect(200)).body.data;
    await h.page
      .getByRole('status')
      .getByText(`${catalog.length.toLocaleString('en-US')} models`)
      .waitFor();
    await expect(h.page.locator('table.models-table tbody tr').count()).resolves.toBe(catalog.length);

    const mock = await row('mock-echo').innerText();
    expect(mock).toContain('offline test model');
    expect(mock).toContain('Available');
    expect(mock).toContain('Structured output');

    // OpenAI is configured in the harness (OPENAI_API_KEY is set): its models are available, priced per million tokens.
    const gpt = await row('gpt-4o').innerText();
    expect(gpt).toContain('OpenAI');
    expect(gpt).toContain('Available');
    expect(gpt).toMatch(/128.?000/);
    const price = catalog.find((model) => model.id === 'gpt-4o')!.pricing.inputPerMillionTokens!;
    expect(gpt).toContain(`$${price}`);

    // Available models come first.
    const shown = await h.page
      .locator('table.models-table tbody tr')
      .evaluateAll((rows) => rows.map((tr) => (tr as HTMLElement).dataset.model ?? ''));
    const available = new Set(catalog.filter((model) => model.available).map((model) => model.id));
    const firstUnavailable = shown.findIndex((id) => !available.has(id));
    if (firstUnavailable >= 0) expect(shown.slice(firstUnavailable).every((id) => !available.has(id))).toBe(true);

    await screenshot(h.page, 'models');
    await expectAccessible(h.page, { keyboard: true });
  });

  it('filters by provider and availability, kept in the URL', async () => {
    await h.page.getByLabel('Provider').selectOption({ label: 'Anthropic' });
    await h.page.getByRole('status').getByText(/ of /).waitFor();
    const providers = await h.page.locator('table.models-table tbody tr td:nth-of-type(1)').allInnerTexts();
    expect(providers.length).toBeGreaterThan(0);
    expect(new Set(providers)).toEqual(new Set(['Anthropic']));
    expect(h.page.url()).toContain('provider=anthropic');

    await h.page.getByLabel('Availability').selectOption('not-configured');
    await h.page.getByText('No model matches these filters.').waitFor();
    await h.page.reload();
    await h.page.getByText('No model matches these filters.').waitFor();
    await expect(h.page.getByLabel('Provider').inputValue()).resolves.toBe('anthropic');

    await h.page.getByRole('button', { name: 'Clear filters' }).click();
    await row('mock-echo').waitFor();
    await h.page.getByLabel('Search').fill('echo');
    await expect(h.page.locator('table.models-table tbody tr').count()).resolves.toBe(1);
  });

  it('on a service without provider keys, marks the providers not configured and names the variable to set', async () => {
    const t = await createTestApp();
    const context = await h.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await t.app.listen(0, '127.0.0.1');
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const tenant = await seedTenant(t.app);
      const page = await context.newPage();
      const problems: string[] = [];
      watchProblems(page, problems);
      await signIn(page, `http://127.0.0.1:${port}`, tenant.admin, '/models?provider=openai');
      const gpt = page.locator('tr[data-model="gpt-4o"]');
      await gpt.waitFor();
      expect(await gpt.innerText()).toContain('Not configured');
      expect(await gpt.innerText()).toContain('Set OPENAI_API_KEY');
      await page.getByLabel('Provider').selectOption('google');
      await page.locator('tbody tr').first().getByText('Set GOOGLE_GENERATIVE_AI_API_KEY').waitFor();
      // The offline model is always available, and available models come first.
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect(page.locator('tbody tr').first().getAttribute('data-model')).resolves.toBe('mock-echo');
      await expectAccessible(page);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await t.close();
    }
  });
});
