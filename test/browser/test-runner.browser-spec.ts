import type { Page } from 'playwright-core';
import { expectAccessible, goTo, useDashboard } from './support/dashboard';

/**
 * The test runner beside the prompt editor: running the editor's unsaved changes as they stand (the answer says so and
 * nothing is saved), and a failed run showing what the model answered, the field it broke and its log row.
 */
describe('Dashboard: the test runner', () => {
  const h = useDashboard({ setUp: (h) => h.signIn(h.tenant.admin) });
  let page: Page;
  beforeAll(() => (page = h.page));
  beforeEach(() => h.fake.reset());

  const api = {
    get: (path: string) => h.t.http.get(path).set(h.admin()),
  };

  /** A Draft prompt of a new endpoint with a required `text` input, opened on its page. */
  async function openDraft(template: string, outputs: { name: string; dataType: string }[] = []) {
    const endpoint = await h.createEndpoint({
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      outputs,
    });
    const prompt = await h.createPrompt(
      endpoint.id,
      { name: 'Runner draft', template, llmModel: 'gpt-4o-mini' },
      'Draft',
    );
    await goTo(page, `/endpoints/${endpoint.id}/prompts/${prompt.id}`);
    await page.getByRole('heading', { level: 1, name: 'Runner draft' }).waitFor();
    return { endpoint, prompt };
  }

  async function setTemplate(text: string) {
    await page.getByRole('textbox', { name: 'Template' }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(text);
  }

  it('runs the unsaved changes beside the editor: the answer says it came from unsaved text, and nothing is saved', async () => {
    const { endpoint, prompt } = await openDraft('Saved: {{ inputs.text }}');
    const runner = page.locator('.playground-runner');
    // Without changes there is only the saved version to run.
    await runner.getByRole('button', { name: 'Run', exact: true }).waitFor();
    expect(await runner.getByRole('button', { name: 'Run unsaved changes' }).count()).toBe(0);

    await setTemplate('Edited: {{ inputs.text }}');
    const runUnsaved = runner.getByRole('button', { name: 'Run unsaved changes' });
    await runUnsaved.waitFor();
    await runner
      .getByText("Run runs the saved version 1 (Draft); Run unsaved changes runs the editor's text")
      .waitFor();

    // Custom parameters that are not JSON cannot run: the button says why.
    const parameters = page.getByLabel('Custom parameters (JSON)');
    await parameters.fill('{"top_p": 0.9');
    expect(await runUnsaved.isDisabled()).toBe(true);
    expect(await runUnsaved.getAttribute('title')).toMatch(/^Fix the editor first: Not valid JSON/);
    await parameters.fill('{"top_p": 0.5}');
    expect(await runUnsaved.isDisabled()).toBe(false);

    h.fake.reply({ text: 'An edited answer.', inputTokens: 12, outputTokens: 4 });
    await runner.getByLabel('text (required)').fill('hello');
    await runUnsaved.click();
    const result = runner.locator('.test-run-result');
    await result.getByRole('heading', { name: 'Result of the unsaved changes' }).waitFor();
    await result.getByText('This answer came from unsaved text').waitFor();
    await result.getByText('Runner draft, unsaved changes').waitFor();
    await result.getByText('An edited answer.').first().waitFor();
    await result.getByText('Edited: hello').first().waitFor();
    expect(h.fake.last().body).toMatchObject({ top_p: 0.5 });
    expect(JSON.stringify(h.fake.last().body.input)).toContain('Edited: hello');
    await expectAccessible(page);

    // The log row has no prompt; the prompt is still at version 1 with its saved text, and the edit is still there.
    const rows = (await api.get(`/admin/v1/logs?endpointId=${endpoint.id}`)).body.data;
    const logs = Array.isArray(rows) ? rows : rows.items;
    expect(logs).toEqual([expect.objectContaining({ source: 'TestPage', status: 'success', promptId: null })]);
    const saved = (await api.get(`/admin/v1/prompts/${prompt.id}`)).body.data;
    expect(saved).toMatchObject({ template: 'Saved: {{ inputs.text }}', currentVersion: 1 });
    await page.getByText('Edited: {{ inputs.text }}').first().waitFor();

    // The saved version still runs as before.
    h.fake.reply({ text: 'A saved answer.' });
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    await result.getByRole('heading', { name: 'Result', exact: true }).waitFor();
    await result.getByText('Runner draft v1').waitFor();
    expect(JSON.stringify(h.fake.last().body.input)).toContain('Saved: hello');
    expect(await result.getByText('This answer came from unsaved text').count()).toBe(0);

    // The calls that ask the execution API the same, plain and streamed; a Draft cannot be pinned there, and it says so.
    const snippets = runner.locator('.run-snippets');
    await snippets.getByText('Call it from code').click();
    await snippets.getByText('The API runs Live prompts only').waitFor();
    const plain = await snippets.getByLabel('curl', { exact: true }).innerText();
    expect(plain).toContain(`${endpoint.path}'`);
    expect(plain).toContain(`-d '{"text":"hello"}'`);
    expect(plain).not.toContain('text/event-stream');
    const streamed = await snippets.getByLabel('curl, streamed (server-sent events)').innerText();
    expect(streamed).toMatch(/^curl -N -X POST /);
    expect(streamed).toContain("-H 'Accept: text/event-stream'");
    await expectAccessible(page, { keyboard: true });
  });

  it('a failed run shows the raw answer of the model, the field that failed and a link to its log row', async () => {
    await openDraft('Rate: {{ inputs.text }}', [
      { name: 'summary', dataType: 'string' },
      { name: 'score', dataType: 'integer' },
    ]);
    const runner = page.locator('.playground-runner');
    h.fake.reply({ text: '{"summary":"Fine.","score":"high"}' });
    await runner.getByLabel('text (required)').fill('hello');
    await runner.getByRole('button', { name: 'Run', exact: true }).click();

    const failure = runner.locator('.test-run-failure');
    await failure.getByRole('heading', { name: 'The run failed' }).waitFor();
    await failure
      .getByRole('alert')
      .getByText(/does not match the output fields: .*field 'score'/)
      .waitFor();
    await failure.getByText('Field that failed').waitFor();
    expect(await failure.locator('code').innerText()).toBe('score');
    await failure.getByRole('heading', { name: 'Raw answer from the model' }).waitFor();
    expect(await failure.locator('.json-view pre').innerText()).toBe(
      JSON.stringify({ summary: 'Fine.', score: 'high' }, null, 2),
    );
    await expectAccessible(page, { keyboard: true });

    const link = failure.getByRole('link', { name: 'View the log row' });
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^#\/logs\/[0-9a-f-]{36}$/);
    const logId = href.slice('#/logs/'.length);
    const log = (await api.get(`/admin/v1/logs/${logId}`)).body.data;
    expect(log).toMatchObject({ source: 'TestPage', status: 'error', errorCode: 'upstream_error' });
    await link.click();
    await page.waitForFunction((id) => location.hash === `#/logs/${id}`, logId);
    await page.getByText('Raw LLM response').first().waitFor();
    await page.getByText('"score": "high"').or(page.getByText('"score":"high"')).first().waitFor();
  });

  it('streams the answer into the runner as it comes, then shows the whole result', async () => {
    await openDraft('Count: {{ inputs.text }}');
    const runner = page.locator('.playground-runner');
    h.fake.reply({ text: 'One. Two. Three. Four.', stream: { chunks: 4, chunkDelayMs: 500 } });
    await runner.getByLabel('text (required)').fill('to four');
    await runner.getByRole('button', { name: 'Run', exact: true }).click();

    const streaming = runner.locator('.test-run-streaming');
    await streaming.getByRole('heading', { name: 'Answering…' }).waitFor();
    await streaming.getByText(/^One\./).waitFor();
    // Part of the answer shows while the rest is still coming.
    expect(await runner.locator('.test-run-result').count()).toBe(0);
    await expectAccessible(page);

    const result = runner.locator('.test-run-result');
    await result.getByRole('heading', { name: 'Result', exact: true }).waitFor();
    await result.getByText('One. Two. Three. Four.').first().waitFor();
    expect(await streaming.count()).toBe(0);
    expect(h.fake.last().body.stream).toBe(true);
    const logId = (await result.getByRole('link', { name: 'View the log row' }).getAttribute('href'))!.slice(7);
    expect((await api.get(`/admin/v1/logs/${logId}`)).body.data).toMatchObject({ source: 'TestPage', streamed: true });
  });
});
