import fc from 'fast-check';

/**
 * The values fuzz cases are made of. Besides plain JSON values they hold pieces JSON.stringify cannot write (raw JSON
 * text such as `1e309` or `"\ud800"`, nesting thousands deep), references to fixtures resolved only when the request
 * is sent (so a printed counterexample replays on fresh fixtures), and long repeated strings that print short.
 */

/** JSON text written as it is. */
export class RawJson {
  constructor(
    readonly text: string,
    readonly label = text.length > 80 ? `${text.slice(0, 60)}… (${text.length} chars)` : text,
  ) {}

  [fc.toStringMethod](): string {
    return `raw(${JSON.stringify(this.label)})`;
  }
}

/** A fixture's id (or key), looked up when the request is built. */
export class Ref {
  constructor(readonly name: string) {}

  [fc.toStringMethod](): string {
    return `ref(${this.name})`;
  }
}

/** `unit` repeated `count` times: a long string that prints as its recipe. */
export class Repeat {
  constructor(
    readonly unit: string,
    readonly count: number,
  ) {}

  get value(): string {
    return this.unit.repeat(this.count);
  }

  [fc.toStringMethod](): string {
    return `${JSON.stringify(this.unit)}.repeat(${this.count})`;
  }
}

export type Resolve = (ref: Ref) => string;

/** An object with `key` as an own, enumerable property, `__proto__` included (an object literal cannot do that). */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const existing of Object.keys(target))
    Object.defineProperty(copy, existing, {
      value: target[existing],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** The JSON text of a fuzz value; undefined properties are left out, as JSON.stringify does. */
export function toJsonText(value: unknown, resolve: Resolve): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof Ref) return JSON.stringify(resolve(value));
  if (value instanceof Repeat) return JSON.stringify(value.value);
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : toJsonText(item, resolve))).join(',')}]`;
  if (typeof value === 'object') {
    const members: string[] = [];
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${toJsonText(member, resolve)}`);
    }
    return `{${members.join(',')}}`;
  }
  return 'null';
}

/** A string fit for a URL path segment or query value: Refs resolved, Repeats expanded. */
export function toText(value: unknown, resolve: Resolve): string {
  if (value instanceof Ref) return resolve(value);
  if (value instanceof Repeat) return value.value;
  if (value instanceof RawJson) return value.text;
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** `[[[…]]]` nested `depth` deep. */
export const deepArray = (depth: number) =>
  new RawJson('['.repeat(depth) + ']'.repeat(depth), `[ nested ${depth} deep ]`);

/** `{"a":{"a":…1}}` nested `depth` deep. */
export const deepObject = (depth: number) =>
  new RawJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth), `{ nested ${depth} deep }`);
