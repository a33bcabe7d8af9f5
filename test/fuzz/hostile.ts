import fc from 'fast-check';
import { deepArray, deepObject, RawJson, Repeat, withOwnKey } from './json-text';

/** Numbers past every bound the service has: columns, JavaScript's safe integers, IEEE doubles. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    -0,
    1.5,
    0.1,
    1e11,
    -1e11,
    2147483647,
    2147483648,
    -2147483648,
    -2147483649,
    4294967296,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    1e21,
    5e-324,
  ),
  fc.constantFrom(
    new RawJson('1e309'),
    new RawJson('-1e309'),
    new RawJson('1e-400'),
    new RawJson('9007199254740993'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('1E5'),
    new RawJson('-0.0'),
  ),
  fc.integer(),
  fc.double(),
);

/** Strings that look like something else, and text that is hard to store, compare, render or log. */
export const hostileString: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\t\n',
    'NaN',
    'Infinity',
    '-Infinity',
    '-1',
    '1e11',
    '2147483648',
    '0x10',
    '١٢٣',
    'true',
    'null',
    'undefined',
    '\u0000',
    'a\u0000b',
    '\u202Eevil\u202C',
    '\uFEFFbom',
    '𝕏𝕐',
    '👨‍👩‍👧‍👦',
    '😀',
    'ﷺ',
    'שלום עולם',
    'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
    '{{ 7 | times: 6 }}',
    '{% for i in (1..100000) %}x{% endfor %}',
    '{% raw %}',
    '{{',
    "'; DROP TABLE endpoints; --",
    '" OR 1=1 --',
    '../../etc/passwd',
    '..%2f..%2f',
    '%00',
    '<script>alert(1)</script>',
    '${process.env.HOME}',
    '__proto__',
    'constructor',
    'prototype',
    'data:image/png;base64,',
    'data:image/png;base64,AAAA',
    'data:text/html;base64,PHNjcmlwdD4=',
  ),
  fc.constantFrom(
    new RawJson('"\\ud800"'),
    new RawJson('"x\\udc00y"'),
    new RawJson('"\\udbff\\udfff\\ud800"'),
    new RawJson('"\\u0000\\u0001\\u001f"'),
  ),
  fc.constantFrom(
    new Repeat('a', 100_000),
    new Repeat('😀', 25_000),
    new Repeat('\u202E', 2_000),
    new Repeat('%', 5_000),
    new Repeat('\\', 10_000),
    new Repeat('{{', 3_000),
  ),
  fc.integer({ min: 1, max: 5_000 }).map((count) => new Repeat('x', count)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Values of the wrong shape, nesting hundreds and thousands deep, and objects that try to reach prototypes. */
export const hostileStructure: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [null], [[]], { '': '' }, [1, 'a', null, {}]),
  fc.constantFrom(deepArray(100), deepObject(100), deepArray(5_000), deepObject(5_000), deepArray(20_000)),
  fc.constantFrom(
    new RawJson('{"__proto__":{"polluted":"yes"}}'),
    new RawJson('{"constructor":{"prototype":{"polluted":"yes"}}}'),
    new RawJson('{"prototype":{"polluted":"yes"}}'),
    new RawJson('{"a":1,"a":2}'),
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.object({ maxDepth: 2, withNullPrototype: false }),
);

/** Any value that is likely wrong where a body property is expected. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(hostileNumber, hostileString, hostileStructure);

/** Property names a body should not have. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'id',
    'tenantId',
    'createdAt',
    'deletedAt',
    '',
    ' ',
    '\u0000',
    '😀',
    'a'.repeat(300),
  ),
  fc.string({ maxLength: 12 }),
);

/** Body texts that are not one JSON value, or not JSON at all. */
export const malformedJson: fc.Arbitrary<RawJson> = fc.constantFrom(
  new RawJson(''),
  new RawJson('{'),
  new RawJson('}'),
  new RawJson('{"a":1,}'),
  new RawJson('{"a":1}{"b":2}'),
  new RawJson('{"a":1} trailing'),
  new RawJson("{'a':1}"),
  new RawJson('{a:1}'),
  new RawJson('NaN'),
  new RawJson('{"a":NaN}'),
  new RawJson('{"a":Infinity}'),
  new RawJson('{"a":undefined}'),
  new RawJson('\uFEFF{}'),
  new RawJson('{"a":"\u0000"}'),
  new RawJson('{"a":"unterminated'),
  new RawJson('{"a":"\\x41"}'),
  new RawJson('{"a":01}'),
  new RawJson(' '.repeat(10_000)),
  new RawJson('"just a string"'),
  new RawJson('42'),
  new RawJson('null'),
  new RawJson('[]'),
  new RawJson('{"__proto__":1}'),
);

export type BodyMutation =
  | { kind: 'valid' }
  | { kind: 'replace'; key: string; value: unknown }
  | { kind: 'drop'; key: string }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'whole'; value: unknown }
  | { kind: 'malformed'; text: RawJson };

/** A mutation of a body whose known properties are `keys`; valid bodies stay the most common case. */
export function bodyMutation(keys: string[]): fc.Arbitrary<BodyMutation> {
  const someKey = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('name');
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<BodyMutation>({ kind: 'valid' }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), key: someKey, value: hostileValue }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), key: someKey }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('extra' as const), key: hostileKey, value: hostileValue }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('whole' as const), value: hostileValue }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('malformed' as const), text: malformedJson }) },
  );
}

/** The body a mutation makes of a valid one (a plain object, or whatever the valid body was). */
export function applyMutation(valid: unknown, mutation: BodyMutation): unknown {
  const base =
    typeof valid === 'object' && valid !== null && !Array.isArray(valid) ? (valid as Record<string, unknown>) : {};
  switch (mutation.kind) {
    case 'valid':
      return valid;
    case 'replace':
      return withOwnKey(base, mutation.key, mutation.value);
    case 'drop': {
      const copy = { ...base };
      delete copy[mutation.key];
      return copy;
    }
    case 'extra':
      return withOwnKey(base, mutation.key, mutation.value);
    case 'whole':
      return mutation.value;
    case 'malformed':
      return mutation.text;
  }
}

/** Path segments that are not the id of anything the key may reach, written as they go on the request line. */
export const hostileIdSegment: fc.Arbitrary<string | Repeat> = fc.oneof(
  fc.constantFrom<string | Repeat>(
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
    '{00000000-0000-0000-0000-000000000000}',
    '%00',
    'a%00b',
    '..%2f..%2fkeys',
    '..%2F',
    '%2e%2e',
    '..',
    '.',
    '%',
    '%ZZ',
    '%C0%AF',
    '%F0%9F%98%80',
    '%E2%80%AE',
    '%20',
    'null',
    'undefined',
    '-1',
    '0',
    '1e11',
    "'%20OR%20'1'%3D'1",
    new Repeat('a', 5_000),
    new Repeat('1', 400),
  ),
  fc.uuid().map((id) => id),
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }).map((text) => encodeURIComponent(text)),
);

/** Version numbers in paths: in range, out of range, not integers, not numbers. */
export const hostileVersionSegment: fc.Arbitrary<string | Repeat> = fc.constantFrom<string | Repeat>(
  '1',
  '2',
  '3',
  '0',
  '-1',
  '1.5',
  '1e3',
  '1e11',
  '100000000000',
  '2147483647',
  '2147483648',
  '-2147483649',
  new Repeat('9', 400),
  'abc',
  'NaN',
  'Infinity',
  '0x10',
  '%00',
  '1%00',
  '%201',
  '1%20',
  '%D9%A1',
  '+1',
  '01',
);

/** Query values: what the schema allows, bounds, and the things a query string can carry. */
export const hostileQueryValue: fc.Arbitrary<string | Repeat> = fc.oneof<fc.Arbitrary<string | Repeat>[]>(
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1',
    '1.5',
    '1e11',
    '2147483648',
    '9'.repeat(400),
    'NaN',
    'true',
    'false',
    'TRUE',
    'yes',
    'null',
    'hour',
    'day',
    'Api',
    'Live',
    'Public',
    '2026-01-01',
    '2026-13-45',
    'not-a-date',
    '1970-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '+275760-09-13T00:00:00.000Z',
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    "'; DROP TABLE x; --",
    '%',
    '😀',
  ),
  fc.constant(new Repeat('a', 5_000)),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
