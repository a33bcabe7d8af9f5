import type { Page } from 'playwright-core';
import { expectAccessible, goTo, useDashboard } from './support/dashboard';

/**
 * A prompt's history on its versions page (what happened, when, by which key), and saving a Live prompt: the save
 * says the new version is served at once and to what share of the traffic, and offers to save it as a new Draft.
 */
describe('Dashboard: prompt history and saving a Live prompt', () => {
  const h = useDashboard({ setUp: (h) => h.signIn(h.tenant.admin) });
  let page: Page;
  beforeAll(() => (page = h.page));

  const api = {
    get: (path: string) => h.t.http.get(`/admin/v1${path}`).set(h.admin()),
    put: (path: string, body: object) => h.t.http.put(`/admin/v1${path}`).set(h.admin()).send(body),
    post: (path: string, body: object = {}) => h.t.http.post(`/admin/v1${path}`).set(h.admin()).send(body),
  };

  /** Replaces the whole template, as pasting it would. */
  async function setTemplate(text: string) {
    await page.getByRole('textbox', { name: 'Template' }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(text);
  }

  const textEndpoint = () => h.createEndpoint({ inputs: [{ name: 'text', dataType: 'string', isRequired: true }] });

  it("lists what happened to the prompt on its versions page, newest first, with the key's name", async () => {
    const endpoint = await textEndpoint();
    const prompt = await h.createPrompt(endpoint.id, { name: 'Digest', template: 'Digest {{ inputs.text }}' }, 'Draft');
    expect((await api.put(`/prompts/${prompt.id}`, { template: 'Digest briefly {{ inputs.text }}' })).status).toBe(200);
    expect((await api.post(`/prompts/${prompt.id}/promote`)).status).toBe(200);
    expect((await api.post(`/prompts/${prompt.id}/set-default`)).status).toBe(200);

    await goTo(page, `/endpoints/${endpoint.id}/prompts/${prompt.id}/versions`);
    await page.getByRole('heading', { level: 1, name: 'Versions of Digest' }).waitFor();
    const events = page.getByRole('list', { name: 'Events, newest first' });
    await events.waitFor();
    const lines = (await events.getByRole('listitem').allInnerTexts()).map((line) => line.replace(/\s+/g, ' '));
    expect(lines).toEqual([
      expect.stringMatching(/^Set v2 as the endpoint's default · .+ · by key admin$/),
      expect.stringMatching(/^Promoted v2 · .+ · by key admin$/),
      expect.stringMatching(/^Saved v2 · .+ · by key admin$/),
      expect.stringMatching(/^Created v1 · .+ · by key admin$/),
    ]);
    const firstTime = events.locator('time').first();
    const latest = (await api.get(`/prompts/${prompt.id}/events?pageSize=1`)).body.data.items[0];
    expect(await firstTime.getAttribute('datetime')).toBe(latest.createdAt);
    await expectAccessible(page);
  });

  it('warns that a Live prompt in a split serves a save at once to its share, and saves the change as a new Draft instead', async () => {
    const endpoint = await textEndpoint();
    const main = await h.createPrompt(endpoint.id, { name: 'Main', template: 'Main {{ inputs.text }}' }, 'default');
    const trial = await h.createPrompt(endpoint.id, { name: 'Trial', template: 'Trial {{ inputs.text }}' }, 'Live');
    const split = {
      variants: [
        { promptId: main.id, weight: 70 },
        { promptId: trial.id, weight: 30 },
      ],
      stickyBy: 'key',
    };
    expect((await api.put(`/endpoints/${endpoint.id}`, { trafficSplit: split })).status).toBe(200);

    await goTo(page, `/endpoints/${endpoint.id}/prompts/${trial.id}`);
    await page.getByRole('heading', { level: 1, name: 'Trial' }).waitFor();
    await setTemplate('Trial, shorter: {{ inputs.text }}');
    await page.getByRole('button', { name: 'Review and save' }).click();
    const warning = page.getByRole('note').filter({ hasText: 'This prompt is Live' });
    await warning.waitFor();
    expect(await warning.textContent()).toContain(
      "as soon as you save, the new version answers 30 % of the endpoint's traffic, and every call that pins it with ?prompt=trial.",
    );
    await page.getByRole('button', { name: 'Save as version 2 (live now)' }).waitFor();
    await expectAccessible(page);

    await page.getByLabel('Change note').fill('Shorter, tried first');
    await page.getByRole('button', { name: 'Save as a new Draft' }).click();
    await page.getByRole('heading', { level: 1, name: 'Trial (copy)' }).waitFor();
    await page.locator('.prompt-status').getByText('Version 2').waitFor();
    await page.locator('.prompt-status').getByText('Draft', { exact: true }).waitFor();

    // The Live prompt is unchanged; the copy holds the change as its version 2, with the note.
    expect((await api.get(`/prompts/${trial.id}`)).body.data).toMatchObject({
      currentVersion: 1,
      template: 'Trial {{ inputs.text }}',
      status: 'Live',
    });
    const copyId = page.url().split('/prompts/')[1];
    expect((await api.get(`/prompts/${copyId}`)).body.data).toMatchObject({
      name: 'Trial (copy)',
      status: 'Draft',
      currentVersion: 2,
      template: 'Trial, shorter: {{ inputs.text }}',
      changeNotes: 'Shorter, tried first',
    });
  });

  it('says the default without a split serves a save to all its traffic, and saves it live when asked', async () => {
    const endpoint = await textEndpoint();
    const prompt = await h.createPrompt(endpoint.id, { name: 'Only', template: 'Only {{ inputs.text }}' }, 'default');
    await goTo(page, `/endpoints/${endpoint.id}/prompts/${prompt.id}`);
    await page.getByRole('heading', { level: 1, name: 'Only' }).waitFor();
    await setTemplate('Only, again: {{ inputs.text }}');
    await page.getByRole('button', { name: 'Review and save' }).click();
    const warning = page.getByRole('note').filter({ hasText: 'This prompt is Live' });
    expect(await warning.textContent()).toContain("the new version answers 100 % of the endpoint's traffic");
    await page.getByRole('button', { name: 'Save as version 2 (live now)' }).click();
    await page.getByText('Saved as version 2.').first().waitFor();
    expect(await page.getByRole('note').filter({ hasText: 'This prompt is Live' }).count()).toBe(0);
    const [saved] = (await api.get(`/prompts/${prompt.id}/events?pageSize=1`)).body.data.items;
    expect(saved).toMatchObject({ type: 'saved', versionNumber: 2, details: { status: 'Live', trafficShare: 100 } });
  });
});
