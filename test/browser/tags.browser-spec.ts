import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { expectAccessible, goTo, screenshot, useDashboard } from './support/dashboard';

/**
 * Calls labelled with X-Tags through the execution API (two for support, one for sales that the provider fails, two
 * untagged), then found by their tags in Logs and broken down by tag in Stats.
 */
describe('Dashboard: request tags', () => {
  const h = useDashboard({ setUp: () => seed() });
  /** X-Request-Id of each call. */
  const requestIds = { supportProd: '', supportDev: '', sales: '', plain: '', plainToo: '' };

  const execute = async (text: string, tags: string | null, status = 200) => {
    const call = h.t.http.post(endpointPath).set('x-api-key', h.tenant.endpointKey);
    if (tags !== null) call.set('x-tags', tags);
    const response = await call.send({ text });
    expect(response.status).toBe(status);
    return response.headers['x-request-id'];
  };
  let endpointPath = '';

  async function seed(): Promise<void> {
    const endpoint = await h.createEndpoint({
      name: 'Triage',
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    endpointPath = endpoint.path;
    await h.createPrompt(endpoint.id, { name: 'Sort', template: 'Sort: {{ inputs.text }}', llmModel: 'gpt-4o-mini' });
    h.fake.reply(
      { text: 'one', inputTokens: 1000, outputTokens: 200 },
      { text: 'two', inputTokens: 3000, outputTokens: 100 },
    );
    requestIds.supportProd = await execute('first', 'team=support,env=prod');
    requestIds.supportDev = await execute('second', 'team=support,env=dev');
    h.fake.reply({ status: 500, message: 'down' });
    requestIds.sales = await execute('third', 'team=sales', 502);
    h.fake.reply(
      { text: 'four', inputTokens: 10, outputTokens: 10 },
      { text: 'five', inputTokens: 10, outputTokens: 10 },
    );
    requestIds.plain = await execute('fourth', null);
    requestIds.plainToo = await execute('fifth', 'env=prod');
    await h.t.app.get(ExecutionLogsService).flush();
  }

  const rows = () => h.page.locator('table.log-table tbody tr');
  const row = (requestId: string) => h.page.locator(`tr[data-request-id="${requestId}"]`);
  const count = (text: string) => h.page.getByRole('status').getByText(text, { exact: true }).waitFor();
  const filterChips = () => h.page.getByRole('list', { name: 'Tag filters' }).getByRole('listitem');

  it('shows each call’s tags as chips; a chip filters the list by its tag, kept in the URL and removable', async () => {
    await h.signIn(h.tenant.admin, '/logs');
    await count('5 calls');
    await expect(row(requestIds.supportProd).getByRole('list', { name: 'Tags' }).innerText()).resolves.toMatch(
      /env:\s*prod\s+team:\s*support/,
    );
    await expect(row(requestIds.plain).locator('td.tags').innerText()).resolves.toBe('—');

    await row(requestIds.supportProd)
      .getByRole('button', { name: /^team: support/ })
      .click();
    await count('2 calls');
    expect(decodeURIComponent(h.page.url())).toContain('tag=team:support');
    expect(await filterChips().allInnerTexts()).toEqual([expect.stringMatching(/^team:\s*support/)]);
    for (const id of await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-request-id'))))
      expect([requestIds.supportProd, requestIds.supportDev]).toContain(id);

    // A second value of the same key means either value; another key must also match.
    await h.page.getByRole('form', { name: 'Add a tag filter' }).getByLabel('Tag').fill('team:sales');
    await h.page.getByRole('button', { name: 'Add tag filter' }).click();
    await count('3 calls');
    await row(requestIds.supportDev)
      .getByRole('button', { name: /^env: dev/ })
      .click();
    await count('1 call');
    await expect(rows().count()).resolves.toBe(1);
    await row(requestIds.supportDev).waitFor();

    // The view survives a reload, and each filter goes with its own button.
    await h.page.reload();
    await count('1 call');
    await expect(filterChips().count()).resolves.toBe(3);
    await screenshot(h.page, 'logs-tags');
    await expectAccessible(h.page, { keyboard: true });
    await h.page.getByRole('button', { name: 'Remove the tag filter env:dev' }).click();
    await count('3 calls');
    expect(h.page.url()).not.toContain('env');
    await h.page.getByRole('button', { name: 'Remove the tag filter team:support' }).click();
    await count('1 call');
    await row(requestIds.sales).waitFor();

    // A key alone asks for the key with any value.
    await h.page.getByRole('button', { name: 'Remove the tag filter team:sales' }).click();
    await count('5 calls');
    await h.page.getByRole('form', { name: 'Add a tag filter' }).getByLabel('Tag').fill('env');
    await h.page.getByRole('button', { name: 'Add tag filter' }).click();
    await count('3 calls');
    expect(h.page.url()).toContain('hasTag=env');
    await expect(filterChips().first().innerText()).resolves.toMatch(/env\s*\(any value\)/);

    // A key the service would refuse is explained at the field, not sent.
    await h.page.getByRole('form', { name: 'Add a tag filter' }).getByLabel('Tag').fill('Team:x');
    await h.page.getByRole('button', { name: 'Add tag filter' }).click();
    await h.page
      .getByRole('alert')
      .getByText(/A tag key is a lowercase letter/)
      .waitFor();
    await count('3 calls');
  });

  it('shows a call’s tags in its detail, each a link to the calls carrying it', async () => {
    await goTo(h.page, '/logs');
    await count('5 calls');
    await row(requestIds.supportProd).locator('td.time a').click();
    await h.page.getByRole('heading', { level: 1, name: /^Call of / }).waitFor();
    const tags = h.page.locator('.log-facts').getByRole('list', { name: 'Tags' });
    await expect(tags.innerText()).resolves.toMatch(/env:\s*prod\s+team:\s*support/);
    await expectAccessible(h.page);

    await tags.getByRole('link', { name: /^env: prod/ }).click();
    await count('2 calls');
    expect(decodeURIComponent(h.page.url())).toContain('tag=env:prod');
    await row(requestIds.plainToo).waitFor();

    await goTo(h.page, '/logs');
    await count('5 calls');
    await row(requestIds.plain).locator('td.time a').click();
    await h.page.getByRole('heading', { level: 1, name: /^Call of / }).waitFor();
    await expect(h.page.locator('.log-facts dt:text-is("Tags") + dd').innerText()).resolves.toBe('None');
  });

  it('groups the stats by a tag key: each value’s calls, errors, latency and cost, the rest as other or untagged', async () => {
    const api = async (query: string) =>
      (await h.t.http.get(`/admin/v1/stats?${query}`).set(h.admin()).expect(200)).body.data;
    const byValue = new Map<string | null, { calls: number; costUsd: number }>(
      (await api('groupBy=tag:team')).groups.map(
        (group: { tag: { value: string | null }; totals: { calls: number; costUsd: number } }) => [
          group.tag.value,
          group.totals,
        ],
      ),
    );

    await goTo(h.page, '/stats');
    await h.page.getByRole('heading', { name: 'Totals' }).waitFor();
    await h.page.getByLabel('Group by tag key').fill('team');
    await h.page.getByRole('button', { name: 'Group', exact: true }).click();
    const table = h.page.getByRole('region', { name: 'By tag team' });
    await table.waitFor();
    expect(decodeURIComponent(h.page.url())).toContain('groupBy=tag:team');
    const line = (value: string) => table.locator(`tr[data-tag-value="${value}"]`);
    const cells = async (value: string) => (await line(value).locator('th, td').allInnerTexts()).map((t) => t.trim());

    await line('support').waitFor();
    const support = await cells('support');
    expect(support.slice(0, 4)).toEqual(['support', '2', '0', '0 %']);
    expect(support[4]).toMatch(/\d+ ms/);
    expect(support[6]).toBe(formatCost(byValue.get('support')!.costUsd));
    expect(byValue.get('support')!.costUsd).toBeGreaterThan(0);
    expect((await cells('sales')).slice(0, 4)).toEqual(['sales', '1', '1', '100 %']);
    const other = await cells('');
    expect(other.slice(0, 3)).toEqual(['Other values or untagged', '2', '0']);
    expect(other[6]).toBe(formatCost(byValue.get(null)!.costUsd));
    // Values are listed most calls first, the other group last.
    expect(await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.tagValue))).toEqual([
      'support',
      'sales',
      '',
    ]);
    await screenshot(h.page, 'stats-by-tag');
    await expectAccessible(h.page, { keyboard: true });

    // A tag filter narrows the totals and the groups; the value links to its calls in Logs.
    await h.page.getByRole('form', { name: 'Add a tag filter' }).getByLabel('Tag').fill('env:prod');
    await h.page.getByRole('button', { name: 'Add tag filter' }).click();
    await h.page.locator('.stats-totals dt:text-is("Calls") + dd').getByText('2', { exact: true }).waitFor();
    await expect(line('sales').count()).resolves.toBe(0);
    expect((await cells('support')).slice(0, 2)).toEqual(['support', '1']);
    expect((await cells('')).slice(0, 2)).toEqual(['Other values or untagged', '1']);
    await line('support').getByRole('link', { name: 'support' }).click();
    await count('1 call');
    const url = decodeURIComponent(h.page.url());
    expect(url).toContain('tag=env:prod');
    expect(url).toContain('tag=team:support');
    await row(requestIds.supportProd).waitFor();

    // Ending the grouping brings back the totals alone, the filter kept.
    await goTo(h.page, '/stats?groupBy=tag:team&tag=env:prod');
    await table.waitFor();
    await h.page.getByRole('button', { name: 'Stop grouping by tag' }).click();
    await table.waitFor({ state: 'detached' });
    expect(h.page.url()).not.toContain('groupBy');
    expect(decodeURIComponent(h.page.url())).toContain('tag=env:prod');
  });
});

/** The dashboard's way of writing a cost (ui/format.ts). */
function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(4)}`;
}
