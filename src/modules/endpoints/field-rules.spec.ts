import {
  fieldCountProblem,
  inputFieldProblems,
  outputFieldProblems,
  outputFieldWeight,
  toNestedField,
} from './field-rules';

describe('inputFieldProblems', () => {
  it('accepts a plain field of every type', () => {
    for (const dataType of ['string', 'integer', 'number', 'boolean', 'image', 'object', 'array'] as const) {
      expect(inputFieldProblems({ name: 'x', dataType })).toEqual([]);
    }
  });

  it('allows maxLength on string fields only', () => {
    expect(inputFieldProblems({ name: 'x', dataType: 'string', maxLength: 10 })).toEqual([]);
    expect(inputFieldProblems({ name: 'x', dataType: 'integer', maxLength: 10 })).toEqual([
      'maxLength applies to string fields only, not integer',
    ]);
  });

  it('allows minimum and maximum on numeric fields only, integers on integer fields', () => {
    expect(inputFieldProblems({ name: 'x', dataType: 'number', minimum: 0.5, maximum: 1.5 })).toEqual([]);
    expect(inputFieldProblems({ name: 'x', dataType: 'string', minimum: 1, maximum: 2 })).toEqual([
      'minimum applies to integer and number fields only, not string',
      'maximum applies to integer and number fields only, not string',
    ]);
    expect(inputFieldProblems({ name: 'x', dataType: 'integer', minimum: 0.5 })).toEqual([
      'minimum must be an integer',
    ]);
    expect(inputFieldProblems({ name: 'x', dataType: 'integer', minimum: -2147483648, maximum: 2147483647 })).toEqual(
      [],
    );
    expect(inputFieldProblems({ name: 'x', dataType: 'integer', minimum: -2147483649, maximum: 1e11 })).toEqual([
      'minimum must not be less than -2147483648',
      'maximum must not be greater than 2147483647',
    ]);
    expect(inputFieldProblems({ name: 'x', dataType: 'number', minimum: -1e300, maximum: 1e300 })).toEqual([]);
    expect(inputFieldProblems({ name: 'x', dataType: 'integer', minimum: 5, maximum: 1 })).toEqual([
      'minimum must not be greater than maximum',
    ]);
  });

  it.each([
    ['string', 'hello', undefined],
    ['string', 5, 'defaultValue must be a string'],
    ['integer', 3, undefined],
    ['integer', 3.5, 'defaultValue must be an integer'],
    ['integer', '3', 'defaultValue must be an integer'],
    ['number', 3.5, undefined],
    ['number', true, 'defaultValue must be a number'],
    ['boolean', false, undefined],
    ['boolean', 'false', 'defaultValue must be a boolean'],
    ['object', { a: 1 }, undefined],
    ['object', [1], 'defaultValue must be an object'],
    ['array', [1, 'a'], undefined],
    ['array', { a: 1 }, 'defaultValue must be an array'],
    ['image', 'data:image/png;base64,AA==', 'defaultValue is not supported for image fields'],
  ] as const)('a %s field with defaultValue %j', (dataType, defaultValue, problem) => {
    expect(inputFieldProblems({ name: 'x', dataType, defaultValue })).toEqual(problem ? [problem] : []);
  });

  it('checks defaultValue against maxLength and the bounds', () => {
    expect(inputFieldProblems({ name: 'x', dataType: 'string', maxLength: 3, defaultValue: 'abcd' })).toEqual([
      'defaultValue must be at most 3 characters',
    ]);
    expect(inputFieldProblems({ name: 'x', dataType: 'integer', minimum: 1, maximum: 10, defaultValue: 11 })).toEqual([
      'defaultValue must be between 1 and 10',
    ]);
  });

  it('treats a null defaultValue as none', () => {
    expect(inputFieldProblems({ name: 'x', dataType: 'integer', defaultValue: null })).toEqual([]);
  });
});

describe('outputFieldProblems', () => {
  it('requires a JSON object as the exampleValue of an image field', () => {
    expect(outputFieldProblems({ dataType: 'image', exampleValue: '{"size":"1024x1024"}' })).toEqual([]);
    expect(outputFieldProblems({ dataType: 'image', exampleValue: null })).toEqual([]);
    for (const bad of ['not json', '[1,2]', '"text"', 'null', '42']) {
      expect(outputFieldProblems({ dataType: 'image', exampleValue: bad })).toHaveLength(1);
      expect(outputFieldProblems({ dataType: 'image', exampleValue: bad })[0]).toMatch(/^exampleValue /);
    }
  });

  it('refuses image settings nested deeper than a request body may be', () => {
    const settings = (levels: number) =>
      `{"size":"1024x1024","style":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    expect(outputFieldProblems({ dataType: 'image', exampleValue: settings(64) })).toEqual([]);
    expect(outputFieldProblems({ dataType: 'image', exampleValue: settings(65) })).toEqual([
      'exampleValue of an image field must not be nested deeper than 64 levels',
    ]);
  });

  it('takes any text as the exampleValue of other fields', () => {
    expect(outputFieldProblems({ dataType: 'string', exampleValue: 'not json' })).toEqual([]);
  });
});

describe('fieldCountProblem', () => {
  it('takes a field while the list holds fewer than 100, and names the list beyond', () => {
    expect(fieldCountProblem('inputFields', 0)).toBeNull();
    expect(fieldCountProblem('outputFields', 99)).toBeNull();
    expect(fieldCountProblem('inputFields', 100)).toBe(
      'inputFields must have at most 100 fields; the endpoint has 100',
    );
    expect(fieldCountProblem('outputFields', 140)).toBe(
      'outputFields must have at most 100 fields; the endpoint has 140',
    );
  });
});

describe('output field constraints', () => {
  const nested = (name: string, dataType: 'string' | 'integer' | 'object' | 'array', more = {}) =>
    toNestedField({ name, dataType, ...more });

  it('takes each constraint on the types it applies to', () => {
    expect(outputFieldProblems({ dataType: 'string', enum: ['a', 'b'], maxLength: 5 })).toEqual([]);
    expect(outputFieldProblems({ dataType: 'integer', minimum: 0, maximum: 10 })).toEqual([]);
    expect(outputFieldProblems({ dataType: 'number', minimum: 0.5 })).toEqual([]);
    expect(
      outputFieldProblems({
        dataType: 'object',
        properties: [
          nested('city', 'string', { maxLength: 10 }),
          nested('tags', 'array', { items: { dataType: 'string', enum: ['x'] } }),
        ],
      }),
    ).toEqual([]);
  });

  it('names the attribute of a constraint given on a type it does not apply to', () => {
    expect(outputFieldProblems({ dataType: 'integer', enum: ['a'] })).toEqual([
      'enum applies to string fields only, not integer',
    ]);
    expect(outputFieldProblems({ dataType: 'boolean', maxLength: 3, minimum: 1 })).toEqual([
      'maxLength applies to string fields only, not boolean',
      'minimum applies to integer and number fields only, not boolean',
    ]);
    expect(outputFieldProblems({ dataType: 'string', properties: [nested('a', 'string')] })).toEqual([
      'properties applies to object fields only, not string',
    ]);
    expect(outputFieldProblems({ dataType: 'image', items: toNestedField({ name: 'x', dataType: 'string' }) })).toEqual(
      ['items applies to array fields only, not image'],
    );
    expect(
      outputFieldProblems({
        dataType: 'object',
        properties: [nested('a', 'string'), nested('b', 'integer', { maxLength: 2 })],
      }),
    ).toEqual(['properties.1.maxLength applies to string fields only, not integer']);
    expect(
      outputFieldProblems({
        dataType: 'array',
        items: { ...toNestedField({ name: 'x', dataType: 'string' }), minimum: 1 },
      }),
    ).toEqual(['items.minimum applies to integer and number fields only, not string']);
  });

  it('wants 1 to 100 distinct enum values within the maxLength', () => {
    expect(outputFieldProblems({ dataType: 'string', enum: [] })).toEqual(['enum must list at least 1 value']);
    expect(outputFieldProblems({ dataType: 'string', enum: Array.from({ length: 101 }, (_, i) => `v${i}`) })).toEqual([
      'enum must list at most 100 values',
    ]);
    expect(outputFieldProblems({ dataType: 'string', enum: ['a', 'b', 'a'] })).toEqual([
      "enum must not list 'a' twice",
    ]);
    expect(outputFieldProblems({ dataType: 'string', enum: ['long'], maxLength: 2 })).toEqual([
      'enum values must be at most 2 characters (the maxLength)',
    ]);
  });

  it('checks bounds as on input fields', () => {
    expect(outputFieldProblems({ dataType: 'integer', minimum: 1.5 })).toEqual(['minimum must be an integer']);
    expect(outputFieldProblems({ dataType: 'number', minimum: 2, maximum: 1 })).toEqual([
      'minimum must not be greater than maximum',
    ]);
  });

  it("nests at most 3 levels, with distinct names among an object's properties", () => {
    const level3 = nested('c', 'string');
    const level2 = nested('b', 'object', { properties: [level3] });
    expect(outputFieldProblems({ dataType: 'object', properties: [level2] })).toEqual([]);
    const tooDeep = nested('b', 'object', {
      properties: [nested('c', 'object', { properties: [nested('d', 'string')] })],
    });
    expect(outputFieldProblems({ dataType: 'object', properties: [tooDeep] })).toEqual([
      'properties.0.properties.0.properties must not be given: output fields nest at most 3 levels',
    ]);
    expect(
      outputFieldProblems({
        dataType: 'array',
        items: { ...nested('x', 'array', { items: { dataType: 'array', items: { dataType: 'string' } } }) },
      }),
    ).toEqual(['items.items.items must not be given: output fields nest at most 3 levels']);
    expect(
      outputFieldProblems({ dataType: 'object', properties: [nested('a', 'string'), nested('a', 'integer')] }),
    ).toEqual(["properties.1.name 'a' is taken by another property of the object"]);
    expect(outputFieldProblems({ dataType: 'object', properties: [] })).toEqual([
      'properties must list at least 1 field',
    ]);
  });

  it('counts a field with its nested ones toward the endpoint limit', () => {
    expect(outputFieldWeight({})).toBe(1);
    expect(
      outputFieldWeight({
        properties: [
          nested('a', 'string'),
          nested('b', 'array', { items: { dataType: 'object', properties: [{ name: 'c', dataType: 'string' }] } }),
        ],
      }),
    ).toBe(5);
    expect(fieldCountProblem('outputFields', 98, 2)).toBeNull();
    expect(fieldCountProblem('outputFields', 98, 3)).toBe(
      'outputFields must have at most 100 fields, nested ones included; the endpoint has 98 and this field counts 3',
    );
  });
});
