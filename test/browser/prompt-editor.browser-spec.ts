import type { Page } from 'playwright-core';
import { expectAccessible, goTo, useDashboard } from './support/dashboard';

interface CatalogModel {
  id: string;
  provider: string;
  displayName: string;
  available: boolean;
  isTestModel: boolean;
  maxTemperature: number;
  capabilities: Record<string, boolean>;
  pricing: { inputPerMillionTokens: number | null; outputPerMillionTokens: number | null };
}

/**
 * The prompt editor's model picker (search, capability filters, prices, ids where names collide, the default for a
 * new prompt, the temperature up to the provider's maximum) and its chat message blocks (highlighted by role, folded).
 */
describe('Dashboard: the prompt editor', () => {
  const h = useDashboard({ setUp: (h) => h.signIn(h.tenant.admin) });
  let page: Page;
  beforeAll(() => (page = h.page));

  const catalog = async () =>
    (await h.t.http.get('/admin/v1/prompts/models').set(h.admin())).body.data as CatalogModel[];
  const picker = () => page.getByLabel('Model', { exact: true });
  const search = () => page.getByLabel('Search the catalog');
  /** The ids of the models the list shows. */
  const listed = () =>
    picker()
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  const editor = () => page.getByRole('textbox', { name: 'Template' });
  const templateCheck = () => page.locator('.template-check');

  async function setTemplate(text: string) {
    await editor().click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(text);
  }

  it('starts a new prompt on the cheapest capable model, searches and filters the models, and saves an OpenAI model at a temperature above 1', async () => {
    const models = await catalog();
    // Images in need image input; an output field needs structured output.
    const endpoint = await h.createEndpoint({
      inputs: [
        { name: 'photo', dataType: 'image', isRequired: true },
        { name: 'question', dataType: 'string', isRequired: true, maxLength: 200 },
      ],
      outputs: [{ name: 'answer', dataType: 'string' }],
    });
    await goTo(page, `/endpoints/${endpoint.id}/prompts/new`);
    await page.getByRole('heading', { level: 1, name: 'New prompt' }).waitFor();

    const price = (model: CatalogModel) =>
      (model.pricing.inputPerMillionTokens ?? Infinity) + (model.pricing.outputPerMillionTokens ?? Infinity);
    const capable = models.filter(
      (model) =>
        model.available &&
        !model.isTestModel &&
        model.capabilities.vision &&
        model.capabilities.jsonMode &&
        !model.capabilities.imageGeneration,
    );
    const chosenId = await picker().inputValue();
    const chosen = models.find((model) => model.id === chosenId)!;
    expect(capable.map((model) => model.id)).toContain(chosen.id);
    expect(price(chosen)).toBe(Math.min(...capable.map(price)));
    await page.locator('.model-facts').getByText(chosen.id, { exact: true }).waitFor();
    await expectAccessible(page);

    // Display names shared by two models show each one's id.
    const names = new Map<string, CatalogModel[]>();
    for (const model of models)
      names.set(model.displayName.toLowerCase(), [...(names.get(model.displayName.toLowerCase()) ?? []), model]);
    const twins = [...names.values()].find((group) => group.length > 1)!;
    expect(twins).toBeDefined();
    for (const twin of twins) {
      expect(await picker().locator(`option[value="${twin.id}"]`).innerText()).toContain(
        `${twin.displayName} (${twin.id})`,
      );
    }

    // Typing narrows the list by name, id or provider; the chosen model stays listed.
    await search().fill('flash');
    const flash = models.filter((model) =>
      `${model.displayName} ${model.id} ${model.provider}`.toLowerCase().includes('flash'),
    );
    expect(flash.length).toBeGreaterThan(1);
    await page.getByText(`${flash.length} of ${models.length} models match.`).waitFor();
    expect(new Set(await listed())).toEqual(new Set([...flash.map((model) => model.id), chosen.id]));
    // Each with its price per million tokens.
    const flashModel = flash.find(
      (model) => model.pricing.inputPerMillionTokens !== null && !model.capabilities.imageGeneration,
    )!;
    expect(await picker().locator(`option[value="${flashModel.id}"]`).innerText()).toMatch(
      /\$[\d.]+\/M in · \$[\d.]+\/M out/,
    );

    // A capability filter keeps only the models that have it.
    await search().fill('gpt');
    await page.getByRole('checkbox', { name: 'Image input' }).check();
    const gptVision = models.filter(
      (model) =>
        `${model.displayName} ${model.id} ${model.provider}`.toLowerCase().includes('gpt') && model.capabilities.vision,
    );
    await page.getByText(`${gptVision.length} of ${models.length} models match.`).waitFor();
    expect(new Set(await listed())).toEqual(new Set([...gptVision.map((model) => model.id), chosen.id]));
    await page.getByRole('checkbox', { name: 'Image input' }).uncheck();

    // From the keyboard: type, go down into the list, pick a model there.
    await search().fill('gpt-4o-mini');
    await search().press('ArrowDown');
    await expect(picker().evaluate((element) => element === document.activeElement)).resolves.toBe(true);
    await picker().selectOption('gpt-4o-mini');
    await page.locator('.model-facts').getByText('gpt-4o-mini', { exact: true }).waitFor();
    await page
      .locator('.model-facts')
      .getByText(/temperature 0 to 2/)
      .waitFor();

    // OpenAI takes temperatures up to 2: the slider goes there.
    const slider = page.getByRole('slider', { name: 'Temperature' });
    expect(await slider.getAttribute('max')).toBe('2');
    await slider.focus();
    await page.keyboard.press('End');
    await page.locator('.temperature-value').getByText('2.00').waitFor();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
    await page.locator('.temperature-value').getByText('1.50').waitFor();

    // Anthropic takes at most 1: the slider ends there, and a value above it is pointed out.
    await search().fill('claude-haiku-4-5');
    await picker().selectOption('claude-haiku-4-5');
    await page.getByText('anthropic accepts temperatures up to 1: lower it before running this prompt.').waitFor();
    await slider.focus();
    await page.keyboard.press('Home');
    await page.locator('.temperature-value').getByText('0.00').waitFor();
    expect(await slider.getAttribute('max')).toBe('1');
    await expect(page.getByText('anthropic accepts temperatures up to 1').count()).resolves.toBe(0);

    // Back to OpenAI at 1.5, created and shown so.
    await search().fill('');
    await picker().selectOption('gpt-4o-mini');
    await slider.focus();
    await page.keyboard.press('End');
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
    await page.getByLabel('Name').fill('Warm answers');
    await setTemplate('Answer {{ inputs.question }} about {{ inputs.photo }}');
    await templateCheck().getByText('No problems found').waitFor();
    await page.getByRole('button', { name: 'Create prompt' }).click();
    await page.getByRole('heading', { level: 1, name: 'Warm answers' }).waitFor();
    await page.locator('.temperature-value').getByText('1.50').waitFor();
    expect(await picker().inputValue()).toBe('gpt-4o-mini');
    const prompts = (await h.t.http.get(`/admin/v1/prompts?endpointId=${endpoint.id}`).set(h.admin())).body.data;
    expect(prompts).toEqual([
      expect.objectContaining({ name: 'Warm answers', llmModel: 'gpt-4o-mini', temperature: 1.5 }),
    ]);
    await expectAccessible(page);
  });

  it("highlights a chat template's message blocks by role, folds them, and still marks the validator's problems", async () => {
    const endpoint = await h.createEndpoint({
      inputs: [{ name: 'text', dataType: 'string', isRequired: true, maxLength: 2000 }],
    });
    const template = [
      '{% system %}',
      'You summarize in one sentence.',
      '{% endsystem %}',
      '{% user %}',
      'The cat sat on the mat.',
      '{% enduser %}',
      '{% assistant %}',
      'A cat sat.',
      '{% endassistant %}',
      '{% user %}',
      '{{ inputs.text }}',
      '{% enduser %}',
    ].join('\n');
    const prompt = await h.createPrompt(endpoint.id, { name: 'Chat', template }, 'Draft');
    await goTo(page, `/endpoints/${endpoint.id}/prompts/${prompt.id}`);
    await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
    await templateCheck().getByText('No problems found').waitFor();

    // Each role's tags styled as that role, and labelled in the gutter where each block starts.
    // (The syntax highlighting splits a tag in pieces, each marked.)
    const tagText = async (role: string) => (await page.locator(`.cm-message-tag-${role}`).allInnerTexts()).join('');
    await expect(tagText('system')).resolves.toBe('{% system %}{% endsystem %}');
    await expect(tagText('user')).resolves.toBe('{% user %}{% enduser %}{% user %}{% enduser %}');
    await expect(tagText('assistant')).resolves.toBe('{% assistant %}{% endassistant %}');
    expect(await page.locator('.cm-role-gutter .cm-role-label').allInnerTexts()).toEqual(
      expect.arrayContaining(['sys', 'user', 'asst']),
    );
    // Not by colour alone: each role's lines have an edge of their own style.
    const edge = (role: string) =>
      page
        .locator(`.cm-message-line-${role}`)
        .first()
        .evaluate((line) => getComputedStyle(line).borderLeftStyle);
    expect([await edge('system'), await edge('user'), await edge('assistant')]).toEqual(['solid', 'dashed', 'dotted']);
    const colour = (role: string) =>
      page
        .locator(`.cm-message-tag-${role}`)
        .first()
        .evaluate((tag) => getComputedStyle(tag).backgroundColor);
    expect(new Set([await colour('system'), await colour('user'), await colour('assistant')]).size).toBe(3);
    await expectAccessible(page);

    // The system block folds from the fold gutter: its text is hidden behind a placeholder, its tags stay.
    await page.locator('.cm-foldGutter [title="Fold line"]').first().click();
    await page.locator('.cm-foldPlaceholder').waitFor();
    expect(await editor().innerText()).not.toContain('You summarize in one sentence.');
    expect(await editor().innerText()).toContain('{% endsystem %}');
    // The assistant block folds from the keyboard.
    await page.locator('.cm-line', { hasText: '{% assistant %}' }).click();
    await page.keyboard.press('ControlOrMeta+Shift+BracketLeft');
    await page.locator('.cm-foldPlaceholder').nth(1).waitFor();
    await expect(page.locator('.cm-foldPlaceholder').count()).resolves.toBe(2);
    expect(await editor().innerText()).not.toContain('A cat sat.');
    await page.keyboard.press('ControlOrMeta+Shift+BracketRight');
    await page.locator('.cm-foldPlaceholder').nth(1).waitFor({ state: 'detached' });
    await expect(page.locator('.cm-foldPlaceholder').count()).resolves.toBe(1);
    expect(await editor().innerText()).toContain('A cat sat.');
    await page.locator('.cm-foldPlaceholder').click();
    // The editor unfolds on its next update: wait for the placeholder to go.
    await page.locator('.cm-foldPlaceholder').waitFor({ state: 'detached' });
    expect(await editor().innerText()).toContain('You summarize in one sentence.');

    // The validator's problems are still marked in the editor: text outside the blocks.
    // (Typed on a new line after the system block: a selection replaced over highlighted text makes Chrome try to keep
    // its look with an inline style, which the page's CSP refuses.)
    await page.locator('.cm-line', { hasText: '{% endsystem %}' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Hello');
    await templateCheck()
      .getByText(/problem/)
      .waitFor();
    await page.locator('.cm-lint-marker-error').first().waitFor();
    await page.locator('.cm-message-tag-system').first().waitFor();
  });
});
