import {
  conformOutput,
  imageOutputField,
  imageSettingsOf,
  OutputFieldRule,
  outputSchemaOf,
  rawOutputOf,
} from './output-schema';

const field = (
  name: string,
  dataType: OutputFieldRule['dataType'],
  description = '',
  exampleValue: string | null = null,
): OutputFieldRule => ({
  name,
  dataType,
  description,
  exampleValue,
});

describe('outputSchemaOf', () => {
  it('is null without output fields, or with only an image field', () => {
    expect(outputSchemaOf([])).toBeNull();
    expect(outputSchemaOf([field('picture', 'image')])).toBeNull();
  });

  it('describes an object with exactly the fields, all required, strict when every type is fixed', () => {
    expect(
      outputSchemaOf([
        field('summary', 'string', 'One sentence'),
        field('score', 'integer'),
        field('ok', 'boolean'),
        field('p', 'number'),
      ]),
    ).toEqual({
      jsonSchema: {
        type: 'object',
        properties: {
          summary: { type: 'string', description: 'One sentence' },
          score: { type: 'integer' },
          ok: { type: 'boolean' },
          p: { type: 'number' },
        },
        required: ['summary', 'score', 'ok', 'p'],
        additionalProperties: false,
      },
      strict: true,
    });
  });

  it('is not strict with free-form object or array fields', () => {
    const schema = outputSchemaOf([field('tags', 'array'), field('meta', 'object')]);
    expect(schema?.strict).toBe(false);
    expect(schema?.jsonSchema.properties).toEqual({ tags: { type: 'array' }, meta: { type: 'object' } });
  });
});

describe('conformOutput', () => {
  const fields = [field('summary', 'string'), field('score', 'integer'), field('tags', 'array')];

  it('keeps exactly the fields, in field order, dropping extras', () => {
    expect(conformOutput({ extra: 1, tags: ['a'], score: 3, summary: 's' }, fields)).toEqual({
      ok: true,
      value: { summary: 's', score: 3, tags: ['a'] },
    });
  });

  it('names a missing or mistyped field', () => {
    expect(conformOutput({ summary: 's', tags: [] }, fields)).toEqual({
      ok: false,
      problem: "field 'score' is missing",
    });
    expect(conformOutput({ summary: 's', score: 1.5, tags: [] }, fields)).toEqual({
      ok: false,
      problem: "field 'score' is not an integer",
    });
    expect(conformOutput(['x'], fields)).toEqual({ ok: false, problem: 'the answer is not a JSON object' });
  });
});

describe('output constraints and nested fields', () => {
  const constrained: OutputFieldRule[] = [
    { ...field('status', 'string'), enum: ['open', 'closed'] },
    { ...field('confidence', 'number'), minimum: 0, maximum: 1 },
    { ...field('title', 'string'), maxLength: 20 },
    {
      ...field('address', 'object'),
      properties: [
        {
          name: 'city',
          dataType: 'string',
          description: 'The city',
          enum: null,
          minimum: null,
          maximum: null,
          maxLength: 40,
          properties: null,
          items: null,
        },
      ],
    },
    {
      ...field('tags', 'array'),
      items: {
        dataType: 'integer',
        description: '',
        enum: null,
        minimum: 1,
        maximum: 5,
        maxLength: null,
        properties: null,
        items: null,
      },
    },
  ];

  it('puts the constraints and nested definitions in the schema asked of the provider', () => {
    const schema = outputSchemaOf(constrained)!;
    expect(schema.jsonSchema.properties).toEqual({
      status: { type: 'string', enum: ['open', 'closed'] },
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      title: { type: 'string', maxLength: 20 },
      address: {
        type: 'object',
        properties: { city: { type: 'string', description: 'The city', maxLength: 40 } },
        required: ['city'],
        additionalProperties: false,
      },
      tags: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 5 } },
    });
    // maxLength is not taken by strict mode; without it, described objects and arrays are strict.
    expect(schema.strict).toBe(false);
    expect(
      outputSchemaOf(constrained.filter((rule) => rule.maxLength == null && rule.name !== 'address'))!.strict,
    ).toBe(true);
  });

  const answer = {
    status: 'open',
    confidence: 0.5,
    title: 'Short',
    address: { city: 'Lyon', extra: 1 },
    tags: [1, 5],
  };

  it('takes a conforming answer, dropping extras in objects with defined properties', () => {
    expect(conformOutput(answer, constrained)).toEqual({
      ok: true,
      value: { status: 'open', confidence: 0.5, title: 'Short', address: { city: 'Lyon' }, tags: [1, 5] },
    });
  });

  it.each([
    [{ status: 'pending' }, "field 'status' is not one of its 2 enum values"],
    [{ confidence: 1.5 }, "field 'confidence' is above its maximum 1"],
    [{ confidence: -1 }, "field 'confidence' is below its minimum 0"],
    [{ title: 'x'.repeat(21) }, "field 'title' is longer than its maxLength 20"],
    [{ address: {} }, "field 'address.city' is missing"],
    [{ address: { city: 7 } }, "field 'address.city' is not a string"],
    [{ tags: [1, 2, 9] }, "field 'tags[2]' is above its maximum 5"],
    [{ tags: [1, 'x'] }, "field 'tags[1]' is not an integer"],
  ])('refuses an answer breaking a constraint, naming its path (%j)', (change, problem) => {
    expect(conformOutput({ ...answer, ...change }, constrained)).toEqual({ ok: false, problem });
  });
});

describe('image outputs', () => {
  it('finds the image field and merges its exampleValue settings under the prompt customParameters', () => {
    const image = field('picture', 'image', '', '{"size":"1024x1024","quality":"low"}');
    expect(imageOutputField([field('x', 'string'), image])).toBe(image);
    expect(imageOutputField([field('x', 'string')])).toBeUndefined();
    expect(imageSettingsOf(image, { quality: 'high', n: 2 })).toEqual({ size: '1024x1024', quality: 'high', n: 2 });
    expect(imageSettingsOf(field('p', 'image'), {})).toEqual({});
  });
});

describe('rawOutputOf', () => {
  it('returns the JSON value when the text parses, else the text itself', () => {
    expect(rawOutputOf('{"a":1}')).toEqual({ a: 1 });
    expect(rawOutputOf(' [1,2] \n')).toEqual([1, 2]);
    expect(rawOutputOf('42')).toBe(42);
    expect(rawOutputOf('Hello, world')).toBe('Hello, world');
    expect(rawOutputOf('')).toBe('');
  });

  it('keeps as text a JSON value nested deeper than a request body may be', () => {
    const atLimit = `${'['.repeat(64)}${']'.repeat(64)}`;
    const deeper = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(Array.isArray(rawOutputOf(atLimit))).toBe(true);
    expect(rawOutputOf(deeper)).toBe(deeper);
  });
});
