import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { expectAccessible, expectReadOnlyBlocked, goTo, screenshot, signIn, useDashboard } from './support/dashboard';

/**
 * Evaluation datasets on an endpoint's Evaluate tab: one created, items added by hand (the test runner's input form)
 * and imported as JSONL, its checks edited, a logged call copied into it from its page in Logs, and a test run's
 * inputs and output added from the test runner.
 */
describe('Dashboard: evaluation datasets', () => {
  const h = useDashboard({ setUp: () => seed() });
  let endpointId = '';
  let logId = '';

  async function seed(): Promise<void> {
    const endpoint = await h.createEndpoint({
      name: 'Capitals',
      inputs: [
        { name: 'country', dataType: 'string', isRequired: true, maxLength: 100 },
        { name: 'hints', dataType: 'integer', minimum: 0, maximum: 3 },
      ],
    });
    endpointId = endpoint.id;
    await h.createPrompt(endpoint.id, { name: 'Plain', template: 'Capital of {{ inputs.country }}?' });
    const response = await h.t.http
      .post(endpoint.path)
      .set('x-api-key', h.tenant.endpointKey)
      .send({ country: 'Peru' })
      .expect(200);
    await h.t.app.get(ExecutionLogsService).flush();
    const logs = await h.t.http
      .get(`/admin/v1/logs?requestId=${response.headers['x-request-id']}`)
      .set(h.admin())
      .expect(200);
    logId = logs.body.data.items[0].id;
  }

  const page = () => h.page;
  const status = (text: string) => page().getByRole('status').getByText(text).waitFor();
  const itemRows = () => page().locator('table.dataset-items tbody tr');
  /** Waits until the dataset's facts (items, version, checks), read again after a change, match `pattern`. */
  const factsShow = (pattern: RegExp) =>
    page().waitForFunction(
      (source) => new RegExp(source).test(document.querySelector<HTMLElement>('.dataset-facts')?.innerText ?? ''),
      pattern.source,
    );

  it('creates a dataset on the endpoint’s Evaluate tab and opens it', async () => {
    await h.signIn(h.tenant.admin, `/endpoints/${endpointId}`);
    await page().getByRole('heading', { level: 1, name: 'Capitals' }).waitFor();
    await page().getByRole('navigation', { name: 'Endpoint views' }).getByRole('link', { name: 'Evaluate' }).click();
    await page().getByRole('heading', { name: 'Datasets' }).waitFor();
    await page().getByText('No datasets yet.').waitFor();
    await expectAccessible(page(), { keyboard: true });

    await page().getByRole('button', { name: 'New dataset' }).click();
    const form = page().getByRole('form', { name: 'New dataset' });
    // A name is needed before anything is sent.
    await form.getByRole('button', { name: 'Create dataset' }).click();
    await form.getByText('A dataset needs a name.').waitFor();
    await form.getByLabel('Name').fill('Capitals of the world');
    await form.getByLabel('Description').fill('One country per item, its capital expected.');
    await form.getByRole('button', { name: 'Create dataset' }).click();

    await page().getByRole('heading', { level: 1, name: 'Capitals of the world' }).waitFor();
    await page().getByText('No items yet').waitFor();
    await factsShow(/Items\s+0\s+Version\s+v0\s+Checks\s+0/);

    // Back on the tab, the dataset is listed; a second one of the same name is refused at its field.
    await page().getByRole('link', { name: '← Capitals: Evaluate' }).click();
    const row = page().locator('tr[data-dataset="Capitals of the world"]');
    await expect(row.innerText()).resolves.toMatch(/Capitals of the world\s+One country per item.*\s+0\s+v0\s+0/s);
    await page().getByRole('button', { name: 'New dataset' }).click();
    const again = page().getByRole('form', { name: 'New dataset' });
    await again.getByLabel('Name').fill('Capitals of the world');
    await again.getByRole('button', { name: 'Create dataset' }).click();
    await again
      .locator('.field-error')
      .getByText(/already exists on this endpoint/)
      .waitFor();
    await again.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('link', { name: 'Capitals of the world' }).click();
    await page().getByRole('heading', { level: 1, name: 'Capitals of the world' }).waitFor();
  });

  it('adds an item with the test runner’s input form, the service’s refusal shown at its input', async () => {
    await page().getByRole('button', { name: 'Add item' }).click();
    const form = page().getByRole('form', { name: 'New item' });
    await form.getByLabel('country (required)').fill('France');
    await form.getByLabel('hints').fill('7');
    await form.getByLabel('Expected output').fill('{"capital": "Paris"}');
    await form.getByLabel('Tags').fill('continent=europe');
    await form.getByRole('button', { name: 'Add item' }).click();
    // The integer's bounds are the service's to check: its message is shown at the input.
    await form.getByText("Field 'hints' must be between 0 and 3").waitFor();

    await form.getByLabel('hints').fill('1');
    await form.getByLabel('Expected output').fill('{"capital": Paris}');
    await form.getByRole('button', { name: 'Add item' }).click();
    await form.getByText(/^The expected output is not valid JSON/).waitFor();
    await form.getByLabel('Expected output').fill('{"capital": "Paris"}');
    await form.getByRole('button', { name: 'Add item' }).click();

    await status('Added an item: the dataset holds 1.');
    await expect(itemRows().innerText()).resolves.toMatch(
      /^1\s+\{("country":"France"|"hints":1|,){3}\}\s+\{"capital":"Paris"\}\s+continent: europe/,
    );
    await factsShow(/Items\s+1\s+Version\s+v1/);
    await expectAccessible(page(), { keyboard: true });
  });

  it('imports JSONL, naming the line the service refuses, then imports it fixed', async () => {
    await page().getByRole('button', { name: 'Import JSONL' }).click();
    const form = page().getByRole('form', { name: 'Import JSONL' });
    const lines = [
      '{"inputs": {"country": "Japan"}, "expectedOutput": {"capital": "Tokyo"}, "tags": {"continent": "asia"}}',
      '',
      '{"inputs": {"hints": 2}, "expectedOutput": {"capital": "Lima"}}',
      '{"inputs": {"country": "Chile"}}',
    ];
    await form.getByLabel('JSONL file').setInputFiles({
      name: 'capitals.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from(lines.join('\n')),
    });
    await form.getByText('Read capitals.jsonl into the box below.').waitFor();
    await expect(form.getByLabel('Lines').inputValue()).resolves.toBe(lines.join('\n'));
    await form.getByRole('button', { name: 'Import', exact: true }).click();
    const alert = form.getByRole('alert');
    await alert.getByText('Nothing was imported: the service refused the items below.').waitFor();
    await expect(alert.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      "Line 3: inputs.country: Field 'country' is required",
    ]);
    await expect(itemRows().count()).resolves.toBe(1);
    await expectAccessible(page());

    // A line that is not JSON is named before anything is sent.
    lines[2] = '{"inputs": {"country": "Peru"}, "expectedOutput": {"capital": "Lima"}';
    await form.getByLabel('Lines').fill(lines.join('\n'));
    await form.getByRole('button', { name: 'Import', exact: true }).click();
    await alert.getByText(/^Line 3: not valid JSON/).waitFor();

    lines[2] = '{"inputs": {"country": "Peru"}, "expectedOutput": {"capital": "Lima"}}';
    await form.getByLabel('Lines').fill(lines.join('\n'));
    await form.getByRole('button', { name: 'Import', exact: true }).click();
    await status('Imported 3 items: the dataset holds 4.');
    await itemRows().nth(3).waitFor();
    await expect(itemRows().count()).resolves.toBe(4);
    await expect(itemRows().nth(2).innerText()).resolves.toMatch(/3\s+\{"country":"Peru"\}\s+\{"capital":"Lima"\}/);
    await expect(itemRows().nth(3).innerText()).resolves.toMatch(/4\s+\{"country":"Chile"\}\s+None/);

    // An item deleted: the rest move up, and the dataset is a version further.
    await itemRows().nth(3).getByRole('button', { name: 'Delete item 4' }).click();
    await status('Deleted item 4.');
    await factsShow(/Items\s+3\s+Version\s+v3/);
    await itemRows().nth(3).waitFor({ state: 'detached' });
    await expect(itemRows().count()).resolves.toBe(3);
  });

  it('edits the checks, the service’s refusal shown at the check’s field', async () => {
    const checks = page().getByRole('form', { name: 'Checks' });
    const check = (n: number) => checks.getByRole('group', { name: `Check ${n}`, exact: true });
    await checks.getByText('No checks yet.').waitFor();

    await checks.getByRole('button', { name: 'Add check' }).click();
    await check(1).getByLabel('Type').selectOption('field_equals');
    await check(1).getByLabel('Path').fill('capital');
    await checks.getByRole('button', { name: 'Add check' }).click();
    await check(2).getByLabel('Type').selectOption('regex');
    await check(2).getByLabel('Pattern').fill('([A-Z]');
    await checks.getByRole('button', { name: 'Add check' }).click();
    await check(3).getByLabel('Type').selectOption('max_latency_ms');
    await check(3).getByLabel('Milliseconds').fill('5000');
    await checks.getByRole('button', { name: 'Add check' }).click();
    await check(4).getByLabel('Text').fill('sorry');
    await check(4).getByLabel('Type').selectOption('not_contains');
    await check(4).getByLabel('Case-sensitive').uncheck();
    await checks.getByRole('button', { name: 'Add check' }).click();
    await check(5).getByLabel('Type').selectOption('judge');
    await check(5).getByLabel('Model').selectOption('mock-echo');
    await check(5).getByLabel('Rubric').fill('Is {{ output }} the capital of {{ inputs.country }}?');
    await check(5).getByLabel('Threshold').fill('0.8');
    await checks.getByRole('button', { name: 'Save checks' }).click();

    // The pattern does not compile: said at its field, and nothing is saved.
    await check(2)
      .locator('.field-error')
      .getByText(/checks\.1\.pattern is not a valid regular expression/)
      .waitFor();
    await factsShow(/Checks\s+0/);
    await check(2).getByLabel('Pattern').fill('[A-Z][a-z]+');
    await expect(check(2).locator('.field-error').count()).resolves.toBe(0);
    await checks.getByRole('button', { name: 'Save checks' }).click();
    await status('Saved 5 checks.');
    await factsShow(/Checks\s+5/);

    // One removed, and the rest read back as saved.
    await check(3).getByRole('button', { name: 'Remove check 3' }).click();
    await checks.getByRole('button', { name: 'Save checks' }).click();
    await status('Saved 4 checks.');
    await factsShow(/Checks\s+4/);
    const saved = await h.t.http.get(`/admin/v1/endpoints/${endpointId}/datasets`).set(h.admin()).expect(200);
    expect(saved.body.data[0].checks).toEqual([
      { type: 'field_equals', path: 'capital' },
      { type: 'regex', pattern: '[A-Z][a-z]+' },
      { type: 'not_contains', value: 'sorry', caseSensitive: false },
      {
        type: 'judge',
        llmModel: 'mock-echo',
        rubric: 'Is {{ output }} the capital of {{ inputs.country }}?',
        threshold: 0.8,
      },
    ]);
    await page().reload();
    await check(4).waitFor();
    await expect(check(4).getByLabel('Model').inputValue()).resolves.toBe('mock-echo');
    await expect(check(3).getByLabel('Type').inputValue()).resolves.toBe('not_contains');
    await expect(check(3).getByLabel('Case-sensitive').isChecked()).resolves.toBe(false);
    await screenshot(page(), 'evaluate-datasets');
    await expectAccessible(page(), { keyboard: true });
  });

  it('copies a logged call into the dataset from its page in Logs, with its output as expected', async () => {
    await goTo(page(), `/logs/${logId}`);
    const section = page().getByRole('region', { name: 'Add to a dataset' });
    await section.getByLabel('Dataset', { exact: true }).waitFor();
    await expect(section.getByLabel('Dataset', { exact: true }).locator('option').allInnerTexts()).resolves.toEqual([
      'Capitals of the world (3 items)',
    ]);
    await expect(section.getByLabel('Use its output as the expected output').isChecked()).resolves.toBe(true);
    await section.getByRole('button', { name: 'Add to dataset' }).click();
    await section
      .getByRole('status')
      .getByText(/Added to Capitals of the world: it holds 4 items\./)
      .waitFor();
    await expectAccessible(page(), { keyboard: true });

    await section.getByRole('link', { name: 'Capitals of the world' }).click();
    await page().getByRole('heading', { level: 1, name: 'Capitals of the world' }).waitFor();
    await itemRows().nth(3).waitFor();
    await expect(itemRows().nth(3).innerText()).resolves.toMatch(/4\s+\{"country":"Peru"\}\s+\S*Capital of Peru\?/);
  });

  it('shows a ReadOnly key the dataset and the copy from Logs with every change disabled, saying why', async () => {
    const listed = await h.t.http.get(`/admin/v1/endpoints/${endpointId}/datasets`).set(h.admin()).expect(200);
    const datasetId = listed.body.data[0].id as string;
    await h.withPage(async (readOnlyPage) => {
      await signIn(readOnlyPage, h.baseUrl, h.tenant.readOnly, `/endpoints/${endpointId}/datasets/${datasetId}`);
      await readOnlyPage.locator('table.dataset-items tbody tr').nth(3).waitFor();
      for (const name of ['Edit', 'Delete', 'Add item', 'Import JSONL', 'Delete item 1', 'Add check', 'Save checks'])
        await expectReadOnlyBlocked(readOnlyPage.getByRole('button', { name, exact: true }));
      const checks = readOnlyPage.getByRole('form', { name: 'Checks' });
      await expect(
        checks.getByRole('group', { name: 'Check 1', exact: true }).getByLabel('Path').isDisabled(),
      ).resolves.toBe(true);

      await goTo(readOnlyPage, `/endpoints/${endpointId}/evaluate`);
      await expectReadOnlyBlocked(readOnlyPage.getByRole('button', { name: 'New dataset' }));
      await goTo(readOnlyPage, `/logs/${logId}`);
      const section = readOnlyPage.getByRole('region', { name: 'Add to a dataset' });
      await expectReadOnlyBlocked(section.getByRole('button', { name: 'Add to dataset' }));
    });
  });

  it('adds a test run’s inputs and output to the dataset from the test runner’s result', async () => {
    await goTo(page(), `/endpoints/${endpointId}/run`);
    await page()
      .getByRole('heading', { level: 1, name: /Test runner/ })
      .waitFor();
    await page().getByLabel('country (required)').fill('Chile');
    await page().getByRole('button', { name: 'Run', exact: true }).click();
    const result = page().locator('.test-run-result');
    await result.getByText('Capital of Chile?').first().waitFor();
    const section = result.getByRole('region', { name: 'Add to a dataset' });
    await section.getByLabel('Dataset', { exact: true }).waitFor();
    await expect(section.getByLabel('Dataset', { exact: true }).locator('option').allInnerTexts()).resolves.toEqual([
      'Capitals of the world (4 items)',
    ]);
    await expect(section.getByLabel('Use its output as the expected output').isChecked()).resolves.toBe(true);
    await section.getByRole('button', { name: 'Add to dataset' }).click();
    await section
      .getByRole('status')
      .getByText(/Added to Capitals of the world: it holds 5 items\./)
      .waitFor();
    await expectAccessible(page(), { keyboard: true });

    await section.getByRole('link', { name: 'Capitals of the world' }).click();
    await page().getByRole('heading', { level: 1, name: 'Capitals of the world' }).waitFor();
    await itemRows().nth(4).waitFor();
    await expect(itemRows().nth(4).innerText()).resolves.toMatch(/5\s+\{"country":"Chile"\}\s+\S*Capital of Chile\?/);
  });

  it('deletes the dataset after a confirmation', async () => {
    await page().getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page().getByRole('dialog', { name: 'Delete the dataset “Capitals of the world”?' });
    await dialog.getByText('Its 5 items and checks are deleted with it.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page().getByRole('heading', { level: 1, name: 'Capitals of the world' }).waitFor();
    await page().getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete dataset' }).click();
    await page().getByRole('heading', { name: 'Datasets' }).waitFor();
    await page().getByText('No datasets yet.').waitFor();
  });
});
