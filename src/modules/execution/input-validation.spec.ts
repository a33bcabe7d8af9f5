import { ValidationError } from '../../common/errors/app-error';
import { InputFieldRule, validateInputs } from './input-validation';

const field = (overrides: Partial<InputFieldRule> & Pick<InputFieldRule, 'name' | 'dataType'>): InputFieldRule => ({
  isRequired: false,
  maxLength: null,
  minimum: null,
  maximum: null,
  defaultValue: null,
  ...overrides,
});

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

function failure(body: unknown, fields: InputFieldRule[], maxImageBytes = 1024): { message: string; field: string | null } {
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
    expect(validateInputs({ count: 5, tone: 'dry' }, fields, 1).values).toEqual({ count: 5, tone: 'dry', meta: { a: 1 } });
  });

  it.each([
    ['string', 5, "Field 'x' must be a string"],
    ['integer', 1.5, "Field 'x' must be an integer"],
    ['integer', '3', "Field 'x' must be an integer"],
    ['number', 'NaN', "Field 'x' must be a number"],
    ['boolean', 'true', "Field 'x' must be a boolean"],
    ['object', [1], "Field 'x' must be an object"],
    ['array', { a: 1 }, "Field 'x' must be an array"],
  ] as const)('type %s refuses %p', (dataType, value, message) => {
    expect(failure({ x: value }, [field({ name: 'x', dataType })])).toEqual({ message, field: 'x' });
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
    expect(failure({ n: -1 }, [field({ name: 'n', dataType: 'number', minimum: 0 })]).message).toBe("Field 'n' must be at least 0");
    expect(failure({ n: 2.5 }, [field({ name: 'n', dataType: 'number', maximum: 2 })]).message).toBe("Field 'n' must be at most 2");
  });

  it('counts maxLength in characters, not UTF-16 units', () => {
    const fields = [field({ name: 's', dataType: 'string', maxLength: 3 })];
    expect(validateInputs({ s: '😀😀😀' }, fields, 1).values).toEqual({ s: '😀😀😀' });
    expect(failure({ s: 'abcd' }, fields)).toEqual({ message: "Field 's' must be at most 3 characters", field: 's' });
  });

  it('accepts png/jpeg/webp/gif data URIs and returns them as image parts', () => {
    const fields = [field({ name: 'photo', dataType: 'image', isRequired: true })];
    expect(validateInputs({ photo: PNG }, fields, 1024)).toEqual({
      values: { photo: PNG },
      images: [{ mediaType: 'image/png', dataUri: PNG }],
    });
    const gif = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    expect(validateInputs({ photo: gif }, fields, 1024).images[0].mediaType).toBe('image/gif');
  });

  it('refuses other media types, non data URIs and images over the byte limit', () => {
    const fields = [field({ name: 'photo', dataType: 'image' })];
    expect(failure({ photo: 'data:image/svg+xml;base64,PHN2Zz4=' }, fields)).toEqual({
      message: "Field 'photo' must be a PNG, JPEG, WebP or GIF image",
      field: 'photo',
    });
    expect(failure({ photo: 'https://example.com/a.png' }, fields).message).toBe(
      "Field 'photo' must be an image data URI (data:image/png;base64,...)",
    );
    expect(failure({ photo: 'data:image/png;base64,***' }, fields).field).toBe('photo');
    expect(failure({ photo: PNG }, fields, 50)).toEqual({ message: "Field 'photo' must be an image of at most 50 bytes", field: 'photo' });
  });

  it('reports the first failing field in field order', () => {
    const fields = [field({ name: 'a', dataType: 'string', isRequired: true }), field({ name: 'b', dataType: 'integer' })];
    expect(failure({ b: 'x' }, fields).field).toBe('a');
  });
});
