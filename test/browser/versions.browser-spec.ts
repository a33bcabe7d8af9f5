import { accessibilityViolations, expectAccessible, goTo, screenshot, useDashboard } from './support/dashboard';

const VERSION_1 = ['You are a careful assistant.', 'Summarize: {{ inputs.text }}', 'Answer in one sentence.'].join(
  '\n',
);
const VERSION_2 = [
  'You are a careful assistant.',
  'Summarize in five words: {{ inputs.text }}',
  'Answer in one sentence.',
].join('\n');

describe('Dashboard: versions of a prompt', () => {
  const h = useDashboard({ setUp: () => seed() });
  let endpointId: string;
  let prompt: { id: string; name: string };
  let versionsRoute: string;

  async function seed(): Promise<void> {
    ({ id: endpointId } = await h.createEndpoint({ inputs: [{ name: 'text', dataType: 'string', isRequired: true }] }));
    prompt = await h.createPrompt(endpointId, {
      name: 'Summary',
      template: VERSION_1,
      temperature: 0.7,
    });
    await h.t.http
      .put(`/admin/v1/prompts/${prompt.id}`)
      .set(h.admin())
      .send({ template: VERSION_2, temperature: 0.2, changeNotes: 'Shorter answers' })
      .expect(200);
    versionsRoute = `/endpoints/${endpointId}/prompts/${prompt.id}/versions`;
    await h.signIn(h.tenant.admin, versionsRoute);
  }

  it('shows the history as a timeline: each version with its date, model and changes, the current one marked', async () => {
    await h.page.getByRole('heading', { level: 1, name: 'Versions of Summary' }).waitFor();
    const timeline = h.page.getByRole('list', { name: 'Versions, newest first' });
    const items = timeline.getByRole('article');
    expect(await items.count()).toBe(2);
    const second = timeline.getByRole('article', { name: 'Version 2', exact: true });
    const first = timeline.getByRole('article', { name: 'Version 1', exact: true });
    // Newest first.
    expect(await items.first().getByRole('heading').textContent()).toBe('Version 2');
    await second.getByText('Current version').waitFor();
    expect(await first.getByText('Current version').count()).toBe(0);
    expect(await second.textContent()).toContain('mock-echo');
    expect(await second.getByRole('listitem').allTextContents()).toEqual(['Template changed', 'Temperature 0.7 → 0.2']);
    await second.getByText('Shorter answers').waitFor();
    expect(await first.getByRole('listitem').allTextContents()).toEqual(['First version']);
    // The picker compares the previous version with the latest by default.
    expect(await h.page.getByLabel('From version').inputValue()).toBe('1');
    expect(await h.page.getByLabel('To version').inputValue()).toBe('2');
    expect(await accessibilityViolations(h.page)).toEqual([]);
  });

  it('compares versions 1 and 2: the changed line removed and added, side by side and unified, and the changed setting', async () => {
    await goTo(h.page, versionsRoute);
    await h.page.getByRole('button', { name: 'Compare', exact: true }).click();
    await h.page.getByRole('heading', { level: 1, name: 'Compare versions of Summary' }).waitFor();
    expect(h.page.url()).toContain('compare?from=1&to=2');

    // Side by side (the default): the old line faces the new one, each marked in words and with − / +.
    const split = h.page.getByRole('table', { name: /Side-by-side diff/ });
    await split.waitFor();
    expect(await h.page.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).toBe('true');
    const changedRow = split.getByRole('row').filter({ hasText: 'Summarize: {{ inputs.text }}' });
    expect(await changedRow.getByRole('cell', { name: 'Removed: Summarize: {{ inputs.text }}' }).count()).toBe(1);
    expect(
      await changedRow.getByRole('cell', { name: 'Added: Summarize in five words: {{ inputs.text }}' }).count(),
    ).toBe(1);
    expect(await changedRow.textContent()).toMatch(/−.*Summarize: .*\+.*Summarize in five words/);
    // Within the changed line, the words added are marked <ins> (underlined), not by colour alone; none was removed.
    expect(await changedRow.locator('ins').allTextContents()).toEqual([' in five words']);
    expect(await changedRow.locator('del').count()).toBe(0);
    const unchanged = split.getByRole('row').filter({ hasText: 'Answer in one sentence.' });
    expect(await unchanged.textContent()).not.toMatch(/Added|Removed/);
    await h.page.getByText('1 line removed, 1 line added').waitFor();

    // The changed settings as a table: setting, from, to.
    const settings = h.page.getByRole('table', { name: /Settings that differ/ });
    expect(await settings.getByRole('row').allInnerTexts()).toEqual([
      'Setting\tFrom (Version 1)\tTo (Version 2)',
      'Temperature\t0.7\t0.2',
    ]);
    await expectAccessible(h.page, { keyboard: true });
    await h.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await screenshot(h.page, 'versions-compare');

    // Unified: one column, the removed line then the added one, with both line numbers.
    await h.page.getByRole('button', { name: 'Unified' }).click();
    const unified = h.page.getByRole('table', { name: /Unified diff/ });
    await unified.waitFor();
    expect(h.page.url()).toContain('view=unified');
    const rows = await unified.getByRole('row').allInnerTexts();
    expect(rows.slice(1).map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([
      '1 1 You are a careful assistant.',
      '2 − Removed: Summarize: {{ inputs.text }}',
      '2 + Added: Summarize in five words: {{ inputs.text }}',
      '3 3 Answer in one sentence.',
    ]);
    expect(await unified.getByRole('cell', { name: 'Removed: Summarize: {{ inputs.text }}' }).count()).toBe(1);
    expect(await unified.getByRole('cell', { name: 'Added: Summarize in five words: {{ inputs.text }}' }).count()).toBe(
      1,
    );
    expect(await accessibilityViolations(h.page)).toEqual([]);

    // Swapping the versions in the selects compares them the other way round.
    await h.page.getByLabel('From version').selectOption('2');
    await h.page.getByLabel('To version').selectOption('1');
    await h.page
      .getByRole('table', { name: /Settings that differ between Version 2 and Version 1/ })
      .getByText('0.2')
      .first()
      .waitFor();
  });

  it('compares a version with a version of another prompt of the endpoint, the changed words marked', async () => {
    const formal = await h.createPrompt(endpointId, {
      name: 'Formal',
      template: VERSION_2.replace('careful', 'formal'),
      temperature: 0.9,
    });
    // From the versions page, so the compare page lists the prompts as they are now.
    await goTo(h.page, versionsRoute);
    await h.page.getByRole('heading', { level: 1, name: 'Versions of Summary' }).waitFor();
    await goTo(h.page, `${versionsRoute}/compare?from=2`);
    await h.page.getByRole('heading', { level: 1, name: 'Compare versions of Summary' }).waitFor();
    await h.page.getByLabel('To prompt').selectOption({ label: 'Formal (Live)' });
    await h.page.getByRole('heading', { level: 1, name: 'Compare Summary with Formal' }).waitFor();
    expect(h.page.url()).toContain(`toPrompt=${formal.id}`);
    expect(await h.page.getByLabel('To version').inputValue()).toBe('1');

    const split = h.page.getByRole('table', {
      name: 'Side-by-side diff of the template: Summary version 2 on the left, Formal version 1 on the right',
    });
    const changedRow = split.getByRole('row').filter({ hasText: 'You are a' });
    expect(await changedRow.locator('del').allTextContents()).toEqual(['careful']);
    expect(await changedRow.locator('ins').allTextContents()).toEqual(['formal']);
    expect(await changedRow.getByRole('cell', { name: 'Removed: You are a careful assistant.' }).count()).toBe(1);
    await h.page.getByText('1 line removed, 1 line added').waitFor();
    const settings = h.page.getByRole('table', { name: /Settings that differ/ });
    expect(await settings.getByRole('row').allInnerTexts()).toEqual([
      'Setting\tFrom (Summary version 2)\tTo (Formal version 1)',
      'Temperature\t0.2\t0.9',
    ]);
    await expectAccessible(h.page);

    // Unified: the same marks, the line numbers of each side.
    await h.page.getByRole('button', { name: 'Unified' }).click();
    const unified = h.page.getByRole('table', {
      name: 'Unified diff of the template from Summary version 2 to Formal version 1',
    });
    await unified.waitFor();
    expect(await unified.locator('del').allTextContents()).toEqual(['careful']);
    expect(await unified.locator('ins').allTextContents()).toEqual(['formal']);
    expect(h.page.url()).toContain(`toPrompt=${formal.id}`);
    expect(await accessibilityViolations(h.page)).toEqual([]);
  });

  it('views version 1 read-only: template, model, temperature, max tokens and custom parameters', async () => {
    await goTo(h.page, versionsRoute);
    await h.page
      .getByRole('article', { name: 'Version 1', exact: true })
      .getByRole('link', { name: 'View version 1' })
      .click();
    await h.page.getByRole('heading', { level: 1, name: 'Version 1 of Summary' }).waitFor();
    expect(await h.page.locator('pre').first().textContent()).toBe(VERSION_1);
    const facts = await h.page.locator('dl.version-facts').innerText();
    expect(facts).toMatch(/Model\s+mock-echo/);
    expect(facts).toMatch(/Temperature\s+0\.7/);
    expect(facts).toMatch(/Max tokens\s+1,024/);
    await h.page.getByRole('heading', { name: 'Custom parameters' }).waitFor();
    expect(await h.page.getByRole('textbox').count()).toBe(0);
    await h.page.getByRole('link', { name: 'Compare with the current version (2)' }).waitFor();
    expect(await accessibilityViolations(h.page)).toEqual([]);
  });

  it('marks the versions archived by the plan history limit', async () => {
    const busy = await h.createPrompt(endpointId, { name: 'Busy', template: 'Draft 1 {{ inputs.text }}' }, 'Draft');
    // The free plan keeps 10 versions: the 11th save archives version 1.
    for (let n = 2; n <= 11; n++) {
      await h.t.http
        .put(`/admin/v1/prompts/${busy.id}`)
        .set(h.admin())
        .send({ template: `Draft ${n} {{ inputs.text }}` })
        .expect(200);
    }
    await goTo(h.page, `/endpoints/${endpointId}/prompts/${busy.id}/versions`);
    await h.page.getByRole('heading', { level: 1, name: 'Versions of Busy' }).waitFor();
    const first = h.page.getByRole('article', { name: 'Version 1', exact: true });
    await first.getByText("Archived by the plan's history limit").waitFor();
    expect(
      await h.page
        .getByRole('article', { name: 'Version 2', exact: true })
        .getByText("Archived by the plan's history limit")
        .count(),
    ).toBe(0);
    await h.page.getByRole('article', { name: 'Version 11', exact: true }).getByText('Current version').waitFor();
  });

  it('restores version 1 as a new Draft prompt and opens it; its history starts with version 1 content', async () => {
    await goTo(h.page, versionsRoute);
    await h.page
      .getByRole('article', { name: 'Version 1', exact: true })
      .getByRole('button', { name: /Restore as a new Draft/ })
      .click();
    await h.page.waitForURL(
      (url) => /#\/endpoints\/[^/]+\/prompts\/[0-9a-f-]{36}$/.test(url.hash) && !url.hash.endsWith(prompt.id),
    );
    const restoredId = new URL(h.page.url()).hash.split('/').pop()!;
    const restored = await h.t.http.get(`/admin/v1/prompts/${restoredId}`).set(h.admin()).expect(200);
    expect(restored.body.data).toMatchObject({ status: 'Draft', template: VERSION_1, temperature: 0.7, endpointId });
    // The user sees the new prompt's history: its own version 1, a Draft with the restored content.
    await goTo(h.page, `/endpoints/${endpointId}/prompts/${restoredId}/versions`);
    await h.page.getByRole('heading', { level: 1, name: `Versions of ${restored.body.data.name}` }).waitFor();
    const only = h.page.getByRole('article', { name: 'Version 1', exact: true });
    await only.getByText("Restored from 'Summary' version 1").waitFor();
    await only.getByText('Saved as Draft').waitFor();
    await only.getByRole('link', { name: 'View version 1' }).click();
    await h.page.getByRole('heading', { level: 1, name: `Version 1 of ${restored.body.data.name}` }).waitFor();
    expect(await h.page.locator('pre').first().textContent()).toBe(VERSION_1);
    // The original prompt keeps its history.
    const original = await h.t.http.get(`/admin/v1/prompts/${prompt.id}`).set(h.admin()).expect(200);
    expect(original.body.data).toMatchObject({ currentVersion: 2, template: VERSION_2 });
  });

  it('shows a ReadOnly key the restore action disabled, with the reason', async () => {
    await h.page.getByRole('button', { name: 'Sign out' }).click();
    await h.signIn(h.tenant.readOnly, versionsRoute);
    await h.page.getByRole('heading', { level: 1, name: 'Versions of Summary' }).waitFor();
    const restore = h.page
      .getByRole('article', { name: 'Version 1', exact: true })
      .getByRole('button', { name: /Restore as a new Draft/ });
    expect(await restore.isDisabled()).toBe(true);
    expect(await restore.getAttribute('title')).toMatch(/ReadOnly/);
    const description = await restore.evaluate((button) =>
      (button.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' '),
    );
    expect(description).toContain('Your key is ReadOnly');
    // The view page says the same.
    await goTo(h.page, `${versionsRoute}/1`);
    await h.page.getByRole('heading', { level: 1, name: 'Version 1 of Summary' }).waitFor();
    expect(await h.page.getByRole('button', { name: /Restore as a new Draft/ }).isDisabled()).toBe(true);
  });
});
