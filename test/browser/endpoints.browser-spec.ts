import type { Page } from 'playwright-core';
import {
  accessibilityViolations,
  expectAccessible,
  expectReadOnlyBlocked,
  goTo,
  openFieldForm,
  READ_ONLY_REASON,
  screenshot,
  signIn,
  useDashboard,
  watchProblems,
} from './support/dashboard';

describe('Dashboard: endpoints', () => {
  const h = useDashboard();
  let page: Page;
  beforeAll(() => (page = h.page));

  const admin = () => h.admin();
  const hash = () => page.evaluate(() => decodeURIComponent(location.hash));
  const waitForHash = (fragment: string) =>
    page.waitForFunction((text) => decodeURIComponent(location.hash).includes(text), fragment);
  const row = (name: string | RegExp) => page.getByRole('row', { name });
  /** The tenant's base URL, as its OpenAPI document names it: its slug on BASE_DOMAIN (localhost), same port. */
  const tenantBase = () => `http://${h.tenant.slug}.localhost:${new URL(h.baseUrl).port}`;

  it('teaches the first steps when the tenant has no endpoint yet', async () => {
    await h.signIn(h.tenant.admin);
    await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
    const steps = page.locator('.first-steps');
    await steps.getByRole('heading', { name: 'Create your first endpoint' }).waitFor();
    expect(await steps.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining('Create an endpoint'),
      expect.stringContaining('Write a prompt'),
      expect.stringContaining('Create an endpoint key'),
    ]);
    const curl = await steps.getByLabel('Calling an endpoint').innerText();
    expect(curl).toContain(`curl -X POST '${h.baseUrl}/api/v1/summarize'`);
    expect(curl).toContain('x-api-key: $ENDPOINT_KEY');
    await steps.getByRole('button', { name: 'Copy command' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await steps.getByRole('button', { name: 'Create an endpoint' }).click();
    await page.getByRole('heading', { level: 1, name: 'New endpoint' }).waitFor();
  });

  it('creates an endpoint with two input fields and an output field, and shows them on its page', async () => {
    await goTo(page, '/endpoints/new');
    const form = page.getByRole('form', { name: 'New endpoint' });
    await form.getByLabel('Name').fill('Summarize Émails');
    // The path follows the name as a slug until it is edited.
    expect(await form.getByLabel('Path').inputValue()).toBe('/api/v1/summarize-emails');
    await form.getByLabel('Description').fill('Summarizes an e-mail thread');
    await form.getByLabel('Category').fill('text');
    await form.getByRole('radio', { name: /Internal/ }).check();
    await form.getByLabel('Answer identical requests from the cache').check();
    await form.getByLabel('Cache duration (seconds)').fill('600');
    await form.getByLabel('Per minute').fill('20');
    await form.getByLabel('Timeout (seconds)').fill('30');
    await expectAccessible(page, { keyboard: true });
    await form.getByRole('button', { name: 'Create endpoint' }).click();

    await page.getByRole('heading', { level: 1, name: 'Summarize Émails' }).waitFor();
    const id = (await hash()).split('/')[2];
    await page.getByText('POST /api/v1/summarize-emails', { exact: true }).first().waitFor();

    // A string with a maximum length.
    let fieldForm = await openFieldForm(page, 'input', {
      Name: 'text',
      Required: true,
      'Maximum length': '500',
      Description: 'The thread to summarize',
    });
    await fieldForm.getByRole('button', { name: 'Add field' }).click();
    await row(/^text/).waitFor();

    // An Integer with bounds and a default number.
    // Checked before sending: a default outside the bounds is named beside its field.
    fieldForm = await openFieldForm(page, 'input', {
      Name: 'sentences',
      'Data type': 'integer',
      Minimum: '1',
      Maximum: '10',
      'Default value': '12',
    });
    await fieldForm.getByRole('button', { name: 'Add field' }).click();
    await fieldForm.getByText('Must be between 1 and 10 (the minimum and maximum)').waitFor();
    await fieldForm.getByLabel('Default value').fill('3');
    await fieldForm.getByRole('button', { name: 'Add field' }).click();
    await row(/^sentences/).waitFor();

    const outputForm = await openFieldForm(page, 'output', {
      Name: 'summary',
      Description: 'The summary, in the asked number of sentences',
    });
    await outputForm.getByRole('button', { name: 'Add field' }).click();

    const inputs = page.getByRole('table', { name: 'Input fields' });
    expect(await inputs.getByRole('row', { name: /^text/ }).innerText()).toMatch(
      /text\s+Required\s+Text\s+at most 500 characters\s+—\s+The thread to summarize/,
    );
    expect(await inputs.getByRole('row', { name: /^sentences/ }).innerText()).toMatch(
      /sentences\s+optional\s+Integer\s+from 1 to 10\s+3\s/,
    );
    await page
      .getByRole('table', { name: 'Output fields' })
      .getByRole('row', { name: /^summary/ })
      .waitFor();
    // The curl carries the fields, with the default as a number, to the tenant's host; an Internal endpoint is called
    // with an admin key.
    const curlBlock = page.getByLabel('curl', { exact: true });
    await curlBlock.filter({ hasText: `-d '{"text":"your text","sentences":3}'` }).waitFor();
    const curl = await curlBlock.innerText();
    expect(curl).toContain(`'${tenantBase()}/api/v1/summarize-emails'`);
    expect(curl).toContain('$ADMIN_KEY');
    // No prompt yet: the page says so and how to fix it.
    await page.getByText('No default prompt: calls to this endpoint are refused.').waitFor();
    await page
      .getByText('Create a prompt, try it in the test runner, promote it to Live, then set it as the default.')
      .waitFor();
    expect(await page.getByRole('link', { name: 'New prompt' }).getAttribute('href')).toBe(
      `#/endpoints/${id}/prompts/new`,
    );

    const stored = (await h.t.http.get(`/admin/v1/endpoints/${id}`).set(admin()).expect(200)).body.data;
    expect(stored).toMatchObject({
      name: 'Summarize Émails',
      path: '/api/v1/summarize-emails',
      description: 'Summarizes an e-mail thread',
      category: 'text',
      visibility: 'Private',
      cacheEnabled: true,
      cacheDurationSeconds: 600,
      rateLimitPerMinute: 20,
      rateLimitPerHour: null,
      rateLimitPerDay: null,
      timeoutSeconds: 30,
    });
    expect(stored.inputFields).toMatchObject([
      {
        name: 'text',
        dataType: 'string',
        isRequired: true,
        maxLength: 500,
        minimum: null,
        maximum: null,
        defaultValue: null,
      },
      {
        name: 'sentences',
        dataType: 'integer',
        isRequired: false,
        maxLength: null,
        minimum: 1,
        maximum: 10,
        defaultValue: 3,
      },
    ]);
    expect(stored.outputFields).toMatchObject([{ name: 'summary', dataType: 'string', exampleValue: null }]);

    expect(await accessibilityViolations(page)).toEqual([]);
    await page.evaluate(() => ((document.activeElement as HTMLElement | null)?.blur(), window.scrollTo(0, 0)));
    await screenshot(page, 'endpoint');
  });

  it('edits a field and a setting in place', async () => {
    const endpoint = await h.createEndpoint({
      name: 'Translate',
      path: '/api/v1/translate',
      category: 'text',
      inputs: [{ name: 'language', dataType: 'string', defaultValue: 'fr' }],
    });
    await goTo(page, `/endpoints/${endpoint.id}`);
    await page.getByRole('heading', { level: 1, name: 'Translate' }).waitFor();

    await page.getByRole('button', { name: 'Edit settings' }).click();
    const form = page.getByRole('form', { name: 'Edit Translate' });
    // Editing keeps the path as it is when the name changes.
    await form.getByLabel('Name').fill('Translate text');
    expect(await form.getByLabel('Path').inputValue()).toBe('/api/v1/translate');
    await form.getByLabel('Timeout (seconds)').fill('601');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText('Must be from 1 to 600').waitFor();
    await form.getByLabel('Timeout (seconds)').fill('45');
    await form.getByLabel('Per day').fill('1000');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Translate text' }).waitFor();
    const settings = page.locator('dl.settings');
    await settings.getByText('45 seconds').waitFor();
    await settings.getByText('No limit per minute, No limit per hour, 1,000 per day').waitFor();

    await page.getByRole('button', { name: 'Edit input field language' }).click();
    const fieldForm = page.getByRole('form', { name: 'Edit input field language' });
    expect(await fieldForm.getByLabel('Default value').inputValue()).toBe('fr');
    await fieldForm.getByLabel('Default value').fill('de');
    await fieldForm.getByRole('button', { name: 'Save field' }).click();
    await page
      .getByRole('table', { name: 'Input fields' })
      .getByRole('row', { name: /^language/ })
      .getByText('"de"')
      .waitFor();

    const stored = (await h.t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(admin()).expect(200)).body.data;
    expect(stored).toMatchObject({
      name: 'Translate text',
      path: '/api/v1/translate',
      timeoutSeconds: 45,
      rateLimitPerDay: 1000,
    });
    expect(stored.inputFields[0].defaultValue).toBe('de');
  });

  it('gives output fields allowed values and a maximum, kept after a reload', async () => {
    const endpoint = await h.createEndpoint({ name: 'Classify', path: '/api/v1/classify' });
    await goTo(page, `/endpoints/${endpoint.id}`);
    await page.getByRole('heading', { level: 1, name: 'Classify' }).waitFor();

    const statusForm = await openFieldForm(page, 'output', { Name: 'status' });
    await statusForm.getByLabel('Allowed values').fill('open\nclosed\nopen');
    await statusForm.getByRole('button', { name: 'Add field' }).click();
    await statusForm.getByText('Each value once').waitFor();
    await statusForm.getByLabel('Allowed values').fill('open\nclosed');
    await expectAccessible(page);
    await statusForm.getByRole('button', { name: 'Add field' }).click();

    const scoreForm = await openFieldForm(page, 'output', { Name: 'score', 'Data type': 'integer', Maximum: '10' });
    await scoreForm.getByLabel('Minimum').fill('0');
    await expectAccessible(page);
    await scoreForm.getByRole('button', { name: 'Add field' }).click();

    await page.reload();
    const outputs = page.getByRole('table', { name: 'Output fields' });
    await outputs.getByRole('row', { name: /^score/ }).waitFor();
    expect(await outputs.getByRole('row', { name: /^status/ }).innerText()).toMatch(
      /status\s+Text\s+one of open, closed\s/,
    );
    expect(await outputs.getByRole('row', { name: /^score/ }).innerText()).toMatch(/score\s+Integer\s+from 0 to 10\s/);
    await page.getByRole('button', { name: 'Edit output field score' }).click();
    const editForm = page.getByRole('form', { name: 'Edit output field score' });
    expect(await editForm.getByLabel('Maximum').inputValue()).toBe('10');
    await expectAccessible(page);
    await editForm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Edit output field status' }).click();
    expect(
      await page.getByRole('form', { name: 'Edit output field status' }).getByLabel('Allowed values').inputValue(),
    ).toBe('open\nclosed');

    const stored = (await h.t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(admin()).expect(200)).body.data;
    expect(
      stored.outputFields.map((field: Record<string, unknown>) => [field.name, field.enum, field.maximum]),
    ).toEqual([
      ['status', ['open', 'closed'], null],
      ['score', null, 10],
    ]);
  });

  it("shows the API's refusals beside the field they name", async () => {
    await goTo(page, '/endpoints/new');
    const form = page.getByRole('form', { name: 'New endpoint' });
    await form.getByLabel('Name').fill('Another translate');
    // Checked before sending: the path's pattern.
    await form.getByLabel('Path').fill('/api/v1/Not Valid');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const pathField = page.locator('.field', { has: page.getByLabel('Path') });
    await pathField.getByText('path must match /api/v1/<slug> (lower-case letters, digits, -, _ and /)').waitFor();
    // The form moves the focus to the first refused field once the message shows.
    const path = await form.getByLabel('Path').elementHandle();
    await page.waitForFunction((input) => input === document.activeElement, path);

    // Refused by the API: the path is taken. Its message names the path, so it shows beside the path.
    await form.getByLabel('Path').fill('/api/v1/translate');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await pathField
      .getByRole('alert')
      .getByText('path /api/v1/translate is already used by another endpoint')
      .waitFor();
    expect(await form.getByLabel('Path').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('New endpoint');
    expect(await accessibilityViolations(page)).toEqual([]);

    // A field name the endpoint already has: the API's 409 shows beside the name.
    const endpoint = await h.createEndpoint({
      name: 'Fielded',
      path: '/api/v1/fielded',
      inputs: [{ name: 'text', dataType: 'string' }],
    });
    await goTo(page, `/endpoints/${endpoint.id}`);
    await page.getByRole('button', { name: 'Add input field' }).click();
    const fieldForm = page.getByRole('form', { name: 'New input field' });
    await fieldForm.getByLabel('Name').fill('text');
    await fieldForm.getByRole('button', { name: 'Add field' }).click();
    await fieldForm
      .locator('.field', { has: page.getByLabel('Name') })
      .getByText("A field named 'text' already exists on this endpoint")
      .waitFor();
  });

  it('lists, searches and filters the endpoints, the filters kept in the URL', async () => {
    await h.createEndpoint({
      name: 'Classify tickets',
      path: '/api/v1/classify-tickets',
      category: 'support',
      visibility: 'Private',
    });
    const replies = await h.createEndpoint({
      name: 'Draft replies',
      path: '/api/v1/draft-replies',
      category: 'support',
      description: 'Drafts a reply to a customer',
      inputs: [{ name: 'message', dataType: 'string', isRequired: true }],
    });
    await h.createPrompt(replies.id, {
      name: 'Main',
      template: 'Reply to: {{ inputs.message }}',
      llmModel: 'mock-echo',
    });
    await h.createEndpoint({ name: 'Describe image', path: '/api/v1/describe-image', category: 'images' });
    await goTo(page, '/endpoints');
    await row(/Classify tickets/).waitFor();
    expect(await row(/Classify tickets/).innerText()).toMatch(
      /Classify tickets\s+POST \/api\/v1\/classify-tickets\s+Internal\s+support\s+0 in, 0 out\s+None: not callable yet/,
    );
    expect(await row(/Describe image/).innerText()).toMatch(/POST \/api\/v1\/describe-image\s+Public\s+images/);
    expect(await row(/Draft replies/).innerText()).toMatch(/support\s+1 in, 0 out\s+Has a default/);
    await screenshot(page, 'endpoints');
    await expectAccessible(page, { keyboard: true });

    const filters = page.getByRole('search', { name: 'Filter endpoints' });
    const names = async () => (await page.locator('tbody .endpoint-name').allInnerTexts()).sort();

    await filters.getByLabel('Visibility').selectOption({ label: 'Internal' });
    await waitForHash('visibility=Private');
    await page.getByText('Internal: visible only to its creator and admins').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    expect(await names()).toEqual(['Classify tickets', 'Summarize Émails']);

    await filters.getByLabel('Category').selectOption('support');
    await waitForHash('category=support');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    expect(await names()).toEqual(['Classify tickets']);

    await filters.getByLabel('Visibility').selectOption({ label: 'All' });
    await filters.getByLabel('Search by name').fill('draft');
    await waitForHash('search=draft');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    expect(await names()).toEqual(['Draft replies']);
    expect(await hash()).toBe('#/endpoints?search=draft&category=support');

    // The link is the view: opened in another tab, it shows the same filters and rows.
    const shared = await h.browser.newPage();
    watchProblems(shared, h.problems);
    await signIn(shared, h.baseUrl, h.tenant.admin, '/endpoints?search=draft&category=support');
    await shared.locator('tbody .endpoint-name').first().waitFor();
    expect(await shared.locator('tbody .endpoint-name').allInnerTexts()).toEqual(['Draft replies']);
    expect(await shared.getByLabel('Search by name').inputValue()).toBe('draft');
    expect(await shared.getByLabel('Category').inputValue()).toBe('support');
    await shared.close();

    await filters.getByLabel('Search by name').fill('nothing like it');
    await page.getByText('No endpoint matches these filters.').waitFor();
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await waitForHash('#/endpoints');
    await row(/Describe image/).waitFor();
    expect(await hash()).toBe('#/endpoints');
  });

  it('pages the list as the API does', async () => {
    for (let i = 1; i <= 26; i++)
      await h.createEndpoint({
        name: `Bulk ${String(i).padStart(2, '0')}`,
        path: `/api/v1/bulk-${i}`,
        category: 'bulk',
      });
    await goTo(page, '/endpoints?category=bulk');
    await row(/Bulk 01/).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(25);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next' }).click();
    await waitForHash('page=2');
    await row(/Bulk 26/).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    expect(await hash()).toBe('#/endpoints?category=bulk&page=2');
  });

  it('deletes an endpoint softly, finds it in Deleted endpoints and restores it', async () => {
    const endpoint = await h.createEndpoint({ name: 'Soon gone', path: '/api/v1/soon-gone' });
    await goTo(page, `/endpoints/${endpoint.id}`);
    await page.getByRole('heading', { level: 1, name: 'Soon gone' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Delete Soon gone?' });
    await dialog.getByText('stops answering at once').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();

    await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
    await row(/Describe image/).waitFor();
    expect(await row(/Soon gone/).count()).toBe(0);

    await page.getByRole('link', { name: 'Deleted endpoints' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deleted endpoints' }).waitFor();
    await row(/Soon gone/).waitFor();
    expect(await row(/Soon gone/).innerText()).toContain('POST /api/v1/soon-gone');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Restore Soon gone' }).click();
    await page.getByRole('status').getByText('Restored Soon gone').waitFor();
    // The list refreshes after the notice: the restored endpoint leaves the deleted ones.
    await row(/Soon gone/).waitFor({ state: 'detached' });
    await page.getByRole('status').getByRole('link', { name: 'Soon gone' }).click();
    await page.getByRole('heading', { level: 1, name: 'Soon gone' }).waitFor();
    await h.t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(admin()).expect(200);
  });

  it('deletes an endpoint for good after its name is typed, with its prompts', async () => {
    const endpoint = await h.createEndpoint({ name: 'Old summarizer', path: '/api/v1/old-summarizer' });
    const prompt = await h.createPrompt(
      endpoint.id,
      { name: 'Main', template: 'Summarize: {{ inputs.text }}', llmModel: 'mock-echo' },
      'Draft',
    );
    await goTo(page, `/endpoints/${endpoint.id}`);
    const prompts = page.getByRole('table', { name: 'Prompts' });
    await prompts.getByRole('row', { name: /Main/ }).waitFor();
    expect(await prompts.getByRole('row', { name: /Main/ }).innerText()).toMatch(/Main\s+Draft\s+v1\s+mock-echo/);
    expect(await prompts.getByRole('link', { name: 'Main' }).getAttribute('href')).toBe(
      `#/endpoints/${endpoint.id}/prompts/${prompt.id}`,
    );
    await page.getByText('Open a prompt, promote it to Live, then set it as the default.').waitFor();

    await page.getByRole('button', { name: 'Delete for good…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Old summarizer for good?' });
    const text = await dialog.innerText();
    expect(text).toContain('its prompt, any archived ones, and every version of them');
    expect(text).toContain('its execution logs');
    expect(text).toContain('its cached responses');
    expect(text).toContain('This cannot be undone.');
    const confirm = dialog.getByRole('button', { name: 'Delete for good' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type Old summarizer to confirm').fill('Old summarize');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type Old summarizer to confirm').fill('Old summarizer');
    await confirm.click();

    await page.getByRole('heading', { level: 1, name: 'Endpoints' }).waitFor();
    await row(/Describe image/).waitFor();
    expect(await row(/Old summarizer/).count()).toBe(0);
    await h.t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(admin()).expect(404);
    await h.t.http.get(`/admin/v1/prompts/${prompt.id}`).set(admin()).expect(404);
    const deleted = await h.t.http.get('/admin/v1/endpoints?deleted=true').set(admin()).expect(200);
    expect(deleted.body.data.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
    // Its page now says it is gone, and where deleted endpoints are.
    await goTo(page, `/endpoints/${endpoint.id}`);
    await page.getByRole('heading', { level: 1, name: 'Endpoint not found' }).waitFor();
  });

  it('deletes a soft-deleted endpoint for good from the deleted list', async () => {
    const endpoint = await h.createEndpoint({ name: 'Twice gone', path: '/api/v1/twice-gone' });
    await h.t.http.delete(`/admin/v1/endpoints/${endpoint.id}`).set(admin()).expect(200);
    await goTo(page, '/endpoints/deleted');
    await page.getByRole('button', { name: 'Delete for good: Twice gone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Twice gone for good?' });
    await dialog.getByLabel('Type Twice gone to confirm').fill('Twice gone');
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    // The dialog closes and the list is read again without the endpoint (the row stays until that answer is in).
    await dialog.waitFor({ state: 'hidden' });
    await row(/Twice gone/).waitFor({ state: 'detached' });
    await h.t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(admin()).expect(404);
    const deleted = await h.t.http.get('/admin/v1/endpoints?deleted=true').set(admin()).expect(200);
    expect(deleted.body.data.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
  });

  it('shows how to call an endpoint from its OpenAPI operation: curl, a typed TypeScript client, the operation', async () => {
    const endpoint = await h.createEndpoint({
      name: 'Translator',
      path: '/api/v1/translator',
      inputs: [
        { name: 'text', dataType: 'string', isRequired: true, maxLength: 2000 },
        { name: 'language', dataType: 'string', defaultValue: 'French' },
      ],
    });
    // A page of its own, signed in on the endpoint's page, that may use the clipboard.
    await h.withPage(
      async (page) => {
        await signIn(page, h.baseUrl, h.tenant.admin, `/endpoints/${endpoint.id}`);
        await page.getByRole('heading', { level: 1, name: 'Translator' }).waitFor();
        const call = page.getByRole('region', { name: 'Call it' });
        await call.getByText(`POST ${tenantBase()}/api/v1/translator`).waitFor();
        expect(await call.getByLabel('curl', { exact: true }).innerText()).toBe(
          [
            `curl -X POST '${tenantBase()}/api/v1/translator' \\`,
            '  -H "x-api-key: $ENDPOINT_KEY" \\',
            "  -H 'Content-Type: application/json' \\",
            `  -d '{"text":"your text","language":"French"}'`,
          ].join('\n'),
        );
        const typescript = await call.getByLabel('TypeScript', { exact: true }).innerText();
        expect(typescript).toContain(
          `curl -s ${tenantBase()}/api/v1/openapi.json -H "x-api-key: $ENDPOINT_KEY" -o promptgate.json`,
        );
        expect(typescript).toContain('npx openapi-typescript promptgate.json -o promptgate.d.ts');
        expect(typescript).toContain('const promptgate = createClient<paths>({');
        expect(typescript).toContain('await promptgate.POST("/api/v1/translator", {');
        await call.getByRole('button', { name: 'Copy code' }).click();
        await call.getByRole('button', { name: 'Copied' }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(typescript);

        // The operation, as GET /api/v1/openapi.json describes it, and the way to the Swagger UI of every endpoint.
        await call.getByText('OpenAPI operation').click();
        const operation = call.locator('.openapi-operation pre');
        await operation.waitFor();
        expect(await operation.innerText()).toContain('"operationId": "translator"');
        expect(await operation.innerText()).toContain('"maxLength": 2000');
        expect(await call.getByRole('link', { name: 'API documentation' }).getAttribute('href')).toBe(
          `${h.baseUrl}/api/v1/docs`,
        );
        expect(await accessibilityViolations(page)).toEqual([]);
        await call.evaluate((section) => section.scrollIntoView());
        await screenshot(page, 'endpoint-call-it');

        // A changed field changes the calls and the operation at once.
        await page.getByRole('button', { name: 'Edit input field text' }).click();
        const fieldForm = page.getByRole('form', { name: 'Edit input field text' });
        await fieldForm.getByLabel('Maximum length').fill('300');
        await fieldForm.getByRole('button', { name: 'Save field' }).click();
        await call.locator('.openapi-operation pre').filter({ hasText: '"maxLength": 300' }).waitFor();
      },
      { clipboard: true },
    );
  });

  it("serves Swagger UI of the key's endpoints at /api/v1/docs: the key entered, an endpoint tried out", async () => {
    const endpoint = await h.createEndpoint({
      name: 'Shout',
      path: '/api/v1/shout',
      description: 'Says it louder',
      inputs: [{ name: 'words', dataType: 'string', isRequired: true }],
    });
    await h.createPrompt(endpoint.id, { name: 'Loud', llmModel: 'mock-echo', template: 'LOUDER: {{ inputs.words }}' });

    await h.withPage(async (docs) => {
      await docs.goto(`${h.baseUrl}/api/v1/docs`);
      // Nothing is shown before a key is entered; a wrong key is refused in words.
      await docs.getByLabel('API key').fill('ep_live_nonsense');
      await docs.getByRole('button', { name: 'Show endpoints' }).click();
      await docs.getByRole('status').getByText('The API key is invalid or revoked').waitFor();
      await docs.getByLabel('API key').fill(h.tenant.endpointKey);
      await docs.getByRole('button', { name: 'Show endpoints' }).click();
      const operation = docs.locator('.opblock-post').filter({ hasText: '/api/v1/shout' });
      await operation.getByText('Shout', { exact: true }).waitFor();
      await screenshot(docs, 'tenant-api-docs');
      await operation.locator('.opblock-summary').click();
      await operation.getByText('Says it louder').waitFor();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.locator('textarea.body-param__text').fill('{"words": "hello"}');
      await operation.getByRole('button', { name: 'Execute' }).click();
      const live = operation.locator('.live-responses-table');
      await live.getByText('"LOUDER: hello"').waitFor();
      await live.getByRole('cell', { name: '200', exact: true }).waitFor();
    });
  });

  it('lets a ReadOnly key see every endpoints page with the write actions disabled and why', async () => {
    await h.createEndpoint({
      name: 'Read me',
      path: '/api/v1/read-me',
      inputs: [{ name: 'text', dataType: 'string' }],
      outputs: [{ name: 'answer', dataType: 'string' }],
    });
    const deleted = await h.createEndpoint({ name: 'Read me deleted', path: '/api/v1/read-me-deleted' });
    await h.t.http.delete(`/admin/v1/endpoints/${deleted.id}`).set(admin()).expect(200);

    await h.withPage(async (reader) => {
      const expectBlocked = async (name: string) => {
        const button = reader.getByRole('button', { name, exact: true }).first();
        await expectReadOnlyBlocked(button);
        const described = await button.getAttribute('aria-describedby');
        expect(await reader.locator(`[id="${described}"]`).innerText()).toBe(READ_ONLY_REASON);
      };
      await signIn(reader, h.baseUrl, h.tenant.readOnly, '/endpoints?search=read');
      await reader
        .getByRole('row', { name: /Read me/ })
        .first()
        .waitFor();
      expect(await accessibilityViolations(reader)).toEqual([]);
      await expectBlocked('New endpoint');

      await reader.getByRole('link', { name: 'Read me', exact: true }).click();
      await reader.getByRole('heading', { level: 1, name: 'Read me' }).waitFor();
      await reader.getByRole('table', { name: 'Input fields' }).getByRole('row', { name: /^text/ }).waitFor();
      for (const name of [
        'Edit settings',
        'Add input field',
        'Add output field',
        'Edit input field text',
        'Delete input field text',
        'Edit output field answer',
        'Delete output field answer',
        'Delete',
        'Delete for good…',
        'New prompt',
      ]) {
        await expectBlocked(name);
      }
      expect(await accessibilityViolations(reader)).toEqual([]);

      await reader.getByRole('link', { name: '← Endpoints' }).click();
      await reader.getByRole('link', { name: 'Deleted endpoints' }).click();
      await reader.getByRole('row', { name: /Read me deleted/ }).waitFor();
      await expectBlocked('Restore Read me deleted');
      await expectBlocked('Delete for good: Read me deleted');
      expect(await accessibilityViolations(reader)).toEqual([]);
    });
  });
});
