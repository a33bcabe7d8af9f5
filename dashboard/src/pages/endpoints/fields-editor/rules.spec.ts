import {
  changeInputDraft,
  checkInputDraft,
  checkOutputDraft,
  dataTypeOf,
  FIELD_LIMITS,
  INPUT_TYPES,
  type InputDraft,
  inputDraftOf,
  type InputField,
  MAX_INTEGER,
  type OutputField,
  outputRulesOf,
  NAME_RULE,
  nameProblem,
  OUTPUT_TYPES,
  outputDraftOf,
  rulesOf,
  showValue,
  typeLabel,
} from './rules';

const field = (settings: Partial<InputField>): InputField => ({
  id: 'f1',
  name: 'text',
  dataType: 'string',
  isRequired: false,
  description: '',
  maxLength: null,
  minimum: null,
  maximum: null,
  defaultValue: null,
  ...settings,
});
const draft = (settings: Partial<InputDraft>): InputDraft => ({ ...inputDraftOf(), name: 'text', ...settings });

describe('field names', () => {
  it.each([
    ['', 'Required'],
    ['text', undefined],
    ['_private2', undefined],
    ['2fast', NAME_RULE],
    ['with-dash', NAME_RULE],
    ['with space', NAME_RULE],
    ['é', NAME_RULE],
    ['a'.repeat(FIELD_LIMITS.name), undefined],
    ['a'.repeat(FIELD_LIMITS.name + 1), `At most ${FIELD_LIMITS.name} characters`],
  ])('%j → %s', (name, problem) => {
    expect(nameProblem(name, 'Required')).toBe(problem);
  });
});

describe('data types', () => {
  it('names each type shortly in the tables, and an unknown one as it is', () => {
    expect(typeLabel('integer')).toBe('Integer');
    expect(typeLabel('boolean')).toBe('Yes / no');
    expect(typeLabel('object')).toBe('JSON object');
    expect(typeLabel('vector')).toBe('vector');
  });

  it('reads a picked value as its type, and anything else as text', () => {
    expect(dataTypeOf(INPUT_TYPES, 'image').value).toBe('image');
    expect(dataTypeOf(OUTPUT_TYPES, 'array').value).toBe('array');
    expect(dataTypeOf(INPUT_TYPES, 'nonsense').value).toBe('string');
  });
});

describe('an input field in words and values', () => {
  it.each([
    [{ maxLength: 2000 }, 'at most 2,000 characters'],
    [{ minimum: 1, maximum: 10 }, 'from 1 to 10'],
    [{ minimum: 0 }, 'at least 0'],
    [{ maximum: 5 }, 'at most 5'],
    [{}, ''],
  ])('%j reads "%s"', (bounds, words) => {
    expect(rulesOf(field(bounds))).toBe(words);
  });

  it('shows a default as JSON: a text quoted, a number bare', () => {
    expect(showValue('fr')).toBe('"fr"');
    expect(showValue(3)).toBe('3');
    expect(showValue({ tone: 'formal' })).toBe('{"tone":"formal"}');
  });
});

describe('an input field between the API and the form', () => {
  it('starts a new field as an optional text with nothing typed', () => {
    expect(inputDraftOf()).toEqual({
      name: '',
      dataType: 'string',
      isRequired: false,
      description: '',
      maxLength: '',
      minimum: '',
      maximum: '',
      defaultValue: '',
    });
  });

  it('shows a stored field as typed values: numbers as text, a text default bare, JSON indented', () => {
    expect(inputDraftOf(field({ dataType: 'integer', minimum: 1, maximum: 10, defaultValue: 3 }))).toMatchObject({
      minimum: '1',
      maximum: '10',
      defaultValue: '3',
    });
    expect(inputDraftOf(field({ maxLength: 500, defaultValue: 'fr' }))).toMatchObject({
      maxLength: '500',
      defaultValue: 'fr',
    });
    expect(inputDraftOf(field({ dataType: 'object', defaultValue: { tone: 'formal' } })).defaultValue).toBe(
      '{\n  "tone": "formal"\n}',
    );
    expect(inputDraftOf(field({ dataType: 'boolean', defaultValue: false })).defaultValue).toBe('false');
  });

  it('sends what the form shows back as the stored field', () => {
    const stored = field({ dataType: 'integer', isRequired: true, minimum: 1, maximum: 10, defaultValue: 3 });
    const { id: _id, ...body } = stored;
    expect(checkInputDraft(inputDraftOf(stored))).toEqual({ problems: {}, body });
  });

  it('drops a typed default when the data type changes, and keeps it otherwise', () => {
    const typed = draft({ defaultValue: 'hello' });
    expect(changeInputDraft(typed, 'dataType', 'integer')).toMatchObject({ dataType: 'integer', defaultValue: '' });
    expect(changeInputDraft(typed, 'dataType', 'string').defaultValue).toBe('hello');
    expect(changeInputDraft(typed, 'name', 'other')).toEqual({ ...typed, name: 'other' });
  });
});

describe('checking an input field before it is sent', () => {
  it('trims the name and sends empty bounds and default as null', () => {
    expect(checkInputDraft(draft({ name: '  text ', description: 'The text' })).body).toEqual({
      name: 'text',
      dataType: 'string',
      isRequired: false,
      description: 'The text',
      maxLength: null,
      minimum: null,
      maximum: null,
      defaultValue: null,
    });
  });

  it('reads the default as a value of the field type', () => {
    const defaultOf = (dataType: InputDraft['dataType'], defaultValue: string) =>
      checkInputDraft(draft({ dataType, defaultValue })).body?.defaultValue;
    expect(defaultOf('string', ' spaced ')).toBe(' spaced ');
    expect(defaultOf('integer', '42')).toBe(42);
    expect(defaultOf('number', '0.5')).toBe(0.5);
    expect(defaultOf('boolean', 'true')).toBe(true);
    expect(defaultOf('boolean', 'false')).toBe(false);
    expect(defaultOf('object', '{"tone": "formal"}')).toEqual({ tone: 'formal' });
    expect(defaultOf('array', '["a", "b"]')).toEqual(['a', 'b']);
    expect(defaultOf('image', 'data:image/png;base64,AA==')).toBeNull();
  });

  it('ignores the settings that do not apply to the type', () => {
    const body = checkInputDraft(draft({ dataType: 'boolean', maxLength: '5', minimum: '1', maximum: '2' })).body;
    expect(body).toMatchObject({ maxLength: null, minimum: null, maximum: null });
  });

  it.each<[string, Partial<InputDraft>, Record<string, string>]>([
    ['a missing name', { name: ' ' }, { name: 'Required: the key callers send' }],
    ['a name starting with a digit', { name: '1st' }, { name: NAME_RULE }],
    [
      'a description too long',
      { description: 'x'.repeat(FIELD_LIMITS.description + 1) },
      { description: `At most ${FIELD_LIMITS.description} characters` },
    ],
    [
      'a maximum length of zero',
      { maxLength: '0' },
      { maxLength: `Must be a whole number from 1 to ${MAX_INTEGER.toLocaleString()}` },
    ],
    [
      'a fractional maximum length',
      { maxLength: '2.5' },
      { maxLength: `Must be a whole number from 1 to ${MAX_INTEGER.toLocaleString()}` },
    ],
    [
      'a text default over the maximum length',
      { maxLength: '3', defaultValue: 'four' },
      { defaultValue: 'At most 3 characters (the maximum length)' },
    ],
    ['a bound that is not a number', { dataType: 'number', minimum: 'low' }, { minimum: 'Must be a number' }],
    ['a fractional integer bound', { dataType: 'integer', maximum: '1.5' }, { maximum: 'Must be a whole number' }],
    [
      'an integer bound beyond 32 bits',
      { dataType: 'integer', maximum: String(MAX_INTEGER + 1) },
      { maximum: `Must be from ${(-MAX_INTEGER - 1).toLocaleString()} to ${MAX_INTEGER.toLocaleString()}` },
    ],
    [
      'a maximum below the minimum',
      { dataType: 'integer', minimum: '5', maximum: '1' },
      { maximum: 'Must not be less than the minimum' },
    ],
    [
      'a default outside the bounds',
      { dataType: 'integer', minimum: '1', maximum: '10', defaultValue: '12' },
      { defaultValue: 'Must be between 1 and 10 (the minimum and maximum)' },
    ],
    [
      'a default below an open-ended minimum',
      { dataType: 'number', minimum: '0', defaultValue: '-1' },
      { defaultValue: 'Must be between 0 and ∞ (the minimum and maximum)' },
    ],
    [
      'a fractional integer default',
      { dataType: 'integer', defaultValue: '2.5' },
      { defaultValue: 'Must be a whole number' },
    ],
    [
      'a number default that is not one',
      { dataType: 'number', defaultValue: 'many' },
      { defaultValue: 'Must be a number' },
    ],
    [
      'an object default that is not JSON',
      { dataType: 'object', defaultValue: '{tone}' },
      { defaultValue: 'Must be valid JSON: {…}' },
    ],
    [
      'an array default given an object',
      { dataType: 'array', defaultValue: '{}' },
      { defaultValue: 'Must be a JSON array' },
    ],
    [
      'an object default given an array',
      { dataType: 'object', defaultValue: '[]' },
      { defaultValue: 'Must be a JSON object' },
    ],
  ])('refuses %s, naming the field', (_case, settings, problems) => {
    expect(checkInputDraft(draft(settings))).toEqual({ problems });
  });

  it('names every problem at once', () => {
    const { problems } = checkInputDraft(draft({ name: '', dataType: 'integer', minimum: 'x', defaultValue: 'y' }));
    expect(Object.keys(problems).sort()).toEqual(['defaultValue', 'minimum', 'name']);
  });
});

const NO_CONSTRAINTS = { enum: null, minimum: null, maximum: null, maxLength: null, properties: null, items: null };
const EMPTY_CONSTRAINTS = { enum: '', minimum: '', maximum: '', maxLength: '', properties: '', items: '' };
const outputField = (settings: Partial<OutputField>): OutputField => ({
  id: 'o1',
  name: 'n',
  dataType: 'string',
  description: '',
  exampleValue: null,
  ...NO_CONSTRAINTS,
  ...settings,
});

describe('an output field', () => {
  it('starts a new one as a text, and shows a stored one as it is', () => {
    expect(outputDraftOf()).toEqual({
      name: '',
      dataType: 'string',
      description: '',
      exampleValue: '',
      ...EMPTY_CONSTRAINTS,
    });
    expect(
      outputDraftOf(
        outputField({ name: 'image', dataType: 'image', description: 'd', exampleValue: '{"size":"1024x1024"}' }),
      ),
    ).toEqual({
      name: 'image',
      dataType: 'image',
      description: 'd',
      exampleValue: '{"size":"1024x1024"}',
      ...EMPTY_CONSTRAINTS,
    });
    expect(outputDraftOf(outputField({ dataType: 'number' })).exampleValue).toBe('');
  });

  it('sends a trimmed name, and an empty example and constraints as null', () => {
    expect(
      checkOutputDraft({
        ...outputDraftOf(),
        name: ' summary ',
        dataType: 'string',
        description: 'Short',
        exampleValue: '  ',
      }),
    ).toEqual({
      problems: {},
      body: { name: 'summary', dataType: 'string', description: 'Short', exampleValue: null, ...NO_CONSTRAINTS },
    });
  });

  it('shows allowed values one a line, bounds as typed and nested definitions as short JSON, and sends them back', () => {
    const status = outputField({ name: 'status', enum: ['open', 'closed'], maxLength: 10 });
    expect(outputDraftOf(status)).toMatchObject({ enum: 'open\nclosed', maxLength: '10' });
    expect(checkOutputDraft({ ...outputDraftOf(status), enum: ' open \n\nclosed' }).body).toMatchObject({
      enum: ['open', 'closed'],
      maxLength: 10,
    });
    const city = { name: 'city', dataType: 'string' as const, description: '', ...NO_CONSTRAINTS, maxLength: 40 };
    const address = outputField({ name: 'address', dataType: 'object', properties: [city] });
    expect(outputDraftOf(address).properties).toBe(
      JSON.stringify([{ name: 'city', dataType: 'string', maxLength: 40 }], null, 2),
    );
    expect(checkOutputDraft(outputDraftOf(address)).body?.properties).toEqual([
      { name: 'city', dataType: 'string', maxLength: 40 },
    ]);
    const tags = outputField({ name: 'tags', dataType: 'array', items: { ...city, name: undefined } as never });
    expect(JSON.parse(outputDraftOf(tags).items)).toEqual({ dataType: 'string', maxLength: 40 });
    const score = outputField({ name: 'score', dataType: 'integer', minimum: 0, maximum: 10 });
    expect(checkOutputDraft(outputDraftOf(score)).body).toMatchObject({ minimum: 0, maximum: 10, enum: null });
    expect(outputRulesOf(status)).toBe('one of open, closed; at most 10 characters');
    expect(outputRulesOf(score)).toBe('from 0 to 10');
    expect(outputRulesOf(address)).toBe('properties city');
  });

  it('sends only the constraints of the data type picked', () => {
    const typed = {
      ...outputDraftOf(),
      name: 'n',
      enum: 'a',
      maxLength: '3',
      minimum: '1',
      maximum: '2',
      properties: '[]',
      items: '{}',
    };
    expect(checkOutputDraft({ ...typed, dataType: 'integer' }).body).toMatchObject({
      ...NO_CONSTRAINTS,
      minimum: 1,
      maximum: 2,
    });
    expect(checkOutputDraft({ ...typed, dataType: 'boolean' }).body).toMatchObject(NO_CONSTRAINTS);
  });

  it('keeps an example as typed, JSON or not, except for an image field', () => {
    expect(checkOutputDraft({ ...outputDraftOf(), name: 'n', exampleValue: 'not json' }).body?.exampleValue).toBe(
      'not json',
    );
    expect(
      checkOutputDraft({ ...outputDraftOf(), name: 'image', dataType: 'image', exampleValue: '{"size":"1024x1024"}' })
        .body?.exampleValue,
    ).toBe('{"size":"1024x1024"}');
  });

  it.each([
    ['no name', { name: '' }, { name: 'Required: the key in the answer' }],
    ['a name with a dash', { name: 'the-answer' }, { name: NAME_RULE }],
    [
      'an example too long',
      { exampleValue: 'x'.repeat(FIELD_LIMITS.exampleValue + 1) },
      { exampleValue: `At most ${FIELD_LIMITS.exampleValue.toLocaleString()} characters` },
    ],
    [
      'image settings that are not a JSON object',
      { dataType: 'image' as const, exampleValue: '["1024x1024"]' },
      { exampleValue: 'Must be a JSON object such as {"size": "1024x1024", "quality": "high"}' },
    ],
    [
      'image settings that are not JSON',
      { dataType: 'image' as const, exampleValue: 'size=1024' },
      { exampleValue: 'Must be a JSON object such as {"size": "1024x1024", "quality": "high"}' },
    ],
    ['a repeated allowed value', { enum: 'a\nb\na' }, { enum: 'Each value once' }],
    [
      'an allowed value over the maximum length',
      { enum: 'long', maxLength: '2' },
      { enum: 'Each value at most 2 characters (the maximum length)' },
    ],
    [
      'a maximum under the minimum',
      { dataType: 'number' as const, minimum: '2', maximum: '1' },
      { maximum: 'Must not be less than the minimum' },
    ],
    [
      'properties that are not a JSON array',
      { dataType: 'object' as const, properties: '{"name": "a"}' },
      { properties: 'Must be a JSON array of fields such as [{"name": "city", "dataType": "string"}]' },
    ],
    [
      'items that are not JSON',
      { dataType: 'array' as const, items: 'string' },
      { items: 'Must be a JSON field definition such as {"dataType": "string", "maxLength": 40}' },
    ],
  ])('refuses %s, naming the field', (_case, settings, problems) => {
    expect(checkOutputDraft({ ...outputDraftOf(), name: 'answer', ...settings })).toEqual({ problems });
  });
});
