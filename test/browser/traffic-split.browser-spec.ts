import type { Page } from 'playwright-core';
import { assignVariant, type TrafficSplit } from '../../src/modules/endpoints/traffic-split';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { auth } from '../support/seed';
import { accessibilityViolations, expectAccessible, goTo, screenshot, useDashboard } from './support/dashboard';

describe('Dashboard: traffic split', () => {
  const h = useDashboard();
  let page: Page;
  beforeAll(() => (page = h.page));

  it('splits an endpoint 90/10 by a header and shows each prompt beside its figures', async () => {
    const endpoint = await h.createEndpoint({ name: 'Support reply', inputs: [{ name: 'text', dataType: 'string' }] });
    const control = await h.createPrompt(endpoint.id, { name: 'Friendly', template: 'friendly {{ inputs.text }}' });
    const candidate = await h.createPrompt(
      endpoint.id,
      { name: 'Concise', template: 'concise {{ inputs.text }}' },
      'Live',
    );
    await h.createPrompt(endpoint.id, { name: 'Unfinished', template: 'draft' }, 'Draft');

    await h.signIn(h.tenant.admin, `/endpoints/${endpoint.id}`);
    const panel = page.getByRole('region', { name: 'Traffic split' });
    await panel.getByText('No split: the default prompt answers every call').waitFor();
    await panel.getByRole('button', { name: 'Split traffic' }).click();

    // A new split starts as 90/10 between the default and another Live prompt; Drafts are not offered.
    const form = panel.getByRole('form', { name: 'Traffic split' });
    const first = form.getByLabel('Prompt of variant 1');
    expect(await first.inputValue()).toBe(control.id);
    expect(await form.getByLabel('Prompt of variant 2').inputValue()).toBe(candidate.id);
    expect(await first.locator('option').allInnerTexts()).toEqual(['Friendly (default)']);
    expect(await form.getByLabel('Weight of variant 1').inputValue()).toBe('90');
    expect(await form.getByLabel('Weight of variant 2').inputValue()).toBe('10');

    // Weights that do not sum to 100 cannot be saved.
    await form.getByLabel('Weight of variant 2').fill('30');
    await form.getByText('Total: 120 % (the weights must sum to 100)').waitFor();
    expect(await form.getByRole('button', { name: 'Save split' }).isDisabled()).toBe(true);
    await form.getByLabel('Weight of variant 2').fill('10');
    await form.getByText('Total: 100 %').waitFor();

    await form.getByRole('radio', { name: 'a request header' }).check();
    await form.getByLabel('Header name').fill('X-User-Id');
    await expectAccessible(page, { keyboard: true });
    await form.getByRole('button', { name: 'Save split' }).click();

    const table = panel.getByRole('table', { name: 'Traffic split and figures per prompt' });
    await table.waitFor();
    await panel.getByText('Each value of the x-user-id header stays on one prompt').waitFor();
    const stored = await h.t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(h.admin());
    const split = stored.body.data.trafficSplit as TrafficSplit;
    expect(split).toEqual({
      variants: [
        { promptId: control.id, weight: 90 },
        { promptId: candidate.id, weight: 10 },
      ],
      stickyBy: 'header:x-user-id',
    });
    // The prompts table marks the split's prompts.
    await page.getByRole('row', { name: /Concise .*Split 10 %/ }).waitFor();

    // Forty users call it; each prompt's figures are its own.
    const expected = new Map<string, number>();
    for (let user = 0; user < 40; user++) {
      const res = await h.t.http
        .post(endpoint.path)
        .set({ ...auth(h.tenant.endpointKey), 'x-user-id': `customer-${user}` })
        .send({ text: 'where is my order?' });
      expect(res.status).toBe(200);
      const promptId = assignVariant(split, endpoint.id, `customer-${user}`);
      expect(res.headers['x-prompt']).toBe(promptId === control.id ? 'friendly@1' : 'concise@1');
      expected.set(promptId, (expected.get(promptId) ?? 0) + 1);
    }
    expect(expected.size).toBe(2);
    // Two test runs of Concise: not calls through the API, so not the split's figures (the Stats page counts them).
    for (const text of ['try one', 'try two']) {
      await h.t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(h.admin())
        .send({ promptId: candidate.id, inputs: { text } })
        .expect(200);
    }
    await h.t.app.get(ExecutionLogsService).flush();
    await goTo(page, '/endpoints');
    await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
    await goTo(page, `/endpoints/${endpoint.id}`);
    await table.waitFor();

    const rows = table.getByRole('row');
    // The figures and the prompts' names arrive separately: wait for both (a prompt shows its id until its name has).
    await page.waitForFunction(
      (calls) =>
        document.querySelector('.traffic-split tbody tr td:nth-child(3)')?.textContent === calls &&
        document.querySelector('.traffic-split tbody tr td:nth-child(1)')?.textContent === 'Friendly',
      String(expected.get(control.id)),
    );
    const cells = async (index: number) => (await rows.nth(index).getByRole('cell').allInnerTexts()).slice(0, 4);
    expect(await cells(1)).toEqual(['Friendly', '90 %', String(expected.get(control.id)), '0.0 %']);
    expect(await cells(2)).toEqual(['Concise', '10 %', String(expected.get(candidate.id)), '0.0 %']);
    await panel.getByText("each prompt's calls made through the API (test runs and MCP runs left out").waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'traffic-split');

    // The Stats page of the endpoint puts the same prompts side by side, with their latency, counting every source:
    // Concise's test runs too.
    await panel.getByRole('link', { name: 'Stats' }).click();
    const byPrompt = page.getByRole('region', { name: 'By prompt' });
    await byPrompt.waitFor();
    const promptRows = byPrompt.getByRole('row');
    expect((await promptRows.nth(1).getByRole('cell').allInnerTexts()).slice(0, 3)).toEqual([
      'Friendly',
      String(expected.get(control.id)),
      '0 %',
    ]);
    expect((await promptRows.nth(2).getByRole('cell').allInnerTexts()).slice(0, 2)).toEqual([
      'Concise',
      String(expected.get(candidate.id)! + 2),
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('shows a ReadOnly key the split without letting it change it', async () => {
    const endpoint = await h.createEndpoint({ name: 'Read only split' });
    await h.createPrompt(endpoint.id, { name: 'A', template: 'a' });
    await h.createPrompt(endpoint.id, { name: 'B', template: 'b' }, 'Live');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await h.signIn(h.tenant.readOnly, `/endpoints/${endpoint.id}`);
    const panel = page.getByRole('region', { name: 'Traffic split' });
    const button = panel.getByRole('button', { name: 'Split traffic' });
    await button.waitFor();
    expect(await button.isDisabled()).toBe(true);
    expect(await button.getAttribute('title')).toMatch(/ReadOnly/);
  });
});
