import type { Locator, Page } from 'playwright-core';
import { type FakeStreamShape, receivedMessages } from '../support/fake-llm-server';
import { eventually } from '../support/eventually';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import {
  accessibilityViolations,
  expectAccessible,
  expectReadOnlyBlocked,
  goTo,
  screenshot,
  useDashboard,
} from './support/dashboard';

/**
 * The test runner's side-by-side grid: rows typed with the runner's form, from a dataset and from the endpoint's recent
 * calls, against an unsaved draft and a saved version of a prompt; every cell run with its output, cost, latency and
 * log row; the limits on rows and columns; the grid saved as a dataset.
 */
describe('Dashboard: the side-by-side grid', () => {
  const h = useDashboard({ setUp: () => seed() });
  let page: Page;
  let endpointId = '';
  let endpointPath = '';
  let promptId = '';

  const api = {
    get: (path: string) => h.t.http.get(path).set(h.admin()),
    post: (path: string, body: object) => h.t.http.post(path).set(h.admin()).send(body),
  };

  async function seed(): Promise<void> {
    const endpoint = await h.createEndpoint({
      name: 'Summaries',
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    endpointId = endpoint.id;
    endpointPath = endpoint.path;
    const prompt = await h.createPrompt(endpoint.id, {
      name: 'Terse',
      template: 'Terse v1: {{ inputs.text }}',
      llmModel: 'gpt-4o-mini',
    });
    promptId = prompt.id;
    await h.t.http
      .put(`/admin/v1/prompts/${prompt.id}`)
      .set(h.admin())
      .send({ template: 'Terse v2: {{ inputs.text }}' })
      .expect(200);
    await h.createPrompt(
      endpoint.id,
      { name: 'Wordy', template: 'Wordy: {{ inputs.text }}', llmModel: 'gpt-4o-mini' },
      'Draft',
    );
    const cases = await api.post(`/admin/v1/endpoints/${endpoint.id}/datasets`, { name: 'Cases' }).expect(201);
    await api
      .post(`/admin/v1/datasets/${cases.body.data.id}/items`, {
        items: [{ inputs: { text: 'gamma' } }, { inputs: { text: 'delta' } }],
      })
      .expect(201);
    const many = await api.post(`/admin/v1/endpoints/${endpoint.id}/datasets`, { name: 'Many' }).expect(201);
    await api
      .post(`/admin/v1/datasets/${many.body.data.id}/items`, {
        items: Array.from({ length: 20 }, (_, index) => ({ inputs: { text: `many ${index + 1}` } })),
      })
      .expect(201);
    page = h.page;
    await h.signIn(h.tenant.admin);
  }

  /** Every model call answers with the prompt it was sent, so each cell shows what it ran, streamed as `stream` says. */
  function answerWithThePrompt(stream: FakeStreamShape) {
    h.fake.replyBy((request) => {
      const sent = receivedMessages(request)
        .flatMap((message) => message.parts)
        .filter((part): part is string => typeof part === 'string')
        .join(' ');
      return { text: `Answer to ${sent}`, inputTokens: 1000, outputTokens: 1000, stream };
    });
  }

  const grid = () => page.locator('table.grid-table');
  const cell = (row: number, column: number): Locator => grid().locator('tbody tr').nth(row).locator('td').nth(column);
  const rowsCount = () => page.locator('.grid-rows-panel h2 .grid-count').innerText();
  const progress = () => page.locator('.grid-progress');

  async function addColumn(runs: string, prompt: string, version?: string) {
    const form = page.getByRole('form', { name: 'Add a column' });
    await form.getByLabel('Runs').selectOption({ label: runs });
    await form.getByLabel('Prompt').selectOption({ label: prompt });
    if (version) await form.getByLabel('Version').selectOption({ label: version });
    await form.getByRole('button', { name: 'Add column' }).click();
  }

  it('compares typed rows across an unsaved draft and a saved version: every cell answers with output, cost, latency and its log row', async () => {
    h.fake.reset();
    answerWithThePrompt({ chunks: 4, chunkDelayMs: 250 });
    // Changes made in the editor and left unsaved are kept in the browser: the draft column runs them.
    await goTo(page, `/endpoints/${endpointId}/prompts/${promptId}`);
    await page.getByRole('heading', { level: 1, name: 'Terse' }).waitFor();
    await page.getByRole('textbox', { name: 'Template' }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('Draft: {{ inputs.text }}');
    await page.waitForFunction(
      (id) => localStorage.getItem(`promptgate:prompt-draft:${id}`)?.includes('Draft: {{ inputs.text }}'),
      promptId,
    );

    // The grid is a view of the test runner.
    await goTo(page, `/endpoints/${endpointId}/run`);
    await page.getByRole('heading', { level: 1, name: 'Test runner: Summaries' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Test runner views' })
      .getByRole('link', { name: 'Compare side by side' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Compare side by side: Summaries' }).waitFor();
    await page.getByText('Add rows of inputs and the prompts to compare as columns').waitFor();
    expect(await page.getByRole('button', { name: 'Run all' }).getAttribute('title')).toBe(
      'Add a row of inputs first.',
    );

    // Two typed rows, with the runner's own input form; a required field left empty is said before anything runs.
    const typed = page.getByRole('form', { name: 'Type a row' });
    await typed.getByRole('button', { name: 'Add row' }).click();
    await typed.getByText('text is required').waitFor();
    for (const text of ['alpha', 'beta']) {
      await typed.getByLabel('text (required)').fill(text);
      await typed.getByRole('button', { name: 'Add row' }).click();
      await typed.getByRole('status').getByText('Row added.').waitFor();
    }
    expect(await rowsCount()).toBe('2 of 20');
    expect(await typed.getByLabel('text (required)').inputValue()).toBe('');

    // Two columns: the unsaved draft, and the saved version 1.
    await addColumn('Unsaved draft', 'Terse — Live, default, v2, unsaved changes kept');
    await page.getByText('Runs the changes to Terse kept in this browser (made on version 2)').waitFor();
    await addColumn('A saved version', 'Terse — Live, default, v2', 'Version 1');
    // The same column twice is refused.
    await addColumn('A saved version', 'Terse — Live, default, v2', 'Version 1');
    await page.getByText('This column is in the grid already.').waitFor();
    const headings = await grid().locator('thead th .grid-column-title').allInnerTexts();
    expect(headings).toEqual(['Terse, unsaved draft', 'Terse v1']);

    await page.getByRole('button', { name: 'Run all' }).click();
    // Three cells run at once, the fourth waits; an answer streams into its cell as it comes.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('td.grid-cell.pending .grid-state')].some(
        (state) => state.textContent === 'Waiting',
      ),
    );
    const partial = await page.waitForFunction(() => {
      const cell = document.querySelector('td.grid-cell.running');
      const output = cell?.querySelector('.grid-output')?.textContent;
      return output ? { state: cell.querySelector('.grid-state')!.textContent, output } : null;
    });
    const streamed = (await partial.jsonValue())!;
    expect(streamed.state).toBe('Running…');
    const expected = [
      ['Answer to Draft: alpha', 'Answer to Terse v1: alpha'],
      ['Answer to Draft: beta', 'Answer to Terse v1: beta'],
    ];
    // The start of one of the answers, not the whole of it.
    expect(
      expected.flat().filter((whole) => whole.startsWith(streamed.output) && whole !== streamed.output),
    ).not.toEqual([]);
    await progress().getByText('Done: 4 answered, 0 failed.').waitFor();
    const logIds: string[][] = [];
    for (const [row, outputs] of expected.entries()) {
      logIds.push([]);
      for (const [column, output] of outputs.entries()) {
        const one = cell(row, column);
        expect(await one.locator('.grid-state').innerText()).toBe('Answered');
        expect(await one.locator('.grid-output').innerText()).toBe(output);
        expect(await one.locator('.grid-facts').innerText()).toMatch(/Cost\s+\$0\.000\d+\s+Latency\s+\d+ ms/);
        const link = one.getByRole('link', { name: /^Log row of row \d, / });
        const href = (await link.getAttribute('href'))!;
        expect(href).toMatch(/^#\/logs\/[0-9a-f-]{36}$/);
        logIds[row].push(href.slice('#/logs/'.length));
      }
    }
    expect(h.fake.requests).toHaveLength(4);
    // The draft ran as unsaved text, the saved version as version 1 of the prompt; all are test runs.
    const draftLog = (await api.get(`/admin/v1/logs/${logIds[0][0]}`)).body.data;
    expect(draftLog).toMatchObject({ source: 'TestPage', promptId: null, renderedPrompt: 'Draft: alpha' });
    const versionLog = (await api.get(`/admin/v1/logs/${logIds[1][1]}`)).body.data;
    expect(versionLog).toMatchObject({
      source: 'TestPage',
      promptId,
      promptVersion: 1,
      renderedPrompt: 'Terse v1: beta',
    });
    await page.locator('.grid-results').evaluate((section) => section.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'test-grid');

    // Accessible at both widths, the table scrolling within its own box on a narrow screen.
    await expectAccessible(page, { keyboard: true });
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 844 });
      try {
        expect(await accessibilityViolations(page, { every: true })).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    }

    // A cell's log link opens its row; coming back finds the grid as it was.
    await cell(0, 1)
      .getByRole('link', { name: /^Log row of row 1/ })
      .click();
    await page.waitForFunction((id) => location.hash === `#/logs/${id}`, logIds[0][1]);
    await page.getByText('Terse v1: alpha').first().waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Compare side by side: Summaries' }).waitFor();
    expect(await cell(0, 1).locator('.grid-output').innerText()).toBe('Answer to Terse v1: alpha');
  });

  it('takes rows from a dataset and from recent calls through the API, up to 20, and up to 3 columns', async () => {
    // Three calls through the API, two with the same inputs; test runs are not calls through the API.
    for (const text of ['epsilon', 'zeta', 'epsilon', 'alpha'])
      await h.t.http.post(endpointPath).set('x-api-key', h.tenant.endpointKey).send({ text }).expect(200);
    await h.t.app.get(ExecutionLogsService).flush();

    const fromDataset = page.getByRole('form', { name: 'From a dataset' });
    await fromDataset.getByLabel('Dataset').selectOption({ label: 'Cases (2 items)' });
    await fromDataset.getByRole('button', { name: "Add the dataset's rows" }).click();
    await fromDataset.getByRole('status').getByText("Added Cases's 2 items as rows.").waitFor();
    expect(await rowsCount()).toBe('4 of 20');

    // The newest distinct inputs, leaving out those the grid holds already (alpha).
    const recent = page.getByRole('form', { name: 'From recent calls' });
    await recent.getByLabel('How many').fill('3');
    await recent.getByRole('button', { name: 'Add recent inputs' }).click();
    await recent
      .getByRole('status')
      .getByText('Added the inputs of 2 recent calls: the latest 4 calls hold no more that differ.')
      .waitFor();
    expect(await rowsCount()).toBe('6 of 20');
    const rowHeadings = await grid().locator('tbody th dd').allInnerTexts();
    expect(rowHeadings).toEqual(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']);
    expect(await grid().locator('tbody tr').nth(2).locator('.grid-row-source').innerText()).toBe(
      'From the dataset Cases',
    );
    expect(await grid().locator('tbody tr').nth(5).locator('.grid-row-source').innerText()).toBe('From a call');
    // New rows have not run yet.
    expect(await cell(5, 0).locator('.grid-state').innerText()).toBe('Not run');

    // A row is removed, its cells with it.
    await page.getByRole('button', { name: 'Remove row 4' }).click();
    expect(await rowsCount()).toBe('5 of 20');
    expect(await grid().locator('tbody th dd').allInnerTexts()).toEqual(['alpha', 'beta', 'gamma', 'epsilon', 'zeta']);

    // A dataset of 20 items fills the grid: the first 15 fit, and no row can be added until one is removed.
    await fromDataset.getByLabel('Dataset').selectOption({ label: 'Many (20 items)' });
    await fromDataset.getByRole('button', { name: "Add the dataset's rows" }).click();
    await fromDataset
      .getByRole('status')
      .getByText("Added the first 15 of Many's 20 items: the grid holds at most 20 rows.")
      .waitFor();
    expect(await rowsCount()).toBe('20 of 20');
    const full = 'The grid holds at most 20 rows: remove one to add another.';
    await page.locator('.grid-rows-panel').getByRole('note').getByText(full).waitFor();
    const addRow = page.getByRole('form', { name: 'Type a row' }).getByRole('button', { name: 'Add row' });
    expect(await addRow.isDisabled()).toBe(true);
    expect(await addRow.getAttribute('title')).toBe(full);
    for (let row = 20; row > 5; row--) await page.getByRole('button', { name: `Remove row ${row}` }).click();
    expect(await rowsCount()).toBe('5 of 20');
    expect(await addRow.isDisabled()).toBe(false);

    // A third column (another prompt at its current version) is the last one.
    await addColumn('Another prompt (its current version)', 'Wordy — Draft, v1');
    const addColumnButton = page.getByRole('button', { name: 'Add column' });
    expect(await addColumnButton.isDisabled()).toBe(true);
    expect(await addColumnButton.getAttribute('title')).toBe(
      'The grid compares at most 3 columns: remove one to add another.',
    );
    expect(await grid().locator('thead th .grid-column-title').allInnerTexts()).toEqual([
      'Terse, unsaved draft',
      'Terse v1',
      'Wordy, current version (v1)',
    ]);
    await page.getByRole('button', { name: 'Remove the column Wordy, current version (v1)' }).click();
    expect(await addColumnButton.isDisabled()).toBe(false);
    await expectAccessible(page);
  });

  it('saves the grid as a new dataset, the draft column’s answers as the expected outputs', async () => {
    const save = page.locator('.grid-save');
    await save.getByRole('button', { name: 'Save 5 rows as a dataset' }).click();
    await save.getByText('A name is required').waitFor();
    await save.getByLabel('Name of the new dataset').fill('From the grid');
    await save.getByLabel('Expected outputs').selectOption({ label: 'The answers of Terse, unsaved draft' });
    await save.getByText('3 of the rows have no answer in this column').waitFor();
    await save.getByRole('button', { name: 'Save 5 rows as a dataset' }).click();
    const saved = save.getByRole('status');
    await saved.getByText('Saved 5 rows to').waitFor();
    expect(await saved.innerText()).toBe('Saved 5 rows to From the grid: it holds 5 items.');

    // The new dataset is offered as a source of rows, and its page lists the items.
    await page
      .getByRole('form', { name: 'From a dataset' })
      .getByLabel('Dataset')
      .locator('option', { hasText: 'From the grid (5 items)' })
      .waitFor({ state: 'attached' });
    await saved.getByRole('link', { name: 'From the grid' }).click();
    await page.getByRole('heading', { level: 1, name: 'From the grid' }).waitFor();
    const items = page.locator('table.dataset-items tbody tr');
    await items.nth(4).waitFor();
    expect(await items.count()).toBe(5);
    const texts = await items.allInnerTexts();
    expect(texts[0]).toContain('alpha');
    expect(texts[0]).toContain('Answer to Draft: alpha');
    expect(texts[2]).toContain('gamma');
    const datasets = (await api.get(`/admin/v1/endpoints/${endpointId}/datasets`)).body.data as {
      id: string;
      name: string;
    }[];
    const dataset = datasets.find((one) => one.name === 'From the grid')!;
    const stored = (await api.get(`/admin/v1/datasets/${dataset.id}/items`)).body.data.items;
    expect(
      stored.map((item: { inputs: object; expectedOutput: unknown }) => [item.inputs, item.expectedOutput]),
    ).toEqual([
      [{ text: 'alpha' }, 'Answer to Draft: alpha'],
      [{ text: 'beta' }, 'Answer to Draft: beta'],
      [{ text: 'gamma' }, null],
      [{ text: 'epsilon' }, null],
      [{ text: 'zeta' }, null],
    ]);
  });

  it('a ReadOnly key runs the grid but cannot save it as a dataset', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await h.signIn(h.tenant.readOnly, `/endpoints/${endpointId}/run/compare`);
    await page.getByRole('heading', { level: 1, name: 'Compare side by side: Summaries' }).waitFor();
    // The grid kept in the tab is still there.
    expect(await rowsCount()).toBe('5 of 20');
    await page.getByRole('button', { name: 'Run all' }).click();
    await progress().getByText('Done: 10 answered, 0 failed.').waitFor();
    await expectReadOnlyBlocked(page.locator('.grid-save').getByRole('button', { name: 'Save 5 rows as a dataset' }));
    await expectAccessible(page);
  });

  it('Stop ends a run: the cells running stop their model calls, and the others never start', async () => {
    h.fake.reset();
    answerWithThePrompt({ chunks: 20, chunkDelayMs: 500 });
    await page.getByRole('button', { name: 'Run all' }).click();
    await page.waitForFunction(() => document.querySelectorAll('td.grid-cell.running .grid-output').length === 3);
    expect(await grid().locator('td.grid-cell.pending').count()).toBe(7);
    await page.getByRole('button', { name: 'Stop' }).click();
    await progress().getByText('Stopped: 0 answered, 0 failed, 10 not run.').waitFor();
    expect(h.fake.requests).toHaveLength(3);
    expect(await grid().locator('td.grid-cell.idle').count()).toBe(10);
    // The service saw the runs leave: their log rows say so.
    await eventually(async () => {
      await h.t.app.get(ExecutionLogsService).flush();
      const logs = (await api.get(`/admin/v1/logs?endpointId=${endpointId}&source=TestPage&status=error`)).body.data
        .items as { errorCode: string }[];
      return logs.filter((log) => log.errorCode === 'client_closed').length === 3;
    }, 'the stopped runs logged as client_closed');
  });
});
