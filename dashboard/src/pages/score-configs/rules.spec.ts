import { categoriesOf, checkDraft, describeValues, draftOf, type ScoreConfig, type ScoreConfigDraft } from './rules';

const draft = (values: Partial<ScoreConfigDraft>): ScoreConfigDraft => ({ ...draftOf(), ...values });

describe('a score config draft', () => {
  it('sends a boolean config with the other types’ values null', () => {
    expect(checkDraft(draft({ name: ' helpful ', description: 'Thumbs up' }))).toEqual({
      body: {
        name: 'helpful',
        dataType: 'boolean',
        minimum: null,
        maximum: null,
        categories: null,
        description: 'Thumbs up',
      },
    });
  });

  it('refuses a name the service would refuse', () => {
    for (const name of ['', 'Helpful', '1st', `a${'b'.repeat(64)}`])
      expect(checkDraft(draft({ name }))).toEqual({ problems: { name: expect.stringContaining('lowercase letter') } });
    expect(checkDraft(draft({ name: `a${'b'.repeat(63)}` }))).toHaveProperty('body');
  });

  it('needs both bounds of a numeric config, the minimum below the maximum', () => {
    expect(checkDraft(draft({ name: 'stars', dataType: 'numeric', minimum: '1', maximum: '5' }))).toEqual({
      body: expect.objectContaining({ minimum: 1, maximum: 5, categories: null }),
    });
    expect(checkDraft(draft({ name: 'stars', dataType: 'numeric', minimum: '-0.5', maximum: '0.5' }))).toHaveProperty(
      'body.minimum',
      -0.5,
    );
    expect(checkDraft(draft({ name: 'stars', dataType: 'numeric', minimum: '', maximum: 'x' }))).toEqual({
      problems: { minimum: expect.stringContaining('minimum'), maximum: expect.stringContaining('maximum') },
    });
    expect(checkDraft(draft({ name: 'stars', dataType: 'numeric', minimum: '5', maximum: '5' }))).toEqual({
      problems: { maximum: 'The maximum must be greater than the minimum.' },
    });
  });

  it('needs 2 to 20 distinct categories of at most 64 characters, one per line', () => {
    expect(checkDraft(draft({ name: 'tone', dataType: 'categorical', categories: ' good \n\nbad\n' }))).toEqual({
      body: expect.objectContaining({ categories: ['good', 'bad'], minimum: null, maximum: null }),
    });
    const problem = (categories: string) =>
      (checkDraft(draft({ name: 'tone', dataType: 'categorical', categories })) as { problems: object }).problems;
    expect(problem('good')).toEqual({ categories: expect.stringContaining('2 to 20') });
    expect(problem(Array.from({ length: 21 }, (_, i) => `c${i}`).join('\n'))).toEqual({
      categories: expect.stringContaining('2 to 20'),
    });
    expect(problem('good\ngood')).toEqual({ categories: 'Each category may appear once.' });
    expect(problem(`good\n${'x'.repeat(65)}`)).toEqual({ categories: expect.stringContaining('64 characters') });
  });

  it('reads an existing config into the form and back', () => {
    const config = {
      id: 'c1',
      name: 'stars',
      dataType: 'numeric',
      minimum: 0,
      maximum: 10,
      categories: null,
      description: '',
    } as ScoreConfig;
    expect(draftOf(config)).toEqual({
      name: 'stars',
      dataType: 'numeric',
      minimum: '0',
      maximum: '10',
      categories: '',
      description: '',
    });
    expect(checkDraft(draftOf(config))).toHaveProperty('body.maximum', 10);
    expect(categoriesOf('a\n b \n\n')).toEqual(['a', 'b']);
  });
});

describe('a config’s values in words', () => {
  it('says what each type takes', () => {
    const shape = { minimum: null, maximum: null, categories: null };
    expect(describeValues({ ...shape, dataType: 'boolean' })).toBe('true or false');
    expect(describeValues({ ...shape, dataType: 'numeric', minimum: 1, maximum: 5 })).toBe('1 to 5');
    expect(describeValues({ ...shape, dataType: 'categorical', categories: ['good', 'bad', 'neutral'] })).toBe(
      'good, bad or neutral',
    );
  });
});
