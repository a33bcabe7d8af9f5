import type { Page } from 'playwright-core';
import { expectAccessible, expectReadOnlyBlocked, goTo, useDashboard } from './support/dashboard';

/**
 * A prompt's history on its versions page (what happened, when, by which key, and when it served traffic at what
 * share), and saving a Live prompt: the save says the new version is served at once and to what share of the traffic,
 * and offers to save it as a new Draft.
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
      // The newest event of a past version offers to roll back to it.
      expect.stringMatching(/^Created v1 · .+ · by key admin Roll back to v1$/),
    ]);
    const firstTime = events.locator('time').first();
    const latest = (await api.get(`/prompts/${prompt.id}/events?pageSize=1`)).body.data.items[0];
    expect(await firstTime.getAttribute('datetime')).toBe(latest.createdAt);
    await expectAccessible(page);
  });

  it('rolls back to a past version from the history: restored, promoted and made the default in one step, and says so', async () => {
    const endpoint = await textEndpoint();
    const steady = await h.createPrompt(
      endpoint.id,
      { name: 'Steady', template: 'Steady {{ inputs.text }}' },
      'default',
    );
    expect((await api.put(`/prompts/${steady.id}`, { template: 'Steady, worse {{ inputs.text }}' })).status).toBe(200);
    const versionsRoute = `/endpoints/${endpoint.id}/prompts/${steady.id}/versions`;
    await goTo(page, versionsRoute);
    await page.getByRole('heading', { level: 1, name: 'Versions of Steady' }).waitFor();
    const events = page.getByRole('list', { name: 'Events, newest first' });
    // Only a past version offers it (on its newest event), not the current version 2.
    await events.getByRole('button', { name: 'Roll back to v1' }).waitFor();
    expect(await events.getByRole('button', { name: /Roll back/ }).allInnerTexts()).toEqual(['Roll back to v1']);
    await events
      .getByRole('listitem')
      .filter({ hasText: "Set v1 as the endpoint's default" })
      .getByRole('button', { name: 'Roll back to v1' })
      .click();

    const dialog = page.getByRole('dialog', { name: 'Roll back Steady to version 1?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("A new prompt, Steady (v1), is made from version 1's template");
    const promote = dialog.getByRole('checkbox', { name: 'Promote the new prompt to Live' });
    const makeDefault = dialog.getByRole('checkbox', { name: "Make it the endpoint's default in place of Steady" });
    expect(await promote.isChecked()).toBe(true);
    expect(await makeDefault.isChecked()).toBe(true);
    await dialog.getByText('Steady stays Live, no longer the default.', { exact: false }).waitFor();
    await expectAccessible(page);
    // Without the promotion, the new prompt stays a Draft and cannot be the default.
    await promote.uncheck();
    expect(await makeDefault.isDisabled()).toBe(true);
    await dialog.getByText('The new prompt stays a Draft').waitFor();
    await promote.check();
    await dialog.getByRole('button', { name: 'Roll back' }).click();

    const result = page.getByRole('status').filter({ hasText: 'Rolled back' });
    await result.waitFor();
    expect((await result.textContent())?.replace(/\s+/g, ' ')).toBe(
      "Rolled back: Steady (v1) holds version 1's content and is Live and the endpoint's default.",
    );
    expect(await dialog.isVisible()).toBe(false);
    const restoredId = (await result.getByRole('link', { name: 'Steady (v1)' }).getAttribute('href'))!
      .split('/')
      .pop()!;
    expect((await api.get(`/endpoints/${endpoint.id}`)).body.data.defaultPromptId).toBe(restoredId);
    expect((await api.get(`/prompts/${restoredId}`)).body.data).toMatchObject({
      status: 'Live',
      template: 'Steady {{ inputs.text }}',
    });
    // The page shows Steady as it now is: Live, no longer the default.
    await page.waitForFunction(() => !document.querySelector('.prompt-state')?.textContent?.includes('Default'));
    expect((await api.get(`/prompts/${steady.id}`)).body.data).toMatchObject({ status: 'Live', isDefault: false });

    // A ReadOnly key sees the control disabled, with the reason.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await h.signIn(h.tenant.readOnly, versionsRoute);
    await page.getByRole('heading', { level: 1, name: 'Versions of Steady' }).waitFor();
    await expectReadOnlyBlocked(page.getByRole('button', { name: 'Roll back to v1' }));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await h.signIn(h.tenant.admin);
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

  it('shows when each prompt served traffic and at what share, after a promotion, a split and a demotion, with the key', async () => {
    const endpoint = await textEndpoint();
    const main = await h.createPrompt(endpoint.id, { name: 'Main', template: 'Main {{ inputs.text }}' }, 'default');
    const trial = await h.createPrompt(endpoint.id, { name: 'Trial', template: 'Trial {{ inputs.text }}' }, 'Draft');
    const releaser = await api.post('/keys', { name: 'release manager', type: 'admin', permission: 'ReadWrite' });
    expect(releaser.status).toBe(201);
    await page.getByRole('button', { name: 'Sign out' }).click();
    try {
      await h.signIn(releaser.body.data.key, `/endpoints/${endpoint.id}/prompts/${trial.id}`);
      await page.getByRole('heading', { level: 1, name: 'Trial' }).waitFor();
      const actions = page.getByRole('group', { name: 'Lifecycle' });
      await actions.getByRole('button', { name: 'Promote to Live' }).click();
      await page.getByText('Promoted: the prompt is Live.').waitFor();

      // Half of the calls to each, then no split again: a prompt of the split cannot be demoted.
      await goTo(page, `/endpoints/${endpoint.id}`);
      const panel = page.getByRole('region', { name: 'Traffic split' });
      await panel.getByRole('button', { name: 'Split traffic' }).click();
      const form = panel.getByRole('form', { name: 'Traffic split' });
      await form.getByLabel('Weight of variant 1').fill('50');
      await form.getByLabel('Weight of variant 2').fill('50');
      await form.getByRole('button', { name: 'Save split' }).click();
      await panel.getByRole('table', { name: 'Traffic split and figures per prompt' }).waitFor();
      await panel.getByRole('button', { name: 'Remove split' }).click();
      await panel.getByText('No split: the default prompt answers every call').waitFor();

      await goTo(page, `/endpoints/${endpoint.id}/prompts/${trial.id}`);
      await actions.getByRole('button', { name: 'Demote to Draft' }).click();
      await page.getByText('Demoted: the prompt is a Draft again.').waitFor();

      // The endpoint's history, oldest first: what the page reads the times from.
      const history = (await api.get(`/endpoints/${endpoint.id}/events?pageSize=50`)).body.data.items.reverse();
      const timeOf = (type: string, promptId: string | null, nth = 0) =>
        history.filter(
          (event: { type: string; promptId: string | null }) => event.type === type && event.promptId === promptId,
        )[nth].createdAt as string;
      const [promoted, splitSet, splitRemoved, demoted] = [
        timeOf('promoted', trial.id),
        timeOf('split_changed', null, 0),
        timeOf('split_changed', null, 1),
        timeOf('demoted', trial.id),
      ];

      /** The lines of the "When it served traffic" list, and the moments its <time> elements stand for. */
      async function intervalsShown(prompt: { id: string; name: string }) {
        await goTo(page, `/endpoints/${endpoint.id}/prompts/${prompt.id}/versions`);
        await page.getByRole('heading', { level: 1, name: `Versions of ${prompt.name}` }).waitFor();
        const list = page.getByRole('list', { name: 'When it served traffic' });
        await list.waitFor();
        const lines = (await list.getByRole('listitem').allInnerTexts()).map((line) => line.replace(/\s+/g, ' '));
        const times = list.locator('time');
        const moments = await times.evaluateAll((elements) => elements.map((time) => time.getAttribute('datetime')));
        // All of today: each time is shown alone, in the browser's locale.
        const shown = await times.allInnerTexts();
        const expected = await page.evaluate(
          (values) => values.map((value) => new Date(value!).toLocaleTimeString(undefined, { timeStyle: 'short' })),
          moments,
        );
        expect(shown).toEqual(expected);
        return { lines, moments };
      }
      const timeText = (moment: string) =>
        page.evaluate((value) => new Date(value).toLocaleTimeString(undefined, { timeStyle: 'short' }), moment);

      const trialShown = await intervalsShown(trial);
      expect(trialShown.lines).toEqual([
        expect.stringMatching(
          /^v1 · Live from .+ to .+ · 0 % of traffic \(only calls with \?prompt=\) · by key release manager$/,
        ),
        expect.stringMatching(/^v1 · Live from .+ to .+ · 50 % of traffic · by key release manager$/),
        expect.stringMatching(
          /^v1 · Live from .+ to .+ · 0 % of traffic \(only calls with \?prompt=\) · by key release manager$/,
        ),
      ]);
      expect(trialShown.moments).toEqual([splitRemoved, demoted, splitSet, splitRemoved, promoted, splitSet]);
      await expectAccessible(page);

      // The default shared the traffic with it meanwhile, and has all of it again since the split was removed. (Its
      // moment at 0 %, between the fixture's promotion and set-default, is left out.)
      const mainShown = await intervalsShown(main);
      expect(mainShown.lines.slice(0, 3)).toEqual([
        'v1 · Live since ' + (await timeText(splitRemoved)) + ' · 100 % of traffic · by key release manager',
        expect.stringMatching(/^v1 · Live from .+ to .+ · 50 % of traffic · by key release manager$/),
        expect.stringMatching(/^v1 · Live from .+ to .+ · 100 % of traffic · by key admin$/),
      ]);
      expect(mainShown.moments.slice(0, 5)).toEqual([
        splitRemoved,
        splitSet,
        splitRemoved,
        timeOf('default_set', main.id),
        splitSet,
      ]);
      await expectAccessible(page);
    } finally {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await h.signIn(h.tenant.admin);
    }
  });
});
