import { copyName, PROMPT_NAME_MAX_LENGTH, restoredName, slugify, withSuffix } from './prompt-naming';

describe('slugify', () => {
  it.each([
    ['Short Summary!', 'short-summary'],
    ['  --Hello__World--  ', 'hello-world'],
    ['v2.1 (beta)', 'v2-1-beta'],
    ['already-a-slug', 'already-a-slug'],
    ['Résumé', 'r-sum'],
    ['!!!', ''],
  ])('%s → %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it("is idempotent, so a name equal to another prompt's slug has that slug", () => {
    for (const name of ['A b', 'x--y', 'Mixed CASE 12']) expect(slugify(slugify(name))).toBe(slugify(name));
  });
});

describe('derived names', () => {
  it('appends the version to restored prompts', () => {
    expect(restoredName('Writer', 3)).toBe('Writer (v3)');
  });

  it('shortens long names so the suffix fits the column', () => {
    const long = 'n'.repeat(PROMPT_NAME_MAX_LENGTH);
    const name = withSuffix(long, ' (v12)');
    expect(name).toHaveLength(PROMPT_NAME_MAX_LENGTH);
    expect(name.endsWith(' (v12)')).toBe(true);
  });

  it('picks the first free copy name', () => {
    const taken = new Set(['Base (copy)', 'Base (copy 2)']);
    expect(copyName('Base', (candidate) => taken.has(candidate))).toBe('Base (copy 3)');
    expect(copyName('Base', () => false)).toBe('Base (copy)');
  });
});
