import { clip, jsonTextOf, MAX_QUOTED_LENGTH, MAX_REASON_LENGTH, quote, reason } from './check-reason';

describe('clip', () => {
  it('keeps a short text and cuts a long one with an ellipsis', () => {
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('abcd', 3)).toBe('ab…');
  });

  it('never splits a surrogate pair', () => {
    // '😀' is two UTF-16 units: a cut after 'a' and half of it drops the half.
    expect(clip('a😀b', 3)).toBe('a…');
    expect(clip('ab😀', 3)).toBe('ab…');
  });
});

describe('quote', () => {
  it('quotes JSON text, strings in double quotes, cut to the quoted length', () => {
    expect(quote('x')).toBe('"x"');
    expect(quote({ a: [1] })).toBe('{"a":[1]}');
    expect(quote(undefined)).toBe('null');
    expect(quote('y'.repeat(500))).toHaveLength(MAX_QUOTED_LENGTH);
  });
});

describe('jsonTextOf and reason', () => {
  it('gives JSON text and bounds reasons', () => {
    expect(jsonTextOf('a"b')).toBe('"a\\"b"');
    expect(reason('z'.repeat(1000))).toHaveLength(MAX_REASON_LENGTH);
  });
});
