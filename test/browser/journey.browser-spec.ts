import { accessibilityViolations, goTo, keyboardProblems, openFieldForm, useDashboard } from './support/dashboard';

/**
 * The whole path of someone who has never read the API, in one browser tab: from signing in to deleting the endpoint
 * for good. Each step ends in what the user sees; the endpoint is executed outside the browser, as an application would.
 */
describe('Dashboard journey: from sign-in to the permanent delete', () => {
  const h = useDashboard();
  let endpointId = '';
  let promptId = '';
  let endpointKey = '';
  let requestId = '';

  const page = () => h.page;
  const editor = () => page().getByRole('textbox', { name: 'Template' });
  const templateCheck = () => page().locator('.template-check');
  const status = () => page().locator('.prompt-status');

  async function setTemplate(text: string) {
    await editor().click();
    await page().keyboard.press('ControlOrMeta+a');
    await page().keyboard.insertText(text);
  }

  it('signs in', async () => {
    await h.signIn(h.tenant.admin);
    await page().getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
    await page().getByText(h.tenant.slug, { exact: true }).first().waitFor();
  });

  it('creates an endpoint with two input fields and an output field', async () => {
    await page()
      .getByRole('link', { name: 'New endpoint' })
      .or(page().getByRole('button', { name: 'New endpoint' }))
      .first()
      .click();
    const form = page().getByRole('form', { name: 'New endpoint' });
    await form.getByLabel('Name').fill('Summarize');
    expect(await form.getByLabel('Path').inputValue()).toBe('/api/v1/summarize');
    await form.getByLabel('Description').fill('Summarizes a text');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await page().getByRole('heading', { level: 1, name: 'Summarize' }).waitFor();
    endpointId = /#\/endpoints\/([0-9a-f-]{36})/.exec(page().url())![1];

    for (const [kind, values] of [
      ['input', { Name: 'text', Required: true, 'Maximum length': '2000' }],
      ['input', { Name: 'sentences', 'Data type': 'integer', Minimum: '1', Maximum: '5', 'Default value': '2' }],
      ['output', { Name: 'summary' }],
    ] as const) {
      const field = await openFieldForm(page(), kind, values);
      await field.getByRole('button', { name: 'Add field' }).click();
      await field.waitFor({ state: 'hidden' });
    }

    const inputs = page().getByRole('table', { name: 'Input fields' });
    await inputs.getByRole('row', { name: /^text/ }).waitFor();
    await inputs.getByRole('row', { name: /^sentences/ }).waitFor();
    await page()
      .getByRole('table', { name: 'Output fields' })
      .getByRole('row', { name: /^summary/ })
      .waitFor();
  });

  it('writes a prompt with a syntax error, sees it marked at its line, and fixes it', async () => {
    await page().getByRole('link', { name: 'New prompt' }).click();
    await page().getByRole('heading', { level: 1, name: 'New prompt' }).waitFor();
    await page().getByLabel('Name').fill('Short');
    await setTemplate('Summarize in {{ inputs.sentences }} sentences:\n{% if inputs.text %}{{ inputs.text }}');
    await templateCheck()
      .getByText(/^line 2, column 1: /)
      .waitFor();
    await page().locator('.cm-lintRange-error').first().waitFor();
    await setTemplate(
      'Summarize in {{ inputs.sentences }} sentences:\n{% if inputs.text %}{{ inputs.text }}{% endif %}',
    );
    await templateCheck().getByText('No problems found').waitFor();
    expect(await page().locator('.cm-lintRange-error').count()).toBe(0);
    await page().getByLabel('Model').selectOption('gpt-4o-mini');
    await page().getByRole('button', { name: 'Create prompt' }).click();
    await page().getByRole('heading', { level: 1, name: 'Short' }).waitFor();
    await status().getByText('Version 1').waitFor();
    promptId = /\/prompts\/([0-9a-f-]{36})/.exec(page().url())![1];
  });

  it('promotes it and sets it as the default', async () => {
    const actions = page().getByRole('group', { name: 'Lifecycle' });
    await actions.getByRole('button', { name: 'Promote to Live' }).click();
    await status().getByText('Live', { exact: true }).waitFor();
    await actions.getByRole('button', { name: 'Set as default' }).click();
    await status().getByText('Default', { exact: true }).waitFor();
  });

  it('test-runs it and sees the output, tokens and cost', async () => {
    h.fake.reply({
      text: '{"summary":"Promptgate serves prompts as HTTP endpoints."}',
      inputTokens: 900,
      outputTokens: 120,
    });
    const runner = page().locator('.playground-runner');
    await runner.getByLabel('text (required)').fill('Promptgate turns prompts into production HTTP endpoints.');
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    const result = runner.locator('.test-run-result');
    await result.getByText('Promptgate serves prompts as HTTP endpoints.').waitFor();
    await result.getByText('900 / 120').waitFor();
    await result.getByText(/^\$\d/).first().waitFor();
  });

  it('changes the template and sees version 2', async () => {
    await setTemplate(
      'Summarize in {{ inputs.sentences }} short sentences:\n{% if inputs.text %}{{ inputs.text }}{% endif %}',
    );
    await templateCheck().getByText('No problems found').waitFor();
    await status().getByText('Unsaved changes').waitFor();
    await page().getByRole('button', { name: 'Review and save' }).click();
    await page().getByRole('button', { name: 'Save as version 2' }).click();
    await status().getByText('Version 2').waitFor();
  });

  it('compares versions 1 and 2 and sees the changed line', async () => {
    await page().getByRole('link', { name: 'Versions' }).click();
    await page().getByRole('heading', { level: 1, name: 'Versions of Short' }).waitFor();
    await page().getByRole('button', { name: 'Compare', exact: true }).click();
    await page().getByRole('heading', { level: 1, name: 'Compare versions of Short' }).waitFor();
    const diff = page().getByRole('table', { name: /Side-by-side diff/ });
    await diff.getByRole('cell', { name: 'Removed: Summarize in {{ inputs.sentences }} sentences:' }).waitFor();
    await diff.getByRole('cell', { name: 'Added: Summarize in {{ inputs.sentences }} short sentences:' }).waitFor();
    expect(await accessibilityViolations(page())).toEqual([]);
  });

  it('restores version 1 as a new Draft', async () => {
    await page().goBack();
    await page().getByRole('heading', { level: 1, name: 'Versions of Short' }).waitFor();
    await page()
      .getByRole('article', { name: 'Version 1', exact: true })
      .getByRole('button', { name: /Restore as a new Draft/ })
      .click();
    await page().waitForFunction(
      (id) => /\/prompts\/[0-9a-f-]{36}/.test(location.hash) && !location.hash.includes(id),
      promptId,
    );
    await status().getByText('Draft', { exact: true }).waitFor();
    await page().locator('.cm-content').getByText('Summarize in {{ inputs.sentences }} sentences:').waitFor();
  });

  it('creates an endpoint key and sees its value once', async () => {
    await page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
    await page().getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await page().getByRole('button', { name: 'Create key' }).click();
    const dialog = page().getByRole('dialog', { name: 'Create a key' });
    await dialog.getByLabel('Name').fill('Journey app');
    await dialog.getByRole('radio', { name: /^Endpoint key/ }).check();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const once = page().getByRole('dialog', { name: 'Key “Journey app” created' });
    await once.getByText('Copy this key now: it will never be shown again.').waitFor();
    endpointKey = (await once.locator('code.secret-value').textContent()) ?? '';
    expect(endpointKey).toMatch(/^ep_live_/);
    await once.getByRole('button', { name: 'I have stored it: close' }).click();
    await once.waitFor({ state: 'hidden' });
    expect(await page().content()).not.toContain(endpointKey);
  });

  it('executes the endpoint with that key outside the browser, and finds the call in Logs and in Stats', async () => {
    h.fake.reply({ text: '{"summary":"Called from an application."}', inputTokens: 50, outputTokens: 9 });
    const executed = await h.t.http
      .post('/api/v1/summarize')
      .set('x-api-key', endpointKey)
      .send({ text: 'A text from an application.' });
    expect(executed.status).toBe(200);
    expect(executed.body).toEqual({ summary: 'Called from an application.' });
    requestId = executed.headers['x-request-id'];

    await page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logs' }).click();
    await page().getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    await page().locator(`tr[data-request-id="${requestId}"]`).waitFor();
    await page().getByLabel('Request id').fill(requestId);
    await page().getByRole('button', { name: 'Find' }).click();
    await page().getByTestId('request-id').getByText(requestId).waitFor();
    await page().getByText('A text from an application.').first().waitFor();

    await page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Stats' }).click();
    await page().getByRole('heading', { level: 1, name: 'Stats' }).waitFor();
    // Two calls so far: the test run and the application's call.
    await page().locator('dt:text-is("Calls") + dd').filter({ hasText: /^2$/ }).waitFor();
  });

  it('revokes the key, and the endpoint refuses it', async () => {
    await page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
    const row = page()
      .getByRole('row')
      .filter({ has: page().getByRole('rowheader', { name: 'Journey app', exact: true }) });
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await page()
      .getByRole('dialog', { name: 'Revoke the key “Journey app”?' })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await row.getByText('Revoked', { exact: true }).waitFor();
    await h.t.http.post('/api/v1/summarize').set('x-api-key', endpointKey).send({ text: 'again' }).expect(401);
  });

  it('signs in with a ReadOnly key and finds the write actions disabled', async () => {
    await page().getByRole('button', { name: 'Sign out' }).click();
    await h.signIn(h.tenant.readOnly, `/endpoints/${endpointId}/prompts/${promptId}`);
    await page().getByRole('heading', { level: 1, name: 'Short' }).waitFor();
    const actions = page().getByRole('group', { name: 'Lifecycle' });
    const demote = actions.getByRole('button', { name: 'Demote to Draft' });
    expect(await demote.isDisabled()).toBe(true);
    expect(await demote.getAttribute('title')).toMatch(/ReadOnly/);
    await goTo(page(), '/keys');
    expect(await page().getByRole('button', { name: 'Create key' }).isDisabled()).toBe(true);
    await goTo(page(), '/endpoints');
    await page().getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
    // The list loaded, so its links are there when the keyboard walks the page.
    await page().getByRole('link', { name: 'Summarize', exact: true }).waitFor();
    expect(await keyboardProblems(page())).toEqual({ unreachable: [], noVisibleFocus: [] });
    await page().getByRole('button', { name: 'Sign out' }).click();
  });

  it('deletes the endpoint for good after typing its name', async () => {
    await h.signIn(h.tenant.admin, `/endpoints/${endpointId}`);
    await page().getByRole('heading', { level: 1, name: 'Summarize' }).waitFor();
    await page()
      .getByRole('button', { name: /Delete for good/ })
      .click();
    const dialog = page().getByRole('dialog', { name: /for good/ });
    await dialog.getByText(/cannot be undone/).waitFor();
    const confirm = dialog.getByRole('button', { name: /Delete/ }).last();
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type Summarize to confirm').fill('Summarize');
    await confirm.click();
    await page().getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
    expect(await page().getByRole('link', { name: 'Summarize', exact: true }).count()).toBe(0);
    await h.t.http.get(`/admin/v1/endpoints/${endpointId}`).set('x-api-key', h.tenant.admin).expect(404);
    await h.t.http.get(`/admin/v1/prompts/${promptId}`).set('x-api-key', h.tenant.admin).expect(404);
    const logs = await h.t.http
      .get(`/admin/v1/logs?requestId=${requestId}`)
      .set('x-api-key', h.tenant.admin)
      .expect(200);
    expect(logs.body.data.items).toEqual([]);
  });
});
