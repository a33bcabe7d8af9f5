import { ValidationError } from '../../common/errors/app-error';
import { IMAGE_DATA_URI_PATTERN, InputFieldRule, inputSchemaOf, validateInputs } from './input-validation';

const field = (overrides: Partial<InputFieldRule> & Pick<InputFieldRule, 'name' | 'dataType'>): InputFieldRule => ({
  isRequired: false,
  maxLength: null,
  minimum: null,
  maximum: null,
  defaultValue: null,
  ...overrides,
});

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

const NOT_A_DATA_URI = "Field 'photo' must be an image data URI (data:image/png;base64,...)";

function failure(
  body: unknown,
  fields: InputFieldRule[],
  maxImageBytes = 1024,
): { message: string; field: string | null } {
  try {
    validateInputs(body, fields, maxImageBytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return { message: (error as ValidationError).message, field: (error as ValidationError).field };
  }
  throw new Error('expected a validation failure');
}

describe('validateInputs', () => {
  it('refuses a body that is not a JSON object, with field null', () => {
    for (const body of [null, [], 'text', 3, undefined]) {
      expect(failure(body, [])).toEqual({ message: 'Request body must be a JSON object', field: null });
    }
  });

  it('names a missing required field, null counting as missing', () => {
    const fields = [field({ name: 'text', dataType: 'string', isRequired: true })];
    expect(failure({}, fields)).toEqual({ message: "Field 'text' is required", field: 'text' });
    expect(failure({ text: null }, fields)).toEqual({ message: "Field 'text' is required", field: 'text' });
  });

  it('applies defaults to absent fields and leaves out unknown extra fields', () => {
    const fields = [
      field({ name: 'count', dataType: 'integer', defaultValue: 3 }),
      field({ name: 'tone', dataType: 'string' }),
      field({ name: 'meta', dataType: 'object', defaultValue: { a: 1 } }),
    ];
    expect(validateInputs({ extra: true }, fields, 1)).toEqual({ values: { count: 3, meta: { a: 1 } }, images: [] });
    expect(validateInputs({ count: 5, tone: 'dry' }, fields, 1).values).toEqual({
      count: 5,
      tone: 'dry',
      meta: { a: 1 },
    });
  });

  it.each([
    ['string', 5, "Field 'x' must be a string"],
    ['integer', 1.5, "Field 'x' must be an integer"],
    ['integer', '3', "Field 'x' must be an integer"],
    ['number', 'NaN', "Field 'x' must be a number"],
    ['boolean', 'true', "Field 'x' must be a boolean"],
    ['object', [1], "Field 'x' must be an object"],
    ['array', { a: 1 }, "Field 'x' must be an array"],
    ['number', Infinity, "Field 'x' must be a number"],
    ['integer', -Infinity, "Field 'x' must be an integer"],
    ['object', 'text', "Field 'x' must be an object"],
  ] as const)('type %s refuses %p', (dataType, value, message) => {
    expect(failure({ x: value }, [field({ name: 'x', dataType })])).toEqual({ message, field: 'x' });
  });

  it('refuses a number too large to be finite (1e999 in JSON)', () => {
    const body: unknown = JSON.parse('{"x": 1e999}');
    expect(failure(body, [field({ name: 'x', dataType: 'number' })])).toEqual({
      message: "Field 'x' must be a number",
      field: 'x',
    });
  });

  it.each([
    ['string', ''],
    ['integer', -3],
    ['number', 2.5],
    ['boolean', true],
    ['boolean', false],
    ['object', {}],
    ['array', []],
  ] as const)('type %s accepts %p', (dataType, value) => {
    expect(validateInputs({ x: value }, [field({ name: 'x', dataType, isRequired: true })], 1)).toEqual({
      values: { x: value },
      images: [],
    });
  });

  it('accepts nested objects and arrays for object and array fields', () => {
    const fields = [field({ name: 'o', dataType: 'object' }), field({ name: 'a', dataType: 'array' })];
    const body = { o: { deep: { list: [1, { x: 'y' }] } }, a: [{ b: [1] }, 'c'] };
    expect(validateInputs(body, fields, 1).values).toEqual(body);
  });

  it('checks numeric bounds with the between/at least/at most shapes', () => {
    const both = [field({ name: 'n', dataType: 'integer', minimum: 1, maximum: 10 })];
    expect(failure({ n: 11 }, both).message).toBe("Field 'n' must be between 1 and 10");
    expect(failure({ n: 0 }, both).message).toBe("Field 'n' must be between 1 and 10");
    expect(validateInputs({ n: 10 }, both, 1).values).toEqual({ n: 10 });
    expect(failure({ n: -1 }, [field({ name: 'n', dataType: 'number', minimum: 0 })]).message).toBe(
      "Field 'n' must be at least 0",
    );
    expect(failure({ n: 2.5 }, [field({ name: 'n', dataType: 'number', maximum: 2 })]).message).toBe(
      "Field 'n' must be at most 2",
    );
  });

  it('accepts a value exactly at either bound, and any value on the side without a bound', () => {
    const both = [field({ name: 'n', dataType: 'integer', minimum: 1, maximum: 10 })];
    expect(validateInputs({ n: 1 }, both, 1).values).toEqual({ n: 1 });
    const onlyMinimum = [field({ name: 'n', dataType: 'number', minimum: 0.5 })];
    expect(validateInputs({ n: 0.5 }, onlyMinimum, 1).values).toEqual({ n: 0.5 });
    expect(validateInputs({ n: 1e300 }, onlyMinimum, 1).values).toEqual({ n: 1e300 });
    expect(failure({ n: 0.4 }, onlyMinimum)).toEqual({ message: "Field 'n' must be at least 0.5", field: 'n' });
    const onlyMaximum = [field({ name: 'n', dataType: 'number', maximum: -2 })];
    expect(validateInputs({ n: -2 }, onlyMaximum, 1).values).toEqual({ n: -2 });
    expect(validateInputs({ n: -1e300 }, onlyMaximum, 1).values).toEqual({ n: -1e300 });
    expect(failure({ n: -1.5 }, onlyMaximum)).toEqual({ message: "Field 'n' must be at most -2", field: 'n' });
  });

  it('counts maxLength in characters, not UTF-16 units', () => {
    const fields = [field({ name: 's', dataType: 'string', maxLength: 3 })];
    expect(validateInputs({ s: '😀😀😀' }, fields, 1).values).toEqual({ s: '😀😀😀' });
    expect(failure({ s: 'abcd' }, fields)).toEqual({ message: "Field 's' must be at most 3 characters", field: 's' });
    expect(failure({ s: '😀😀😀😀' }, fields)).toEqual({
      message: "Field 's' must be at most 3 characters",
      field: 's',
    });
    expect(validateInputs({ s: 'abc' }, fields, 1).values).toEqual({ s: 'abc' });
  });

  it('puts no length limit on a string field without maxLength', () => {
    const text = 'x'.repeat(100_000);
    expect(validateInputs({ s: text }, [field({ name: 's', dataType: 'string' })], 1).values).toEqual({ s: text });
  });

  it('accepts png/jpeg/webp/gif data URIs and returns them as image parts', () => {
    const fields = [field({ name: 'photo', dataType: 'image', isRequired: true })];
    expect(validateInputs({ photo: PNG }, fields, 1024)).toEqual({
      values: { photo: PNG },
      images: [{ field: 'photo', mediaType: 'image/png', dataUri: PNG }],
    });
    const gif = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    expect(validateInputs({ photo: gif }, fields, 1024).images).toEqual([
      { field: 'photo', mediaType: 'image/gif', dataUri: gif },
    ]);
    const jpeg = 'data:image/jpeg;base64,/9j/4AAQSkZJRg==';
    expect(validateInputs({ photo: jpeg }, fields, 1024).images).toEqual([
      { field: 'photo', mediaType: 'image/jpeg', dataUri: jpeg },
    ]);
    const webp = 'data:image/webp;base64,UklGRhoAAABXRUJQ';
    expect(validateInputs({ photo: webp }, fields, 1024).images).toEqual([
      { field: 'photo', mediaType: 'image/webp', dataUri: webp },
    ]);
  });

  it('reads the media type case-insensitively and reports it in lower case', () => {
    const fields = [field({ name: 'photo', dataType: 'image' })];
    const upper = 'DATA:IMAGE/PNG;BASE64,AQID';
    expect(validateInputs({ photo: upper }, fields, 1024)).toEqual({
      values: { photo: upper },
      images: [{ field: 'photo', mediaType: 'image/png', dataUri: upper }],
    });
  });

  it('returns every image field as an image part, in field order', () => {
    const fields = [
      field({ name: 'b', dataType: 'image' }),
      field({ name: 'note', dataType: 'string' }),
      field({ name: 'a', dataType: 'image' }),
    ];
    const first = 'data:image/gif;base64,AQID';
    expect(validateInputs({ a: PNG, note: 'n', b: first }, fields, 1024)).toEqual({
      values: { b: first, note: 'n', a: PNG },
      images: [
        { field: 'b', mediaType: 'image/gif', dataUri: first },
        { field: 'a', mediaType: 'image/png', dataUri: PNG },
      ],
    });
  });

  // AQID is 3 bytes, AQIDBA== is 4 and AQIDBAU= is 5: each is accepted at exactly its size and refused one byte below.
  it.each([
    ['no', 'AQID', 3],
    ['one = of', 'AQIDBAU=', 5],
    ['two = of', 'AQIDBA==', 4],
  ])('counts decoded bytes exactly with %s padding', (_padding, base64, bytes) => {
    const fields = [field({ name: 'photo', dataType: 'image' })];
    const uri = `data:image/png;base64,${base64}`;
    expect(validateInputs({ photo: uri }, fields, bytes).images).toEqual([
      { field: 'photo', mediaType: 'image/png', dataUri: uri },
    ]);
    expect(failure({ photo: uri }, fields, bytes - 1)).toEqual({
      message: `Field 'photo' must be an image of at most ${bytes - 1} bytes`,
      field: 'photo',
    });
  });

  it('refuses other media types, non data URIs and images over the byte limit', () => {
    const fields = [field({ name: 'photo', dataType: 'image' })];
    expect(failure({ photo: 'data:image/svg+xml;base64,PHN2Zz4=' }, fields)).toEqual({
      message: "Field 'photo' must be a PNG, JPEG, WebP or GIF image",
      field: 'photo',
    });
    expect(failure({ photo: 'https://example.com/a.png' }, fields)).toEqual({
      message: NOT_A_DATA_URI,
      field: 'photo',
    });
    expect(failure({ photo: 'data:image/png;base64,***' }, fields)).toEqual({
      message: NOT_A_DATA_URI,
      field: 'photo',
    });
    expect(failure({ photo: PNG }, fields, 50)).toEqual({
      message: "Field 'photo' must be an image of at most 50 bytes",
      field: 'photo',
    });
  });

  it.each([
    ['text before the data URI', ` ${PNG}`],
    ['text after the data URI', `${PNG} `],
    ['a line after the data URI', `${PNG}\nx`],
    ['a third padding character', 'data:image/png;base64,AQIDBA==='],
    ['a media type without a subtype', 'data:image;base64,AQID'],
    ['a media type with junk in it', 'data:image/p*ng;base64,AQID'],
    ['a media type with junk before it', 'data:*image/png;base64,AQID'],
    ['no base64 marker', 'data:image/png,AQID'],
    ['junk between the media type and the marker', 'data:image/png;charset=x;base64,AQID'],
    ['base64 with a space in it', 'data:image/png;base64,AQ ID'],
    ['padding in the middle', 'data:image/png;base64,AQ==ID'],
    ['no data', 'data:image/png;base64,'],
    ['only padding', 'data:image/png;base64,=='],
    ['a single padding character', 'data:image/png;base64,='],
    ['a value that is not a string', 42],
  ])('refuses %s as an image data URI', (_what, photo) => {
    expect(failure({ photo }, [field({ name: 'photo', dataType: 'image' })])).toEqual({
      message: NOT_A_DATA_URI,
      field: 'photo',
    });
  });

  it('reports the first failing field in field order', () => {
    const fields = [
      field({ name: 'a', dataType: 'string', isRequired: true }),
      field({ name: 'b', dataType: 'integer' }),
    ];
    expect(failure({ b: 'x' }, fields)).toEqual({ message: "Field 'a' is required", field: 'a' });
    expect(failure({ a: 'y', b: 'x' }, fields)).toEqual({ message: "Field 'b' must be an integer", field: 'b' });
  });

  it('checks a default value like a given one', () => {
    const fields = [field({ name: 'n', dataType: 'integer', maximum: 5, defaultValue: 9 })];
    expect(failure({}, fields)).toEqual({ message: "Field 'n' must be at most 5", field: 'n' });
  });

  it('lets a default satisfy a required field', () => {
    const fields = [field({ name: 'n', dataType: 'integer', isRequired: true, defaultValue: 2 })];
    expect(validateInputs({ n: null }, fields, 1).values).toEqual({ n: 2 });
  });
});

describe('inputSchemaOf', () => {
  const described = (rule: InputFieldRule, description = '') => ({ ...rule, description });

  it('describes what the validator accepts: types, bounds, defaults, required fields without a default', () => {
    expect(
      inputSchemaOf(
        [
          described(field({ name: 'text', dataType: 'string', isRequired: true, maxLength: 20 }), 'The text'),
          described(
            field({ name: 'n', dataType: 'integer', isRequired: true, minimum: 1, maximum: 9, defaultValue: 3 }),
          ),
          described(field({ name: 'ok', dataType: 'boolean' })),
        ],
        1024,
      ),
    ).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', maxLength: 20, description: 'The text' },
        n: { type: 'integer', minimum: 1, maximum: 9, default: 3 },
        ok: { type: 'boolean' },
      },
      required: ['text'],
    });
    expect(inputSchemaOf([], 1024)).toEqual({ type: 'object', properties: {} });
  });

  it('describes an image as a data URI of the media types the validator accepts', () => {
    const pattern = new RegExp(IMAGE_DATA_URI_PATTERN);
    const photo = field({ name: 'photo', dataType: 'image' });
    const schema = inputSchemaOf([described(photo)], 1024).properties as Record<string, Record<string, unknown>>;
    expect(schema.photo).toEqual({ type: 'string', pattern: IMAGE_DATA_URI_PATTERN, description: expect.any(String) });
    for (const type of ['png', 'jpeg', 'webp', 'gif']) {
      const uri = PNG.replace('image/png', `image/${type}`);
      expect(pattern.test(uri)).toBe(true);
      expect(validateInputs({ photo: uri }, [photo], 1024).images).toHaveLength(1);
    }
    const svg = PNG.replace('image/png', 'image/svg+xml');
    expect(pattern.test(svg)).toBe(false);
    expect(failure({ photo: svg }, [photo]).field).toBe('photo');
  });
});
