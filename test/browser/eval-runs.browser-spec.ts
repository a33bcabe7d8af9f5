import { expectAccessible, expectReadOnlyBlocked, goTo, screenshot, signIn, useDashboard } from './support/dashboard';

/**
 * Evaluation runs on the dashboard: a dataset run from its page with a Draft prompt against the endpoint's default,
 * followed until it completes, its summary and the regression it found shown side by side; a run started from a
 * prompt's page; a slow run cancelled; and the endpoint's promotion gate, set on its Evaluate tab, closed on the
 * prompt's Promote and passed with a reason.
 */
describe('Dashboard: evaluation runs', () => {
  const h = useDashboard({ setUp: () => seed() });
  let endpointId = '';
  let datasetId = '';
  let candidateId = '';
  let slowId = '';

  /** What the fake provider answers the candidate about Peru: a check that refuses "not know" fails it. */
  const UNSURE = 'I do not know.';

  /**
   * Both prompts answer through the fake provider: the default one with each country's capital, the candidate with
   * the capital of France but not of Peru, so with a check that refuses "not know", France passes on both sides and
   * Peru regresses. `Slow` asks the same, and its answers are held back.
   */
  async function seed(): Promise<void> {
    h.fake.replyBy((request) => {
      const prompt = JSON.stringify(request.body);
      if (prompt.includes('Capital of Peru?')) return { text: UNSURE };
      return { text: prompt.includes('France') ? 'Paris' : 'Lima' };
    });
    const endpoint = await h.createEndpoint({
      name: 'Capitals',
      inputs: [{ name: 'country', dataType: 'string', isRequired: true, maxLength: 100 }],
    });
    endpointId = endpoint.id;
    await h.createPrompt(endpoint.id, {
      name: 'Plain',
      template: 'Name the capital of {{ inputs.country }}.',
      llmModel: 'gpt-4o-mini',
    });
    const candidate = await h.createPrompt(
      endpoint.id,
      { name: 'Terse', template: 'Capital of {{ inputs.country }}?', llmModel: 'gpt-4o-mini' },
      'Draft',
    );
    candidateId = candidate.id;
    const slow = await h.createPrompt(
      endpoint.id,
      { name: 'Slow', template: 'Slowly, the capital of {{ inputs.country }}?', llmModel: 'gpt-4o-mini' },
      'Draft',
    );
    slowId = slow.id;
    const created = await h.t.http
      .post(`/admin/v1/endpoints/${endpoint.id}/datasets`)
      .set(h.admin())
      .send({ name: 'Capitals of the world', checks: [{ type: 'not_contains', value: 'not know' }] })
      .expect(201);
    datasetId = created.body.data.id;
    await h.t.http
      .post(`/admin/v1/datasets/${datasetId}/items`)
      .set(h.admin())
      .send({ items: [{ inputs: { country: 'France' } }, { inputs: { country: 'Peru' } }] })
      .expect(201);
  }

  const page = () => h.page;
  const datasetPath = () => `/endpoints/${endpointId}/datasets/${datasetId}`;
  const runStatus = (text: string) => page().locator('.run-status').getByText(text, { exact: true }).waitFor();
  /** Waits until the run's summary reads as `pattern`. */
  const summaryShows = (pattern: RegExp) =>
    page().waitForFunction(
      (source) => new RegExp(source).test(document.querySelector<HTMLElement>('.run-summary')?.innerText ?? ''),
      pattern.source,
    );

  it('runs a dataset from its page and sees the run complete with its summary', async () => {
    await h.signIn(h.tenant.admin, datasetPath());
    await page().getByRole('heading', { level: 1, name: 'Capitals of the world' }).waitFor();
    const runs = page().getByRole('region', { name: 'Runs' });
    await runs.getByText('No runs of this dataset yet.').waitFor();
    await runs.getByRole('button', { name: 'Run', exact: true }).click();
    const form = page().getByRole('form', { name: 'Run the dataset' });
    await form.getByLabel('Prompt').selectOption({ label: 'Terse (Draft)' });
    // The version defaults to the prompt's current one.
    await expect(form.getByLabel('Version').inputValue()).resolves.toBe('1');
    await expect(form.getByLabel('Baseline').inputValue()).resolves.toBe('default');
    await form.getByLabel('Concurrency').fill('2');
    await expectAccessible(page(), { keyboard: true });
    await form.getByRole('button', { name: 'Start run' }).click();

    await page().getByRole('heading', { level: 1, name: 'Run of Capitals of the world' }).waitFor();
    await runStatus('Completed');
    await page().locator('.run-status').getByText('2 of 2 items ran.').waitFor();
    await summaryShows(/Pass rate\s+50% \(1 of 2\)\s+Baseline pass rate\s+100%\s+Regressions\s+1\s+Improvements\s+0/);
    const facts = await page().locator('.run-facts').innerText();
    expect(facts).toMatch(/Candidate\s+Terse v1\s+Baseline\s+Plain v1\s+Dataset version\s+v1\s+Repeats\s+1/);
    expect(facts).toMatch(/Concurrency\s+2/);
    await expect(page().getByRole('progressbar').count()).resolves.toBe(0);
    await expect(page().getByRole('button', { name: 'Cancel run' }).count()).resolves.toBe(0);
    await expectAccessible(page(), { keyboard: true });

    // The dataset's page lists it with its summary.
    await page().getByRole('link', { name: '← Capitals of the world' }).click();
    const row = page().getByRole('region', { name: 'Runs' }).locator('tbody tr');
    await row.first().waitFor();
    await expect(row.first().innerText()).resolves.toMatch(
      /Completed\s+Terse v1\s+Plain v1\s+50% \(1\/2\)\s+100%\s+1\s+0\s+\$\S+/,
    );
  });

  it('shows the regression side by side, its check’s reason and the outputs’ diff, then every item', async () => {
    await page().getByRole('region', { name: 'Runs' }).locator('tbody tr').first().getByRole('link').click();
    const results = page().getByRole('region', { name: 'Results' });
    await results.getByRole('article').first().waitFor();
    // Only the regression is shown at first.
    await expect(results.getByRole('button', { name: 'Regressions (1)' }).getAttribute('aria-pressed')).resolves.toBe(
      'true',
    );
    await expect(results.getByRole('article').count()).resolves.toBe(1);
    const item = results.getByRole('article', { name: 'Item 2' });
    await item.getByText('Regressed', { exact: true }).waitFor();
    const candidate = item.getByRole('region', { name: 'Candidate' });
    const baseline = item.getByRole('region', { name: 'Baseline' });
    await expect(candidate.locator('pre').innerText()).resolves.toContain(UNSURE);
    await expect(baseline.locator('pre').innerText()).resolves.toContain('Lima');
    await expect(candidate.locator('.run-checks').innerText()).resolves.toMatch(/✗ Fail not_contains: \S/);
    await expect(baseline.locator('.run-checks').innerText()).resolves.toMatch(/✓ Pass not_contains/);
    await expect(candidate.locator('h4').innerText()).resolves.toMatch(/Candidate\s+Fails/);
    await expect(baseline.locator('h4').innerText()).resolves.toMatch(/Baseline\s+Passes/);
    const diff = item.getByRole('table', { name: /Unified diff of item 2's output from Baseline to Candidate/ });
    await expect(diff.locator('tr.diff-removed').innerText()).resolves.toContain('Lima');
    await expect(diff.locator('tr.diff-added').innerText()).resolves.toContain(UNSURE);
    await screenshot(page(), 'evaluate-run');

    await results.getByRole('button', { name: 'All items (2)' }).click();
    await expect(results.getByRole('article').count()).resolves.toBe(2);
    const first = results.getByRole('article', { name: 'Item 1' });
    await first.getByText('Passes on both', { exact: true }).waitFor();
    await first.getByText("The candidate's output is the same as the baseline's.").waitFor();
    await expectAccessible(page(), { keyboard: true });

    // Each answer links to its row in Logs.
    await item.getByRole('link', { name: "Candidate's log row" }).click();
    await page().getByRole('heading', { level: 1 }).first().waitFor();
    expect(page().url()).toMatch(/#\/logs\/[0-9a-f-]{36}$/);
  });

  it('runs a prompt against the default from its page, choosing the dataset', async () => {
    await goTo(page(), `/endpoints/${endpointId}/prompts/${candidateId}`);
    await page().getByRole('button', { name: 'Run against the default' }).click();
    const form = page().getByRole('form', { name: 'Run against the default' });
    await form.getByLabel('Dataset').waitFor();
    await expect(form.getByLabel('Dataset').locator('option').allInnerTexts()).resolves.toEqual([
      'Capitals of the world (2 items)',
    ]);
    await expectAccessible(page());
    await form.getByRole('button', { name: 'Start run' }).click();
    await page().getByRole('heading', { level: 1, name: 'Run of Capitals of the world' }).waitFor();
    await runStatus('Completed');
    await summaryShows(/Pass rate\s+50% \(1 of 2\)\s+Baseline pass rate\s+100%\s+Regressions\s+1/);
  });

  it('follows a slow run and cancels it', async () => {
    h.fake.replyBy(() => ({ text: 'Lima', delayMs: 4000 }));
    await goTo(page(), datasetPath());
    await page().getByRole('region', { name: 'Runs' }).getByRole('button', { name: 'Run', exact: true }).click();
    const form = page().getByRole('form', { name: 'Run the dataset' });
    await form.getByLabel('Prompt').selectOption({ label: 'Slow (Draft)' });
    await form.getByLabel('Baseline').selectOption('none');
    await form.getByLabel('Concurrency').fill('1');
    await form.getByLabel('Call the models again, even for answers kept from an earlier run').check();
    await form.getByRole('button', { name: 'Start run' }).click();

    await page().getByRole('heading', { level: 1, name: 'Run of Capitals of the world' }).waitFor();
    await page().getByRole('progressbar', { name: 'Items done' }).waitFor();
    await page()
      .locator('.run-status')
      .getByText(/0 of 2 items done/)
      .waitFor();
    await page().getByRole('button', { name: 'Cancel run' }).click();
    await runStatus('Cancelled');
    await page().getByRole('progressbar').waitFor({ state: 'detached' });
    await expect(page().getByRole('button', { name: 'Cancel run' }).count()).resolves.toBe(0);
    await expectAccessible(page());
  });

  it('sets the endpoint’s promotion gate on its Evaluate tab', async () => {
    await goTo(page(), `/endpoints/${endpointId}/evaluate`);
    const gate = page().getByRole('region', { name: 'Promotion gate' });
    await gate.getByText(/^No gate: any Draft prompt/).waitFor();
    const form = gate.getByRole('form', { name: 'Promotion gate' });
    await expect(form.getByLabel('Minimum pass rate (%)').isDisabled()).resolves.toBe(true);
    await form.getByLabel('Dataset').selectOption({ label: 'Capitals of the world' });
    await form.getByLabel('Minimum pass rate (%)').fill('100');
    await form.getByLabel('Maximum regressions').fill('0');
    await form.getByRole('button', { name: 'Save gate' }).click();
    await gate.getByRole('status').getByText('Saved the promotion gate.').waitFor();
    await gate
      .getByText(
        /^Promoting a prompt needs a completed run of “Capitals of the world”.* at least 100% .* no regressions\.$/,
      )
      .waitFor();
    const saved = await h.t.http.get(`/admin/v1/endpoints/${endpointId}`).set(h.admin()).expect(200);
    expect(saved.body.data.promotionGate).toEqual({ datasetId, minPassRate: 1, maxRegressions: 0 });
    await expectAccessible(page(), { keyboard: true });
  });

  it('shows the gate on Promote, its reasons when closed, and promotes anyway with a reason', async () => {
    await goTo(page(), `/endpoints/${endpointId}/prompts/${candidateId}`);
    const note = page().getByRole('note', { name: 'Promotion gate' });
    await note.getByText(/Newest run of version 1: Completed, pass rate 50%, 1 regression\./).waitFor();
    // Before any attempt, the note says the gate is closed and why, as the service would refuse.
    await note.getByText('The gate is closed:').waitFor();
    await expect(note.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/pass rate 0\.5\b.* below/i),
      expect.stringMatching(/\b1 regression\b.*at most 0/),
    ]);
    await page().getByRole('button', { name: 'Promote to Live' }).click();
    const refusal = page().locator('.gate-refusal');
    await refusal.getByRole('alert').getByText('The promotion gate is closed:').waitFor();
    // The service's reasons, one per unmet threshold, as it words them.
    await expect(refusal.getByRole('alert').getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/pass rate 0\.5\b.* below/i),
      expect.stringMatching(/\b1 regression\b.*at most 0/),
    ]);
    await expectAccessible(page(), { keyboard: true });

    const force = page().getByRole('form', { name: 'Promote anyway' });
    await force.getByRole('button', { name: 'Promote anyway' }).click();
    await force.getByText('Promoting past the gate needs a reason.').waitFor();
    await force.getByLabel('Reason for promoting anyway').fill('Peru is out of scope this week');
    await force.getByRole('button', { name: 'Promote anyway' }).click();
    await page()
      .getByRole('status')
      .getByText('Promoted past the promotion gate: the prompt is Live, and its version records why.')
      .waitFor();
    await page().locator('.prompt-status .badge.live').waitFor();
    await expect(page().locator('.gate-refusal').count()).resolves.toBe(0);
    const version = await h.t.http.get(`/admin/v1/prompts/${candidateId}/versions/1`).set(h.admin()).expect(200);
    expect(version.body.data.gate).toMatchObject({ forced: true, reason: 'Peru is out of scope this week' });
    // The version's page says how it passed the gate, with the run the gate looked at.
    await goTo(page(), `/endpoints/${endpointId}/prompts/${candidateId}/versions/1`);
    const facts = page().locator('.version-facts');
    await facts.getByText(/Promoted anyway: Peru is out of scope this week/).waitFor();
    await facts.getByRole('link', { name: '(the newest run)' }).click();
    await page().getByRole('heading', { level: 1, name: 'Run of Capitals of the world' }).waitFor();
  });

  it('shows a ReadOnly key the runs with every start and cancel disabled, saying why', async () => {
    await h.withPage(async (readOnlyPage) => {
      await signIn(readOnlyPage, h.baseUrl, h.tenant.readOnly, datasetPath());
      const runs = readOnlyPage.getByRole('region', { name: 'Runs' });
      await runs.locator('tbody tr').nth(2).waitFor();
      await expectReadOnlyBlocked(runs.getByRole('button', { name: 'Run', exact: true }));
      await goTo(readOnlyPage, `/endpoints/${endpointId}/prompts/${slowId}`);
      await expectReadOnlyBlocked(readOnlyPage.getByRole('button', { name: 'Run against the default' }));
    });
  });
});
