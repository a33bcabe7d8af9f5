import { assertJsonDepth, exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth';
import { ValidationError } from '../errors/app-error';

/** `levels` arrays nested in one another, built without recursion. */
function nestedArrays(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

function nestedObjects(levels: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < levels; i++) value = { a: value, n: i };
  return value;
}

describe('exceedsJsonDepth', () => {
  it('counts a scalar as depth 0 and each object or array as one level', () => {
    expect(exceedsJsonDepth('text', 0)).toBe(false);
    expect(exceedsJsonDepth(null, 0)).toBe(false);
    expect(exceedsJsonDepth({}, 0)).toBe(true);
    expect(exceedsJsonDepth({}, 1)).toBe(false);
    expect(exceedsJsonDepth({ a: [] }, 1)).toBe(true);
    expect(exceedsJsonDepth({ a: [] }, 2)).toBe(false);
    expect(exceedsJsonDepth({ a: 'x', b: [1, 2, { c: 3 }] }, 2)).toBe(true);
    expect(exceedsJsonDepth({ a: 'x', b: [1, 2, { c: 3 }] }, 3)).toBe(false);
  });

  it('accepts exactly the limit and refuses one level more', () => {
    expect(exceedsJsonDepth(nestedArrays(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(nestedArrays(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth(nestedObjects(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(nestedObjects(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('finds the deep branch among shallow siblings', () => {
    const body = {
      shallow: [1, 2, 3],
      wide: Array.from({ length: 1000 }, (_, i) => ({ i })),
      deep: nestedArrays(MAX_JSON_DEPTH),
    };
    expect(exceedsJsonDepth(body)).toBe(true);
    expect(exceedsJsonDepth({ ...body, deep: nestedArrays(MAX_JSON_DEPTH - 1) })).toBe(false);
  });

  it('walks values far deeper than the call stack allows without overflowing', () => {
    const deep = nestedArrays(1_000_000);
    expect(exceedsJsonDepth(deep)).toBe(true);
    expect(exceedsJsonDepth(deep, 1_000_000)).toBe(false);
  });

  it('checks a body parsed from JSON text 20,000 levels deep', () => {
    const text = `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expect(exceedsJsonDepth(JSON.parse(text))).toBe(true);
  });
});

describe('assertJsonDepth', () => {
  it('throws a validation error without a field for a body past the limit', () => {
    expect(() => assertJsonDepth(nestedObjects(MAX_JSON_DEPTH + 1))).toThrow(ValidationError);
    try {
      assertJsonDepth(nestedObjects(MAX_JSON_DEPTH + 1));
    } catch (error) {
      expect((error as ValidationError).field).toBeNull();
      expect((error as ValidationError).message).toBe(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
  });

  it('lets a body within the limit through', () => {
    expect(() => assertJsonDepth(nestedObjects(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => assertJsonDepth(undefined)).not.toThrow();
  });
});
