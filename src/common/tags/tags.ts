/** Labels a caller gives an execution (`X-Tags`, a test run's `tags`, MCP's `tags`) or a key gives all of its calls. */
export type Tags = Record<string, string>;

/** A tag key: a lowercase letter, then up to 39 lowercase letters, digits, `_`, `.` or `-`. */
export const TAG_KEY_PATTERN = /^[a-z][a-z0-9_.-]{0,39}$/;
export const MAX_TAGS = 10;
export const MAX_TAG_VALUE_LENGTH = 128;
/** The longest X-Tags header, in bytes. */
export const MAX_TAGS_HEADER_BYTES = 2048;
export const TAGS_HEADER = 'X-Tags';

export const NO_TAGS: Tags = Object.freeze({});

export type TagsParse = { tags: Tags; problem?: undefined } | { problem: string };

const KEY_RULE = 'a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -';

/** What is wrong with a tag's key, or null. */
export function tagKeyProblem(key: string): string | null {
  return TAG_KEY_PATTERN.test(key) ? null : `the key '${shown(key)}' is not ${KEY_RULE}`;
}

/** What is wrong with a tag's (decoded) value, or null. */
export function tagValueProblem(key: string, value: string): string | null {
  if (value.length === 0) return `the tag '${key}' has an empty value`;
  // Counted in characters (code points), as a caller counts them; cheap for ASCII.
  if (value.length > MAX_TAG_VALUE_LENGTH && [...value].length > MAX_TAG_VALUE_LENGTH) {
    return `the value of tag '${key}' is longer than ${MAX_TAG_VALUE_LENGTH} characters`;
  }
  // PostgreSQL cannot store a NUL character.
  if (value.includes('\u0000')) return `the value of tag '${key}' contains a NUL character`;
  return null;
}

/** A character an X-Tags header may not carry as it is (a value's others are percent-encoded). */
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;

/**
 * Parses `X-Tags: key=value[,key=value...]`: entries separated by commas (spaces around them ignored), each split at
 * its first `=`; `%`, `,` and `=` (and any other character) may be percent-encoded in a value, which is decoded as
 * UTF-8. At most MAX_TAGS tags and MAX_TAGS_HEADER_BYTES bytes; a key given twice is refused, so nothing is dropped.
 * An absent or blank header is no tags. The problem names the offending tag.
 */
export function parseTagsHeader(header: string | undefined): TagsParse {
  if (header === undefined) return { tags: NO_TAGS };
  if (Buffer.byteLength(header, 'latin1') > MAX_TAGS_HEADER_BYTES) {
    return { problem: `${TAGS_HEADER} is longer than ${MAX_TAGS_HEADER_BYTES} bytes` };
  }
  if (header.trim() === '') return { tags: NO_TAGS };
  // HTTP carries header bytes, not text: a raw non-ASCII byte would be read as Latin-1 and stored garbled.
  const unencoded = NOT_PRINTABLE_ASCII.exec(header);
  if (unencoded) {
    return {
      problem: `${TAGS_HEADER} has a character that is not printable ASCII at position ${unencoded.index + 1}: percent-encode it as UTF-8`,
    };
  }
  const entries = header.split(',');
  const tags: Tags = {};
  for (const [index, raw] of entries.entries()) {
    const entry = raw.trim();
    if (index === MAX_TAGS) {
      return { problem: `${TAGS_HEADER} has more than ${MAX_TAGS} tags, from '${shown(entry)}' on` };
    }
    if (entry === '') return { problem: `${TAGS_HEADER} has an empty entry: each tag is key=value` };
    const equals = entry.indexOf('=');
    if (equals < 0) return { problem: `${TAGS_HEADER}: the tag '${shown(entry)}' is not key=value` };
    const key = entry.slice(0, equals);
    const keyProblem = tagKeyProblem(key);
    if (keyProblem) return { problem: `${TAGS_HEADER}: ${keyProblem}` };
    if (Object.hasOwn(tags, key)) return { problem: `${TAGS_HEADER}: the tag '${key}' is given more than once` };
    const value = percentDecoded(entry.slice(equals + 1));
    if (value === null) {
      return { problem: `${TAGS_HEADER}: the value of tag '${key}' has an invalid percent-encoding` };
    }
    const valueProblem = tagValueProblem(key, value);
    if (valueProblem) return { problem: `${TAGS_HEADER}: ${valueProblem}` };
    tags[key] = value;
  }
  return { tags };
}

/**
 * Checks tags given as a JSON object (a test run's or MCP's `tags`, a key's `defaultTags`): at most MAX_TAGS, each key
 * and value by the header's rules (values are not percent-encoded here). One message per problem, naming `field`.
 */
export function tagsObjectProblems(value: unknown, field: string): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [`${field} must be an object of tag values (strings) by key`];
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_TAGS) return [`${field} has ${entries.length} tags; at most ${MAX_TAGS} are allowed`];
  const problems: string[] = [];
  for (const [key, tagValue] of entries) {
    const keyProblem = tagKeyProblem(key);
    if (keyProblem) problems.push(`${field}: ${keyProblem}`);
    else if (typeof tagValue !== 'string') problems.push(`${field}: the value of tag '${key}' must be a string`);
    else {
      const valueProblem = tagValueProblem(key, tagValue);
      if (valueProblem) problems.push(`${field}: ${valueProblem}`);
    }
  }
  return problems;
}

/** A key's default tags under the request's own: a tag the request gives wins over the key's of the same key. */
export function mergeTags(defaults: Tags | undefined, own: Tags): Tags {
  if (!defaults || isEmpty(defaults)) return own;
  if (isEmpty(own)) return defaults;
  return { ...defaults, ...own };
}

export function isEmpty(tags: Tags): boolean {
  for (const key in tags) if (Object.hasOwn(tags, key)) return false;
  return true;
}

/** A filter `key:value` (split at the first colon: keys hold none), or null when it is not one. */
export function parseTagFilter(text: string): { key: string; value: string } | null {
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const key = text.slice(0, colon);
  const value = text.slice(colon + 1);
  if (tagKeyProblem(key) || tagValueProblem(key, value)) return null;
  return { key, value };
}

function percentDecoded(text: string): string | null {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** A caller's text quoted in a message: at most 50 characters of it. */
function shown(text: string): string {
  return text.length > 50 ? `${text.slice(0, 50)}…` : text;
}
