import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { auth } from '../support/seed';
import { expectAccessible, expectReadOnlyBlocked, goTo, screenshot, signIn, useDashboard } from './support/dashboard';

/**
 * Score configs declared on their settings page, then an execution (made with an endpoint key, outside the browser)
 * scored by its application through the execution API and annotated by a reviewer in its log detail.
 */
describe('Dashboard: feedback scores', () => {
  const h = useDashboard({ setUp: () => seed() });
  let logId = '';
  let requestId = '';

  async function seed(): Promise<void> {
    const endpoint = await h.createEndpoint({ name: 'Answer', inputs: [{ name: 'text', dataType: 'string' }] });
    await h.createPrompt(endpoint.id, { name: 'Plain', template: 'Answer: {{ inputs.text }}', llmModel: 'mock-echo' });
    const response = await h.t.http
      .post(endpoint.path)
      .set('x-api-key', h.tenant.endpointKey)
      .send({ text: 'hi' })
      .expect(200);
    requestId = response.headers['x-request-id'];
    await h.t.app.get(ExecutionLogsService).flush();
    const logs = await h.t.http.get(`/admin/v1/logs?requestId=${requestId}`).set(h.admin()).expect(200);
    logId = logs.body.data.items[0].id;
  }

  const page = () => h.page;
  const configRow = (name: string) => page().locator(`tr[data-score-config="${name}"]`);
  const form = (name: string) => page().getByRole('form', { name });
  const status = (text: string) => page().getByRole('status').getByText(text).waitFor();

  async function createConfig(values: { name: string; type: string; fill?: Record<string, string> }) {
    await page().getByRole('button', { name: 'New score config' }).click();
    const newForm = form('New score config');
    await newForm.getByLabel('Name').fill(values.name);
    await newForm.getByLabel('Data type').selectOption(values.type);
    for (const [label, value] of Object.entries(values.fill ?? {})) await newForm.getByLabel(label).fill(value);
    await newForm.getByRole('button', { name: 'Create score config' }).click();
    return newForm;
  }

  it('declares boolean, numeric and categorical score configs, edits one, and explains what the service refuses', async () => {
    await h.signIn(h.tenant.admin, '/settings/score-configs');
    await page().getByRole('heading', { level: 1, name: 'Score configs' }).waitFor();
    await page().getByText('No score configs yet.').waitFor();

    await createConfig({ name: 'helpful', type: 'boolean', fill: { Description: 'Did the answer help?' } });
    await status('Created the score config helpful.');
    await expect(configRow('helpful').innerText()).resolves.toMatch(/helpful\s+Boolean\s+true or false\s+Did the/);

    // The bounds are checked before anything is sent.
    const stars = await createConfig({ name: 'stars', type: 'numeric', fill: { Minimum: '5', Maximum: '1' } });
    await stars.getByText('The maximum must be greater than the minimum.').waitFor();
    await stars.getByLabel('Minimum').fill('1');
    await stars.getByLabel('Maximum').fill('5');
    await stars.getByRole('button', { name: 'Create score config' }).click();
    await status('Created the score config stars.');
    await expect(configRow('stars').innerText()).resolves.toMatch(/stars\s+Numeric\s+1 to 5/);

    await createConfig({ name: 'tone', type: 'categorical', fill: { Categories: 'good\nbad\nneutral' } });
    await status('Created the score config tone.');
    await expect(configRow('tone').innerText()).resolves.toMatch(/tone\s+Categorical\s+good, bad or neutral/);

    // A name taken: the service's answer, at the form.
    const taken = await createConfig({ name: 'helpful', type: 'boolean' });
    await expect(taken.getByRole('alert').innerText()).resolves.toMatch(/already exists/);
    await taken.getByRole('button', { name: 'Cancel' }).click();

    await configRow('stars').getByRole('button', { name: 'Edit stars' }).click();
    const edit = form('Edit the score config stars');
    await expect(edit.getByLabel('Maximum').inputValue()).resolves.toBe('5');
    await edit.getByLabel('Maximum').fill('10');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await status('Saved the score config stars.');
    // The list follows once it is read again.
    await configRow('stars').getByText('1 to 10').waitFor();
    await screenshot(page(), 'score-configs');
    await expectAccessible(page(), { keyboard: true });

    // A config a score uses cannot be deleted: the dialog says why and the config stays.
    await h.t.http
      .post(`/admin/v1/logs/${logId}/scores`)
      .set(h.admin())
      .send({ name: 'tone', value: 'bad' })
      .expect(201);
    await configRow('tone').getByRole('button', { name: 'Delete tone' }).click();
    const dialog = page().getByRole('dialog', { name: 'Delete the score config “tone”?' });
    await dialog.getByRole('button', { name: 'Delete score config' }).click();
    await expect(dialog.getByRole('alert').innerText()).resolves.toContain(
      "Score config 'tone' is used by recorded scores",
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await configRow('tone').waitFor();

    await configRow('helpful').getByRole('button', { name: 'Delete helpful' }).click();
    await page()
      .getByRole('dialog', { name: 'Delete the score config “helpful”?' })
      .getByRole('button', { name: 'Delete score config' })
      .click();
    await status('Deleted the score config helpful.');
    await configRow('helpful').waitFor({ state: 'detached' });
  });

  it('shows a call’s scores and lets a ReadWrite key annotate it with the input its config’s type takes', async () => {
    // The application's own score, through the execution API with the key that made the call.
    await h.t.http
      .post('/api/v1/_scores')
      .set(auth(h.tenant.endpointKey))
      .send({ requestId, name: 'stars', value: 4, comment: 'Good enough' })
      .expect(201);

    await goTo(page(), `/logs/${logId}`);
    const scores = page().getByRole('region', { name: 'Scores' });
    const scoreRow = (name: string) => scores.locator(`tr[data-score="${name}"]`);
    await scoreRow('stars').waitFor();
    await expect(scoreRow('stars').innerText()).resolves.toMatch(/stars\s+4\s+Application \(API\)\s+Good enough\s+\S/);
    await expect(scoreRow('tone').innerText()).resolves.toMatch(/tone\s+bad\s+Annotation/);

    // A numeric score: a number within its bounds; a value out of them is explained, not sent.
    const annotate = scores.getByRole('form', { name: 'Add a score' });
    await annotate.getByLabel('Score').selectOption('stars');
    await expect(annotate.getByRole('button', { name: 'Replace score' }).isDisabled()).resolves.toBe(true);
    await annotate.getByLabel('Value').fill('11');
    await annotate.getByRole('button', { name: 'Replace score' }).click();
    await annotate.getByText('The value must be from 1 to 10.').waitFor();
    await annotate.getByLabel('Value').fill('9');
    await annotate.getByLabel('Comment').fill('Checked by hand');
    await annotate.getByRole('button', { name: 'Replace score' }).click();
    await annotate.getByText('Replaced the score stars: 9.').waitFor();
    // The list follows once the call's scores are read again.
    await scoreRow('stars').getByText('Checked by hand').waitFor();
    await expect(scoreRow('stars').innerText()).resolves.toMatch(/stars\s+9\s+Annotation\s+Checked by hand/);

    // A categorical score: one of its categories.
    await annotate.getByLabel('Score').selectOption('tone');
    expect(await annotate.getByLabel('Value').locator('option').allInnerTexts()).toEqual([
      'Choose a category',
      'good',
      'bad',
      'neutral',
    ]);
    await annotate.getByLabel('Value').selectOption('good');
    await annotate.getByRole('button', { name: 'Replace score' }).click();
    await annotate.getByText('Replaced the score tone: good.').waitFor();
    await scoreRow('tone').getByText('good', { exact: true }).waitFor();
    await expect(scoreRow('tone').innerText()).resolves.toMatch(/tone\s+good\s+Annotation/);

    // A boolean score, new on this call: true or false.
    await createHelpful();
    await page().reload();
    await annotate.getByLabel('Score').selectOption('helpful');
    await annotate.getByLabel('true', { exact: true }).check();
    await annotate.getByRole('button', { name: 'Add score' }).click();
    await annotate.getByText('Added the score helpful: true.').waitFor();
    await expect(scoreRow('helpful').innerText()).resolves.toMatch(/helpful\s+true\s+Annotation/);
    const stored = await h.t.http.get(`/admin/v1/logs/${logId}`).set(h.admin()).expect(200);
    expect(stored.body.data.scores).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'helpful', value: true, source: 'annotation' }),
        expect.objectContaining({ name: 'stars', value: 9, comment: 'Checked by hand', source: 'annotation' }),
      ]),
    );
    await screenshot(page(), 'log-scores');
    await expectAccessible(page(), { keyboard: true });
  });

  it('shows a ReadOnly key the scores with the annotation disabled, saying why', async () => {
    await h.withPage(async (readOnlyPage) => {
      await signIn(readOnlyPage, h.baseUrl, h.tenant.readOnly, `/logs/${logId}`);
      const scores = readOnlyPage.getByRole('region', { name: 'Scores' });
      await scores.locator('tr[data-score="stars"]').waitFor();
      const annotate = scores.getByRole('form', { name: 'Add a score' });
      await annotate.getByLabel('Score').selectOption('stars');
      await expectReadOnlyBlocked(annotate.getByRole('button', { name: 'Replace score' }));
    });
  });

  async function createHelpful(): Promise<void> {
    await h.t.http
      .post('/admin/v1/score-configs')
      .set(h.admin())
      .send({ name: 'helpful', dataType: 'boolean' })
      .expect(201);
  }
});
