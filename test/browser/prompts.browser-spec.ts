import type { Page } from 'playwright-core';
import type { PromptSpec } from '../support/endpoint-fixtures';
import { FAKE_PNG } from '../support/fake-llm-server';
import {
  accessibilityViolations,
  expectAccessible,
  expectReadOnlyBlocked,
  goTo,
  screenshot,
  signIn,
  useDashboard,
} from './support/dashboard';

/**
 * The prompt pages and the test runner: writing a template against the service's validator, the model picker and
 * settings, saving versions with a diff first, the lifecycle actions and their refusals, and test runs (Draft prompts,
 * images in and out), for ReadWrite and ReadOnly keys.
 */
describe('Dashboard: prompts and the test runner', () => {
  const h = useDashboard({ setUp: (h) => h.signIn(h.tenant.admin) });
  let page: Page;
  beforeAll(() => (page = h.page));
  beforeEach(() => h.fake.reset());

  const api = {
    get: (path: string) => h.t.http.get(path).set(h.admin()),
    post: (path: string, body: object = {}) => h.t.http.post(path).set(h.admin()).send(body),
  };

  /** An endpoint with a required text, an optional language and a bounded integer; optionally structured output. */
  const textEndpoint = (outputs: { name: string; dataType: string }[] = []) =>
    h.createEndpoint({
      name: 'Summaries',
      inputs: [
        { name: 'text', dataType: 'string', isRequired: true, maxLength: 2000, description: 'The text to summarize' },
        { name: 'language', dataType: 'string', maxLength: 40, defaultValue: 'English' },
        { name: 'sentences', dataType: 'integer', minimum: 1, maximum: 5, defaultValue: 2 },
      ],
      outputs,
    });

  /** A Draft prompt of a new text endpoint (see textEndpoint), opened on its page. */
  async function openDraft(spec: PromptSpec, outputs: { name: string; dataType: string }[] = []) {
    const endpoint = await textEndpoint(outputs);
    const prompt = await h.createPrompt(endpoint.id, spec, 'Draft');
    await goTo(page, `/endpoints/${endpoint.id}/prompts/${prompt.id}`);
    await page.getByRole('heading', { level: 1, name: spec.name }).waitFor();
    return { endpoint, prompt };
  }

  const editor = () => page.getByRole('textbox', { name: 'Template' });
  const runButton = (scope: Pick<Page, 'getByRole'> = page) => scope.getByRole('button', { name: 'Run', exact: true });

  /** Replaces the whole template, as pasting it would. */
  async function setTemplate(text: string) {
    await editor().click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(text);
  }

  const templateCheck = () => page.locator('.template-check');

  it('writes a new prompt: a syntax error marked at its line and fixed, an unknown variable named, inputs completed, a model and temperature picked', async () => {
    const endpoint = await textEndpoint();
    await goTo(page, `/endpoints/${endpoint.id}/prompts/new`);
    await page.getByRole('heading', { level: 1, name: 'New prompt' }).waitFor();
    await templateCheck().getByText('No problems found').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByLabel('Name').fill('Short summary');
    // An unclosed tag on line 2: marked in the editor on that line and listed with its line and column.
    await setTemplate('Summarize in {{ inputs.language }}:\n{% if inputs.text %}{{ inputs.text }}\nThanks.');
    await templateCheck().getByText('line 2, column 1: tag {% if inputs.text %} not closed').waitFor();
    await page.locator('.cm-line').nth(1).locator('.cm-lintRange-error').waitFor();
    expect(await page.locator('.cm-lint-marker-error').count()).toBe(1);
    // The gutter marker sits on line 2 too.
    const markerTop = (await page.locator('.cm-lint-marker-error').boundingBox())!.y;
    const line2 = (await page.locator('.cm-line').nth(1).boundingBox())!;
    expect(markerTop).toBeGreaterThanOrEqual(line2.y - 2);
    expect(markerTop).toBeLessThan(line2.y + line2.height);

    // Fixed: the marker and the list go.
    await setTemplate('Summarize in {{ inputs.language }}:\n{% if inputs.text %}{{ inputs.text }}{% endif %}\nThanks.');
    await templateCheck().getByText('No problems found').waitFor();
    expect(await page.locator('.cm-lintRange-error').count()).toBe(0);
    expect(await page.locator('.cm-lint-marker-error').count()).toBe(0);

    // A variable that is not an input field is named.
    await setTemplate('Summarize {{ inputs.txt }} in {{ inputs.language }}.');
    await templateCheck()
      .getByText("line 1, column 14: Unknown variable 'inputs.txt': 'txt' is not an input field of this endpoint")
      .waitFor();
    await templateCheck().getByText('Unknown variables:').waitFor();
    await page.locator('.cm-lintRange-error', { hasText: 'inputs.txt' }).waitFor();

    // Completion offers the endpoint's input fields after `inputs.`.
    await setTemplate('Summarize ');
    await page.keyboard.press('End');
    await page.keyboard.type('{{ inputs.');
    const options = page.locator('.cm-tooltip-autocomplete').getByRole('option');
    await options.filter({ hasText: 'sentences' }).waitFor();
    const offered = await options.allInnerTexts();
    expect(offered.join(' ')).toEqual(expect.stringContaining('text'));
    expect(offered.join(' ')).toEqual(expect.stringContaining('language'));
    await options.filter({ hasText: /^text/ }).first().click();
    await page.keyboard.type(' ');
    await templateCheck().getByText('No problems found. Reads inputs.text.').waitFor();
    expect(await editor().innerText()).toMatch(/^Summarize \{\{ inputs\.text \}\}$/);
    await setTemplate('Summarize {{ inputs.text }} in {{ inputs.language }}, in {{ inputs.sentences }} sentences.');

    // The model picker: callable models first, each with its provider, prices and context window.
    const models = (await api.get('/admin/v1/prompts/models')).body.data as { id: string; available: boolean }[];
    const picker = page.getByLabel('Model');
    const optionTexts = await picker.locator('option').allInnerTexts();
    const firstUnavailable = optionTexts.findIndex((text) => text.includes('not available'));
    if (firstUnavailable >= 0)
      expect(optionTexts.slice(firstUnavailable).every((text) => text.includes('not available'))).toBe(true);
    for (const unavailable of models.filter((model) => !model.available)) {
      expect(await picker.locator(`option[value="${unavailable.id}"]`).isDisabled()).toBe(true);
    }
    await picker.selectOption('gpt-4o-mini');
    expect(await picker.locator('option:checked').innerText()).toMatch(
      /openai · \$[\d.]+\/M in · \$[\d.]+\/M out · 128K context/,
    );
    await page.locator('.model-facts').getByText('gpt-4o-mini').waitFor();

    // Temperature: a slider in steps of 0.05 up to OpenAI's highest (2), its value shown.
    const slider = page.getByRole('slider', { name: 'Temperature' });
    expect(await slider.getAttribute('max')).toBe('2');
    await slider.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
    await page.locator('.temperature-value').getByText('0.50').waitFor();
    await page.getByLabel('Max tokens').fill('300');

    await page.getByRole('button', { name: 'Create prompt' }).click();
    await page.getByRole('heading', { level: 1, name: 'Short summary' }).waitFor();
    await page.locator('.prompt-status').getByText('Draft', { exact: true }).waitFor();
    await page.locator('.prompt-status').getByText('Version 1').waitFor();
    const prompts = (await api.get(`/admin/v1/prompts?endpointId=${endpoint.id}`)).body.data;
    expect(prompts).toEqual([
      expect.objectContaining({
        name: 'Short summary',
        status: 'Draft',
        llmModel: 'gpt-4o-mini',
        temperature: 0.5,
        maxTokens: 300,
        template: 'Summarize {{ inputs.text }} in {{ inputs.language }}, in {{ inputs.sentences }} sentences.',
      }),
    ]);
  });

  it('marks the models whose provider is not configured, disabled, and explains a prompt that uses one', async () => {
    // The harness configures every built-in provider: the catalog is answered as a service without an Anthropic key
    // answers it (the real answer, with Anthropic's models unavailable).
    await page.route('**/admin/v1/prompts/models', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      for (const model of body.data) if (model.provider === 'anthropic') model.available = false;
      await route.fulfill({ response, json: body });
    });
    try {
      await openDraft({
        name: 'On Claude',
        template: '{{ inputs.text }}',
        llmModel: 'claude-haiku-4-5',
      });
      const picker = page.getByLabel('Model');
      const groups = await picker
        .locator('optgroup')
        .evaluateAll((elements) => elements.map((element) => element.getAttribute('label')));
      expect(groups).toEqual(['Available', 'Not available: provider not configured']);
      const unavailable = picker.locator('optgroup').nth(1).locator('option');
      expect(
        (await unavailable.allInnerTexts()).every(
          (text) => text.includes('anthropic') && text.endsWith('· not available'),
        ),
      ).toBe(true);
      // The prompt's own model stays selected (enabled), the other unavailable ones cannot be picked.
      expect(await picker.inputValue()).toBe('claude-haiku-4-5');
      expect(await picker.locator('option[value="claude-haiku-4-5"]').isDisabled()).toBe(false);
      expect(await picker.locator('option[value="claude-sonnet-4-5"]').isDisabled()).toBe(true);
      await page
        .getByText(
          'Not available: the anthropic provider is not configured on this service, so runs of this prompt fail until it is.',
        )
        .waitFor();
    } finally {
      await page.unroute('**/admin/v1/prompts/models');
    }
  });

  it('shows unsaved changes and their diff before saving, refuses bad custom parameters with their messages, and saves version 2', async () => {
    const { endpoint, prompt } = await openDraft({
      name: 'Editable',
      template: 'Line one\nSummarize {{ inputs.text }}\nLine three',
    });
    await templateCheck().getByText('No problems found').waitFor();
    expect(await page.locator('.prompt-status').getByText('Unsaved changes').count()).toBe(0);

    await setTemplate('Line one\nSummarize briefly: {{ inputs.text }}\nLine three');
    await page.getByRole('slider', { name: 'Temperature' }).fill('0.3');
    await page.locator('.prompt-status').getByText('Unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Review and save' }).click();
    const diff = page.getByRole('table', { name: 'Template changes' });
    await diff.waitFor();
    const rows = await diff.getByRole('row').allInnerTexts();
    expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([
      'Line one',
      '− Summarize {{ inputs.text }}',
      '+ Summarize briefly: {{ inputs.text }}',
      'Line three',
    ]);
    // Within the changed line, the words added are marked <ins> (underlined), not by colour alone.
    expect(await diff.locator('ins').allTextContents()).toEqual(['briefly: ']);
    expect(await diff.locator('del').count()).toBe(0);
    await page.getByRole('row', { name: /Temperature 0\.7 0\.3/ }).waitFor();

    // Custom parameters: a parse error at once, then the service's refusal naming the key.
    const parameters = page.getByLabel('Custom parameters (JSON)');
    await parameters.fill('{"top_p": 0.9');
    await page
      .getByRole('alert')
      .filter({ hasText: /^Not valid JSON/ })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Save as version 2' }).isDisabled()).toBe(true);
    await parameters.fill('{"temperature": 1}');
    await page.getByRole('button', { name: 'Save as version 2' }).click();
    await page.getByText('customParameters.temperature cannot be set: the service controls it').waitFor();
    expect((await api.get(`/admin/v1/prompts/${prompt.id}`)).body.data.currentVersion).toBe(1);

    await parameters.fill('{"top_p": 0.9}');
    await page.getByLabel('Change note').fill('Briefer');
    await page.getByRole('button', { name: 'Save as version 2' }).click();
    await page.getByText('Saved as version 2.').first().waitFor();
    await page.locator('.prompt-status').getByText('Version 2').waitFor();
    expect(await page.locator('.prompt-status').getByText('Unsaved changes').count()).toBe(0);
    expect((await api.get(`/admin/v1/prompts/${prompt.id}`)).body.data).toMatchObject({
      currentVersion: 2,
      template: 'Line one\nSummarize briefly: {{ inputs.text }}\nLine three',
      temperature: 0.3,
      customParameters: { top_p: 0.9 },
      changeNotes: 'Briefer',
    });
    // The versions are one link away.
    expect(await page.getByRole('link', { name: 'Versions' }).getAttribute('href')).toBe(
      `#/endpoints/${endpoint.id}/prompts/${prompt.id}/versions`,
    );
  });

  it('keeps unsaved changes in the browser, asks before leaving with them, and restores them until saved or discarded', async () => {
    const { endpoint, prompt } = await openDraft({ name: 'Kept', template: 'Summarize {{ inputs.text }}' });
    await setTemplate('Summarize {{ inputs.text }} briefly.');
    await page.locator('.badge.unsaved').waitFor();

    // Leaving through the navigation asks first; "no" stays on the page, with the changes.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.dismiss();
      }),
    );
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
    expect(await asked).toBe('This prompt has unsaved changes. Leave the page? They stay kept in this browser.');
    expect(await page.getByRole('heading', { level: 1, name: 'Kept' }).isVisible()).toBe(true);

    // "Yes" leaves; coming back (or reloading) brings the changes back, said so.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await goTo(page, `/endpoints/${endpoint.id}/prompts/${prompt.id}`);
    await page.getByText('Your unsaved changes from an earlier visit were restored.').waitFor();
    expect(await editor().innerText()).toContain('briefly.');
    await page.reload();
    await page.getByText('Your unsaved changes from an earlier visit were restored.').waitFor();
    await expectAccessible(page);

    // Discarded, they are gone for good: a reload shows the saved version.
    await page.getByRole('button', { name: 'Review and save' }).click();
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByText('No unsaved changes: this is version 1.').waitFor();
    await page.reload();
    await page.getByText('No unsaved changes: this is version 1.').waitFor();
    expect(await editor().innerText()).not.toContain('briefly.');
    expect(await page.getByText('were restored').count()).toBe(0);

    // A rename says, before it is saved, that the old name and slug keep reaching the prompt.
    await page.getByLabel('Name').fill('Kept for later');
    await page.getByRole('button', { name: 'Review and save' }).click();
    const note = page.getByRole('note').filter({ hasText: 'Renaming changes the slug' });
    expect(await note.innerText()).toBe(
      'Renaming changes the slug (now kept) along with the name. Calls that select this prompt with ?prompt= by its ' +
        'old name or slug keep reaching it, until another prompt of the endpoint takes that name or slug.',
    );
    await page.getByRole('button', { name: 'Discard changes' }).click();
  });

  it('adds retries and a fallback model, saves them as a version, sees them again, and a test run fails over to it', async () => {
    const { prompt } = await openDraft({
      name: 'With fallback',
      template: 'Summarize {{ inputs.text }}',
      llmModel: 'gpt-4o-mini',
    });
    await page.getByText('No fallback models.').waitFor();

    await page.getByLabel('Retries', { exact: true }).selectOption('1');
    await page.getByRole('button', { name: 'Add a fallback model' }).click();
    await page.getByLabel('Fallback model 1', { exact: true }).selectOption('claude-sonnet-4-5');
    await page.getByLabel('Fallback 1 max tokens').fill('0');
    await page
      .getByRole('alert')
      .filter({ hasText: /^Fallback model 1: Max tokens/ })
      .waitFor();
    await page.getByLabel('Fallback 1 max tokens').fill('200');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Review and save' }).click();
    await page.getByRole('row', { name: /Retries 0 1/ }).waitFor();
    await page.getByRole('row', { name: /Fallback models none claude-sonnet-4-5/ }).waitFor();
    await page.getByRole('button', { name: 'Save as version 2' }).click();
    await page.getByText('Saved as version 2.').first().waitFor();
    expect((await api.get(`/admin/v1/prompts/${prompt.id}`)).body.data).toMatchObject({
      currentVersion: 2,
      retries: 1,
      fallbackModels: [{ llmModel: 'claude-sonnet-4-5', maxTokens: 200 }],
    });

    // Seen again after a reload, with nothing unsaved.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'With fallback' }).waitFor();
    expect(await page.getByLabel('Fallback model 1', { exact: true }).inputValue()).toBe('claude-sonnet-4-5');
    expect(await page.getByLabel('Fallback 1 max tokens').inputValue()).toBe('200');
    expect(await page.getByLabel('Retries', { exact: true }).inputValue()).toBe('1');
    expect(await page.locator('.prompt-status').getByText('Unsaved changes').count()).toBe(0);

    // The version history names the change.
    await page.getByRole('link', { name: 'Versions' }).click();
    await page.getByText('Retries 0 → 1').waitFor();
    await page.getByText('Fallback models none → [{"llmModel":"claude-sonnet-4-5","maxTokens":200}]').waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'With fallback' }).waitFor();

    // A test run whose model is rate limited twice is answered by the fallback, which the result names.
    h.fake.reply(
      { status: 429, message: 'slow down' },
      { status: 429, message: 'slow down' },
      { text: 'From the fallback' },
    );
    const runner = page.locator('.playground-runner');
    await runner.getByLabel('text (required)').fill('hello');
    await runButton(runner).click();
    await runner.locator('.test-run-result').getByText('claude-sonnet-4-5').waitFor();
    expect(h.fake.requests.map((request) => request.body.model)).toEqual([
      'gpt-4o-mini',
      'gpt-4o-mini',
      'claude-sonnet-4-5',
    ]);

    // Its log row lists the three attempts: two rate limited, the fallback's answer.
    await runner.getByRole('link', { name: 'View the log row' }).click();
    const attempts = page.getByRole('table', { name: 'Attempts' });
    await attempts.waitFor();
    const rows = (await attempts.getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t').slice(0, 4));
    expect(rows).toEqual([
      ['1', 'gpt-4o-mini', 'error', '429'],
      ['2', 'gpt-4o-mini', 'error', '429'],
      ['3', 'claude-sonnet-4-5', 'success', '—'],
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('promotes and sets the default with the badges to show it, blocks what the rules forbid with the reason, and shows a refusal', async () => {
    const { endpoint, prompt } = await openDraft({ name: 'Lifecycle', template: 'Hi {{ inputs.text }}' });
    const status = page.locator('.prompt-status');
    const actions = page.getByRole('group', { name: 'Lifecycle' });

    // A Draft cannot be the default: the button says why.
    const setDefault = actions.getByRole('button', { name: 'Set as default' });
    expect(await setDefault.isDisabled()).toBe(true);
    expect(await setDefault.getAttribute('title')).toBe('Only a Live prompt can be the default: promote it first.');

    await actions.getByRole('button', { name: 'Promote to Live' }).click();
    await page.getByText('Promoted: the prompt is Live.').waitFor();
    await status.getByText('Live', { exact: true }).waitFor();
    await actions.getByRole('button', { name: 'Set as default' }).click();
    await status.getByText('Default', { exact: true }).waitFor();
    expect((await api.get(`/admin/v1/endpoints/${endpoint.id}`)).body.data.defaultPromptId).toBe(prompt.id);

    // The default cannot be archived: blocked, with the reason.
    const archive = actions.getByRole('button', { name: 'Archive' });
    expect(await archive.isDisabled()).toBe(true);
    expect(await archive.getAttribute('title')).toMatch(/default prompt cannot be archived/);

    // A refusal the page could not foresee (the prompt changed elsewhere) shows the service's message.
    await api.post(`/admin/v1/prompts/${prompt.id}/demote`).expect(200);
    await actions.getByRole('button', { name: 'Demote to Draft' }).click();
    await page.getByRole('alert').getByText('A Draft prompt cannot be demoted: only a Live prompt can').waitFor();

    // Archive and unarchive; unarchiving while another prompt has taken the name is refused with its message.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Lifecycle' }).waitFor();
    await actions.getByRole('button', { name: 'Archive' }).click();
    await status.getByText('Archived', { exact: true }).waitFor();
    await h.createPrompt(endpoint.id, { name: 'Lifecycle', template: 'Taken {{ inputs.text }}' }, 'Draft');
    await actions.getByRole('button', { name: 'Unarchive' }).click();
    await page
      .getByRole('alert')
      .getByText(/A prompt named 'Lifecycle' .*already exists on this endpoint/)
      .waitFor();

    // Duplicate opens the copy.
    await actions.getByRole('button', { name: 'Duplicate' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lifecycle (copy)' }).waitFor();
    await status.getByText('Draft', { exact: true }).waitFor();
  });

  it('test-runs a Draft prompt beside the editor: the output pretty-printed, tokens, cost, latency and the log row', async () => {
    const { endpoint, prompt } = await openDraft(
      {
        name: 'Structured summary',
        template:
          'Summarize the text below in {{ inputs.sentences }} sentences, in {{ inputs.language }}.\n\n{{ inputs.text }}',
        llmModel: 'gpt-4o-mini',
        temperature: 0.3,
        maxTokens: 400,
        customParameters: { top_p: 0.9 },
      },
      [
        { name: 'summary', dataType: 'string' },
        { name: 'sentences', dataType: 'integer' },
      ],
    );
    await templateCheck().getByText('No problems found').waitFor();
    await expectAccessible(page, { keyboard: true });

    // The form starts from the fields' defaults; Run with a missing required field shows the service's message.
    const runner = page.locator('.playground-runner');
    expect(await runner.getByLabel('language').inputValue()).toBe('English');
    expect(await runner.getByLabel('sentences').inputValue()).toBe('2');
    expect(await runner.getByLabel('text (required)').getAttribute('maxlength')).toBe('2000');
    expect(await runner.getByLabel('sentences').getAttribute('max')).toBe('5');
    await runButton(runner).click();
    await runner.getByRole('alert').getByText("Field 'text' is required").waitFor();

    h.fake.reply({
      text: '{"summary":"Promptgate turns prompts into versioned HTTP endpoints.","sentences":1}',
      inputTokens: 1200,
      outputTokens: 345,
    });
    await runner
      .getByLabel('text (required)')
      .fill('Promptgate turns prompts into production HTTP endpoints: versioned, cached, rate-limited and logged.');
    await runner.getByLabel('sentences').fill('1');
    await runner.getByLabel('text (required)').press('ControlOrMeta+Enter');
    const result = runner.locator('.test-run-result');
    await result.waitFor();
    expect(await result.locator('.json-view pre').first().innerText()).toBe(
      JSON.stringify({ summary: 'Promptgate turns prompts into versioned HTTP endpoints.', sentences: 1 }, null, 2),
    );
    await result.getByText('Summarize the text below in 1 sentences, in English.').waitFor();
    await result.getByText('1,200 / 345').waitFor();
    const run = (await api.get(`/admin/v1/logs?endpointId=${endpoint.id}`)).body.data;
    const logs = Array.isArray(run) ? run : run.items;
    expect(logs).toHaveLength(2);
    const log = logs.find((row: { status: string }) => row.status === 'success');
    expect(log).toMatchObject({ source: 'TestPage', promptId: prompt.id, inputTokens: 1200, outputTokens: 345 });
    expect(log.costUsd).toBeGreaterThan(0);
    await result.getByText(`$${log.costUsd.toPrecision(2)}`).waitFor();
    await result.getByText(/\d+ ms/).waitFor();
    const logLink = result.getByRole('link', { name: 'View the log row' });
    expect(await logLink.getAttribute('href')).toBe(`#/logs/${log.id}`);
    // The playground is taller than the usual window: the picture shows the template, the settings and the answer.
    await page.setViewportSize({ width: 1440, height: 1180 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'prompt-editor');
    await page.setViewportSize({ width: 1280, height: 800 });

    await logLink.click();
    await page.waitForFunction((id) => location.hash === `#/logs/${id}`, log.id);
  });

  it('runs any prompt of the endpoint on the runner page, prefilled from the link, with an image input sent as a data URI', async () => {
    const endpoint = await h.createEndpoint({
      name: 'Describe a photo',
      inputs: [
        { name: 'photo', dataType: 'image', isRequired: true, description: 'The photo to describe' },
        { name: 'question', dataType: 'string', defaultValue: 'What is in this picture?' },
        { name: 'words', dataType: 'integer', minimum: 5, maximum: 50 },
      ],
    });
    const live = await h.createPrompt(endpoint.id, {
      name: 'Live describer',
      template: '{{ inputs.question }}',
    });
    const draft = await h.createPrompt(
      endpoint.id,
      {
        name: 'Draft describer',
        template: '{{ inputs.question }} Answer in at most {{ inputs.words }} words.',
        llmModel: 'gpt-4o-mini',
      },
      'Draft',
    );
    const archived = await h.createPrompt(endpoint.id, { name: 'Old describer', template: 'Old' }, 'Draft');
    await api.post(`/admin/v1/prompts/${archived.id}/archive`).expect(200);

    // As a log row's "Run again" links it: the log keeps a summary of the image, not its bytes.
    const inputs = encodeURIComponent(
      JSON.stringify({ photo: '[image image/png, 96 characters]', question: 'How many dots?', words: 10 }),
    );
    await goTo(page, `/endpoints/${endpoint.id}/run?prompt=${draft.id}&inputs=${inputs}`);
    await page.getByRole('heading', { level: 1, name: /Test runner/ }).waitFor();
    const picker = page.getByLabel('Prompt', { exact: true });
    expect(await picker.inputValue()).toBe(draft.id);
    expect(await picker.locator('option').allInnerTexts()).toEqual([
      expect.stringMatching(/^Live describer — Live, default, v1$/),
      expect.stringMatching(/^Draft describer — Draft, v1$/),
      expect.stringMatching(/^Old describer — Archived, v1 \(unarchive it to run it\)$/),
    ]);
    // The service refuses to run an archived prompt, so the runner lists it but does not offer it.
    expect(await picker.locator('option', { hasText: 'Old describer' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('question').inputValue()).toBe('How many dots?');
    expect(await page.getByLabel('words').inputValue()).toBe('10');
    expect(await page.getByLabel('photo (required)').getAttribute('accept')).toBe(
      'image/png,image/jpeg,image/webp,image/gif',
    );
    await page.getByText('The log keeps no image bytes: choose the file again.').waitFor();
    await expectAccessible(page, { keyboard: true });

    await page
      .getByLabel('photo (required)')
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: Buffer.from(FAKE_PNG, 'base64') });
    await page.getByRole('img', { name: /Chosen image dot\.png/ }).waitFor();
    h.fake.reply({ text: 'One dot.', inputTokens: 260, outputTokens: 3 });
    await runButton().click();
    const result = page.locator('.test-run-result');
    await result.getByText('One dot.').waitFor();
    await result.getByText('How many dots? Answer in at most 10 words.').waitFor();
    await result.getByText('260 / 3').waitFor();
    // The image reached the model as the data URI the browser read from the file.
    expect(JSON.stringify(h.fake.last().body)).toContain(`data:image/png;base64,${FAKE_PNG}`);
    await screenshot(page, 'test-runner');

    // Another prompt, picked in the selector, kept in the link.
    await picker.selectOption(live.id);
    await page.waitForFunction((id) => location.hash.includes(`prompt=${id}`), live.id);
    await runButton().click();
    await result.getByText('How many dots?', { exact: true }).first().waitFor();
    await result.getByText(/Live describer v1/).waitFor();

    // Linked to an archived prompt (a log row's Run again), the runner says why it cannot run it.
    await goTo(page, `/endpoints/${endpoint.id}/run?prompt=${archived.id}`);
    await page.getByRole('note').getByText('is Archived, so it cannot run: unarchive it on its page first.').waitFor();
    expect(await runButton().isDisabled()).toBe(true);
  });

  it('keeps archived prompts apart on the endpoint page, where one can be opened and unarchived', async () => {
    const endpoint = await textEndpoint();
    await h.createPrompt(endpoint.id, { name: 'Current', template: 'Now {{ inputs.text }}' }, 'Draft');
    const old = await h.createPrompt(endpoint.id, { name: 'Retired', template: 'Then {{ inputs.text }}' }, 'Draft');
    await api.post(`/admin/v1/prompts/${old.id}/archive`).expect(200);

    await goTo(page, `/endpoints/${endpoint.id}`);
    const prompts = page.getByRole('region', { name: 'Prompts' });
    await prompts.getByRole('table', { name: 'Prompts' }).getByRole('link', { name: 'Current' }).waitFor();
    expect(await prompts.getByRole('table', { name: 'Prompts' }).getByRole('link', { name: 'Retired' }).count()).toBe(
      0,
    );
    await prompts.getByText('Archived prompts (1)').click();
    const archivedTable = prompts.getByRole('table', { name: 'Archived prompts' });
    await archivedTable.getByText('Archived', { exact: true }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await archivedTable.getByRole('link', { name: 'Retired' }).click();
    await page.getByRole('heading', { level: 1, name: 'Retired' }).waitFor();
    await page.getByRole('button', { name: 'Unarchive' }).click();
    await page.locator('.prompt-status').getByText('Draft', { exact: true }).waitFor();
    expect((await api.get(`/admin/v1/prompts/${old.id}`)).body.data.status).toBe('Draft');
  });

  it('says to copy by hand where the browser gives no clipboard', async () => {
    const endpoint = await textEndpoint();
    await goTo(page, `/endpoints/${endpoint.id}`);
    await page.getByRole('heading', { level: 1, name: 'Summaries' }).waitFor();
    // Plain HTTP on a host other than localhost: the browser offers no navigator.clipboard.
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true }));
    await page.getByRole('button', { name: 'Copy command' }).click();
    await page.getByRole('status').getByText('select the text and copy it with Ctrl+C').waitFor();
    await page.reload();
  });

  it('renders the images of an image endpoint', async () => {
    const endpoint = await h.createEndpoint({
      name: 'Drawings',
      inputs: [{ name: 'subject', dataType: 'string', isRequired: true }],
      outputs: [{ name: 'image', dataType: 'image', exampleValue: '{"size":"1024x1024"}' }],
    });
    const prompt = await h.createPrompt(
      endpoint.id,
      { name: 'Drawer', template: 'A drawing of {{ inputs.subject }}', llmModel: 'gpt-image-1' },
      'Draft',
    );
    await goTo(page, `/endpoints/${endpoint.id}/run?prompt=${prompt.id}`);
    await page.getByLabel('subject (required)').fill('a dot');
    h.fake.reply({
      images: [{ b64: FAKE_PNG, revisedPrompt: 'A single black dot' }],
      inputTokens: 10,
      outputTokens: 4160,
    });
    await runButton().click();
    const image = page.locator('.test-run-result').getByRole('img', { name: 'A single black dot' });
    await image.waitFor();
    expect(await image.getAttribute('src')).toBe(`data:image/png;base64,${FAKE_PNG}`);
    expect(await image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1);
  });

  it('lets a ReadOnly key look and run, with every write disabled and the reason given', async () => {
    const endpoint = await textEndpoint();
    const prompt = await h.createPrompt(
      endpoint.id,
      { name: 'Read only', template: 'Echo {{ inputs.text }}' },
      'Draft',
    );
    await h.withPage(async (reader) => {
      await signIn(reader, h.baseUrl, h.tenant.readOnly, `/endpoints/${endpoint.id}/prompts/${prompt.id}`);
      await reader.getByRole('heading', { level: 1, name: 'Read only' }).waitFor();
      for (const name of ['Promote to Live', 'Archive', 'Duplicate'])
        await expectReadOnlyBlocked(reader.getByRole('button', { name, exact: true }));
      // Editing is possible, saving is not.
      await reader.getByRole('textbox', { name: 'Template' }).click();
      await reader.keyboard.press('End');
      await reader.keyboard.insertText('!');
      await reader.getByRole('button', { name: 'Review and save' }).click();
      await expectReadOnlyBlocked(reader.getByRole('button', { name: 'Save as version 2' }));

      // The test runner runs for a ReadOnly key.
      await reader.locator('.playground-runner').getByLabel('text (required)').fill('from a reader');
      await runButton(reader.locator('.playground-runner')).click();
      await reader.locator('.test-run-result').getByText('Echo from a reader').first().waitFor();
      // The unsaved edit runs too, and the answer says it came from it.
      await reader.locator('.playground-runner').getByRole('button', { name: 'Run unsaved changes' }).click();
      await reader.locator('.test-run-result').getByText('Echo from a reader!').first().waitFor();
      await reader.getByRole('heading', { name: 'Result of the unsaved changes' }).waitFor();

      await goTo(reader, `/endpoints/${endpoint.id}/prompts/new`);
      await reader.getByRole('heading', { level: 1, name: 'New prompt' }).waitFor();
      expect(await reader.getByRole('button', { name: 'Create prompt' }).isDisabled()).toBe(true);
      expect(await accessibilityViolations(reader)).toEqual([]);
    });
  });
});
