import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { accessibilityViolations, expectAccessible, goTo, screenshot, useDashboard } from './support/dashboard';

/**
 * Calls made with an endpoint key, outside the browser (a success, its cache hit, a provider failure, an input the
 * endpoint refuses, and a call of a second endpoint), then found in Logs and Stats.
 */
describe('Dashboard: Logs and Stats', () => {
  const h = useDashboard({ setUp: () => seed() });
  let summarize: { id: string; path: string };
  let echo: { id: string; path: string };
  let summarizePrompt: { id: string; name: string };
  /** X-Request-Id of each call. */
  const requestIds = { success: '', cached: '', upstream: '', invalid: '', echo: '' };

  const execute = async (path: string, body: object, status: number) => {
    const response = await h.t.http.post(path).set('x-api-key', h.tenant.endpointKey).send(body);
    expect(response.status).toBe(status);
    return response.headers['x-request-id'];
  };
  /** Waits until `check` holds (the page updates after its request answers). */
  const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${check.toString()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const rows = () => h.page.locator('table.log-table tbody tr');
  const total = (term: string) => h.page.locator(`.stats-totals dt:text-is("${term}") + dd`);

  async function seed(): Promise<void> {
    summarize = await h.createEndpoint({
      name: 'Summarize',
      cacheEnabled: true,
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    summarizePrompt = await h.createPrompt(summarize.id, {
      name: 'Short summary',
      template: 'Summarize: {{ inputs.text }}',
      llmModel: 'gpt-4o-mini',
    });
    echo = await h.createEndpoint({ name: 'Echo', inputs: [{ name: 'name', dataType: 'string' }] });
    await h.createPrompt(echo.id, {
      name: 'Greeting',
      template: 'Hello {{ inputs.name }}',
      llmModel: 'mock-echo',
    });

    h.fake.reply({ text: 'A short summary.', inputTokens: 1000, outputTokens: 200 });
    requestIds.success = await execute(summarize.path, { text: 'hello world' }, 200);
    requestIds.cached = await execute(summarize.path, { text: 'hello world' }, 200);
    h.fake.reply({ status: 500, message: 'The provider broke' });
    requestIds.upstream = await execute(summarize.path, { text: 'this one fails' }, 502);
    requestIds.invalid = await execute(summarize.path, {}, 400);
    requestIds.echo = await execute(echo.path, { name: 'Ada' }, 200);
    await h.t.app.get(ExecutionLogsService).flush();
  }

  it('lists every call with its endpoint, prompt, status, error code, tokens, cost and cache hit, and counts them', async () => {
    await h.signIn(h.tenant.admin, '/logs');
    await h.page.getByRole('heading', { level: 1, name: 'Logs' }).waitFor();
    await h.page.getByRole('status').getByText('5 calls').waitFor();
    await expect(rows().count()).resolves.toBe(5);

    const success = h.page.locator(`tr[data-request-id="${requestIds.success}"]`);
    // The prompt's name replaces its short id once the prompts' names have loaded.
    await success.getByText('Short summary @ v1').waitFor();
    await expect(success.innerText()).resolves.toMatch(/Summarize\s+Short summary @ v1\s+API\s+success 200/);
    await expect(success.innerText()).resolves.toMatch(/1.?000 \/ 200/);
    await expect(h.page.locator(`tr[data-request-id="${requestIds.cached}"]`).innerText()).resolves.toContain(
      'cache hit',
    );
    await expect(h.page.locator(`tr[data-request-id="${requestIds.upstream}"]`).innerText()).resolves.toMatch(
      /error 502\s+upstream_error/,
    );
    await expect(h.page.locator(`tr[data-request-id="${requestIds.invalid}"]`).innerText()).resolves.toMatch(
      /error 400\s+validation_error/,
    );
    await expect(h.page.locator(`tr[data-request-id="${requestIds.echo}"]`).innerText()).resolves.toMatch(
      /Echo\s+Greeting @ v1/,
    );

    await screenshot(h.page, 'logs');
    await expectAccessible(h.page, { keyboard: true });
  });

  it('filters by status in one request kept in the URL: a reload keeps the filter', async () => {
    await goTo(h.page, '/logs');
    await h.page.getByRole('status').getByText('5 calls').waitFor();
    await h.page.getByLabel('Status').selectOption('error');
    await h.page.getByRole('status').getByText('2 calls').waitFor();
    await expect(rows().count()).resolves.toBe(2);
    for (const text of await rows().allInnerTexts()) expect(text).toMatch(/error (502|400)/);
    expect(h.page.url()).toContain('#/logs?status=error');

    await h.page.reload();
    await h.page.getByRole('status').getByText('2 calls').waitFor();
    await expect(h.page.getByLabel('Status').inputValue()).resolves.toBe('error');
    await expect(rows().count()).resolves.toBe(2);
  });

  it('combines the endpoint and prompt filters; the prompt list is the chosen endpoint’s', async () => {
    await goTo(h.page, '/logs');
    await h.page.getByRole('status').getByText('5 calls').waitFor();
    await expect(h.page.getByLabel('Prompt').isDisabled()).resolves.toBe(true);
    await h.page.getByLabel('Endpoint').selectOption({ label: 'Summarize' });
    await h.page.getByRole('status').getByText('4 calls').waitFor();
    await h.page.getByLabel('Prompt').locator('option', { hasText: 'Short summary' }).waitFor({ state: 'attached' });
    await expect(h.page.getByLabel('Prompt').locator('option', { hasText: 'Greeting' }).count()).resolves.toBe(0);
    await h.page.getByLabel('Prompt').selectOption(summarizePrompt.id);
    await h.page.getByLabel('Status').selectOption('success');
    await h.page.getByRole('status').getByText('2 calls').waitFor();
    const url = decodeURIComponent(h.page.url());
    expect(url).toContain(`endpointId=${summarize.id}`);
    expect(url).toContain(`promptId=${summarizePrompt.id}`);
    expect(url).toContain('status=success');

    await h.page.getByLabel('Endpoint').selectOption({ label: 'Echo' });
    await h.page.getByRole('status').getByText('1 call').waitFor();
    await expect(rows().first().innerText()).resolves.toContain('Greeting');
    expect(h.page.url()).not.toContain('promptId=');

    // A range that ends before the calls finds none.
    await h.page.getByRole('button', { name: 'Clear filters' }).click();
    await h.page.getByRole('status').getByText('5 calls').waitFor();
    await h.page.getByLabel('To').fill('2020-01-01T00:00');
    await h.page.getByText('No call matches these filters.').waitFor();
    expect(h.page.url()).toContain('to=');
  });

  it('finds a call by its X-Request-Id and shows its inputs, rendered prompt, raw response, tokens, cost and latency', async () => {
    await goTo(h.page, '/logs');
    await h.page.getByRole('status').getByText('5 calls').waitFor();
    await h.page.getByLabel('Request id').fill(requestIds.success);
    await h.page.getByRole('button', { name: 'Find' }).click();
    await h.page.getByRole('heading', { level: 1, name: /^Call of / }).waitFor();

    await expect(h.page.getByTestId('request-id').innerText()).resolves.toBe(requestIds.success);
    const section = (name: string) => h.page.getByRole('region', { name });
    await expect(section('Inputs').innerText()).resolves.toContain('"text": "hello world"');
    await expect(section('Rendered prompt').innerText()).resolves.toContain('Summarize: hello world');
    // One user message of the whole text: nothing more to show than the rendered prompt.
    await expect(section('Messages').count()).resolves.toBe(0);
    await expect(section('Raw LLM response').innerText()).resolves.toContain('A short summary.');
    await expect(section('Parsed output').innerText()).resolves.toContain('A short summary.');
    // The prompt's name replaces its id once the prompt has loaded.
    await h.page.locator('.log-facts').getByRole('link', { name: 'Short summary' }).waitFor();
    const facts = await h.page.locator('.log-facts').innerText();
    expect(facts).toMatch(/Tokens in \/ out\s+1.?000 \/ 200/);
    expect(facts).toMatch(/Cost\s+\$\d/);
    expect(facts).toMatch(/Latency\s+\d+ ms/);
    expect(facts).toMatch(/Streamed\s+No/);
    expect(facts).toMatch(/Finish reason\s+stop/);
    expect(facts).toMatch(/Model\s+gpt-4o-mini/);
    expect(facts).toMatch(/Prompt and version\s+Short summary @ v1/);

    // Run again opens the runner on this endpoint and prompt with the same inputs.
    const runAgain = await h.page.getByRole('link', { name: 'Run again' }).getAttribute('href');
    const [path, query] = (runAgain ?? '').split('?');
    expect(path).toBe(`#/endpoints/${summarize.id}/run`);
    const params = new URLSearchParams(query);
    expect(params.get('prompt')).toBe(summarizePrompt.id);
    expect(JSON.parse(params.get('inputs') ?? 'null')).toEqual({ text: 'hello world' });

    expect(await accessibilityViolations(h.page)).toEqual([]);
    await screenshot(h.page, 'log-detail');
  });

  it('opens a failed call from the table and shows its error', async () => {
    await goTo(h.page, '/logs?status=error');
    await h.page.getByRole('status').getByText('2 calls').waitFor();
    await h.page.locator(`tr[data-request-id="${requestIds.upstream}"] a`).click();
    await h.page.getByRole('heading', { level: 1, name: /^Call of / }).waitFor();
    // The log keeps the service's own words for a provider's refusal; the provider's text goes to the service log only.
    const error = await h.page.getByRole('region', { name: 'Error' }).innerText();
    expect(error).toContain("the provider 'openai' refused the call: server error (500)");
    expect(error).not.toContain('The provider broke');
    await expect(h.page.locator('.log-facts').innerText()).resolves.toMatch(/Error code\s+upstream_error/);
    await expect(h.page.getByTestId('request-id').innerText()).resolves.toBe(requestIds.upstream);
  });

  it('shows the tenant’s stats: totals with errors by code beside the charts, by day and by hour', async () => {
    await goTo(h.page, '/stats');
    await h.page.getByRole('heading', { level: 1, name: 'Stats' }).waitFor();
    await h.page.getByRole('heading', { name: 'Totals' }).waitFor();
    await expect(total('Calls').innerText()).resolves.toBe('5');
    await expect(total('Errors').innerText()).resolves.toBe('2');
    await expect(total('Error rate').innerText()).resolves.toBe('40 %');
    await expect(total('Cache-hit rate').innerText()).resolves.toBe('20 %');
    const api = (await h.t.http.get('/admin/v1/stats').set('x-api-key', h.tenant.admin).expect(200)).body.data.totals;
    const digits = async (term: string) => (await total(term).innerText()).replace(/\D/g, '');
    await expect(digits('Tokens in')).resolves.toBe(String(api.inputTokens));
    await expect(digits('Tokens out')).resolves.toBe(String(api.outputTokens));
    const codes = await h.page.locator('.error-codes tbody').innerText();
    expect(codes).toMatch(/upstream_error\s+1/);
    expect(codes).toMatch(/validation_error\s+1/);
    await h.page.locator('.chart-canvas canvas').first().waitFor();
    await expect(h.page.locator('.chart-canvas canvas').count()).resolves.toBe(5);
    // Each chart has a text alternative.
    const summary = await h.page
      .getByRole('img', { name: /^Calls, errors by code and cache hits per day/ })
      .getAttribute('aria-label');
    expect(summary).toContain('Calls: 5 in total');
    expect(summary).toContain('Errors: upstream_error: 1 in total');
    // The rates per bucket: all five calls fall in today's bucket.
    const rates = await h.page
      .getByRole('img', { name: /^Cache-hit and error rates per day/ })
      .getAttribute('aria-label');
    expect(rates).toContain('Cache-hit rate: highest 20 %');
    expect(rates).toContain('Error rate: highest 40 %');
    expect(await accessibilityViolations(h.page)).toEqual([]);
    await screenshot(h.page, 'stats');

    await h.page.getByLabel('By hour').check();
    await h.page
      .getByRole('img', { name: /per hour/ })
      .first()
      .waitFor();
    expect(h.page.url()).toContain('interval=hour');
    await expect(total('Calls').innerText()).resolves.toBe('5');
    await expect(h.page.locator('.chart-canvas canvas').count()).resolves.toBe(5);
  });

  it('shows one endpoint’s stats, and an empty state for a period without calls', async () => {
    await goTo(h.page, '/stats');
    await h.page.getByRole('heading', { name: 'Totals' }).waitFor();
    await h.page.getByLabel('Endpoint').selectOption({ label: 'Echo' });
    await until(() => h.page.url().includes(`endpointId=${echo.id}`));
    await until(async () => (await total('Calls').innerText()) === '1');
    await expect(total('Errors').innerText()).resolves.toBe('0');
    await h.page.locator('.stats-totals').getByText('No errors.').waitFor();
    await expect(h.page.locator('.chart-canvas canvas').count()).resolves.toBe(5);
    expect(await h.page.getByRole('img', { name: /^Calls, errors by code/ }).getAttribute('aria-label')).toContain(
      'Calls: 1 in total',
    );

    await h.page.getByLabel('By hour').check();
    await until(() => h.page.url().includes('interval=hour'));
    await h.page
      .getByRole('img', { name: /per hour/ })
      .first()
      .waitFor();
    await expect(total('Calls').innerText()).resolves.toBe('1');

    await goTo(h.page, `/stats?endpointId=${echo.id}&from=2020-01-01T00:00:00.000Z&to=2020-01-02T00:00:00.000Z`);
    await h.page.getByRole('heading', { name: 'No calls in this period' }).waitFor();
    await expect(total('Calls').innerText()).resolves.toBe('0');
    await expect(h.page.locator('.chart-canvas canvas').count()).resolves.toBe(0);
  });

  it('shows the messages of a chat template beside its rendered prompt', async () => {
    const chat = await h.createEndpoint({ name: 'Chat', inputs: [{ name: 'question', dataType: 'string' }] });
    await h.createPrompt(chat.id, {
      name: 'Few-shot',
      template:
        '{% system %}Answer in one word.{% endsystem %}{% user %}Sky?{% enduser %}' +
        '{% assistant %}Blue{% endassistant %}{% user %}{{ inputs.question }}{% enduser %}',
      llmModel: 'mock-echo',
    });
    const requestId = await execute(chat.path, { question: 'Grass?' }, 200);
    await h.t.app.get(ExecutionLogsService).flush();
    const [row] = (await h.t.http.get(`/admin/v1/logs?requestId=${requestId}`).set('x-api-key', h.tenant.admin)).body
      .data.items;
    await goTo(h.page, `/logs/${row.id}`);
    const messages = h.page.getByRole('region', { name: 'Messages' });
    await messages.waitFor();
    const text = await messages.innerText();
    expect(text).toMatch(/1\. system[\s\S]*Answer in one word\./);
    expect(text).toMatch(/3\. assistant[\s\S]*Blue/);
    expect(text).toMatch(/4\. user[\s\S]*Grass\?/);
    await expectAccessible(h.page);
  });
});
