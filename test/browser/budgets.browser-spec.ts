import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { logEntry } from '../support/log-fixtures';
import { seedTenant } from '../support/seed';
import { expectAccessible, screenshot, signIn, useDashboard } from './support/dashboard';

describe('Dashboard: Budgets', () => {
  const h = useDashboard();

  it("shows each budget's limit, spent, reserved and remaining in its period, and the burn so far", async () => {
    const endpoint = await h.createEndpoint();
    // A quarter of the limit was spent today already: the budget's spent total starts from the logs.
    const logs = h.t.app.get(ExecutionLogsService);
    logs.record(logEntry(h.tenant.id, endpoint.id, { costUsd: 0.25, createdAt: new Date() }));
    await logs.flush();
    const created = await h.t.http
      .post('/admin/v1/budgets')
      .set(h.admin())
      .send({
        name: 'Partner endpoint',
        scope: { type: 'endpoint', endpointId: endpoint.id },
        period: 'day',
        limitUsd: 1,
      });
    expect(created.status).toBe(201);
    await h.t.http
      .post('/admin/v1/budgets')
      .set(h.admin())
      .send({
        name: 'Summaries',
        scope: { type: 'tag', tag: 'feature:summaries' },
        period: 'month',
        limitUsd: 50,
        enabled: false,
      })
      .expect(201);

    await h.signIn(h.tenant.readOnly, '/budgets');
    await h.page.getByRole('heading', { level: 1, name: 'Budgets' }).waitFor();
    const row = h.page.locator(`tr[data-budget="${created.body.data.id}"]`);
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain('Partner endpoint');
    expect(text).toContain('Endpoint');
    expect(text).toContain(endpoint.id);
    expect(text).toContain('Daily');
    expect(text).toMatch(/\$1\.00\s+\$0\.25\s+\$0\.00\s+\$0\.75/);
    expect(text).toMatch(/25 % of the limit spent, \d+ % of the period gone/);
    await expect(row.getByRole('meter').getAttribute('value')).resolves.toBe('0.25');

    const tag = await h.page.locator('tr[data-budget]', { hasText: 'Summaries' }).innerText();
    expect(tag).toContain('feature:summaries');
    expect(tag).toContain('disabled');
    expect(tag).toContain('Monthly');

    await screenshot(h.page, 'budgets');
    await expectAccessible(h.page, { keyboard: true });
  });

  it('says when the tenant has no budgets', async () => {
    const other = await h.withPage(async (page) => {
      const tenant = await seedTenant(h.t.app);
      await signIn(page, h.baseUrl, tenant.admin, '/budgets');
      await page.getByText('No budgets yet').waitFor();
      return page.getByRole('heading', { level: 1 }).innerText();
    });
    expect(other).toBe('Budgets');
  });
});
