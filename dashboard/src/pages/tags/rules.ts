// Request tags on the dashboard, free of React: the filters as the route's query and the API take them (`tag=key:value`,
// repeatable, and `hasTag=key`), a filter typed by hand, the tags of a log row in a stable order, and the names of the
// groups of a by-tag breakdown.

/** A tag key: a lowercase letter, then up to 39 lowercase letters, digits, `_`, `.` or `-` (as the service checks). */
const TAG_KEY_PATTERN = /^[a-z][a-z0-9_.-]{0,39}$/;
const TAG_KEY_RULE = 'a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -';
const MAX_TAG_VALUE_LENGTH = 128;

/** A tag of a log row, or a filter asking for it: `value` null asks for the key with any value (`hasTag`). */
export interface Tag {
  key: string;
  value: string | null;
}

/** The tag filters of a view, as the API's query takes them; both lists empty when none. */
export interface TagFilters {
  tag: string[];
  hasTag: string[];
}

export const NO_TAG_FILTERS: TagFilters = { tag: [], hasTag: [] };

/** The label of the group of a by-tag breakdown holding the values beyond the most frequent and the untagged calls. */
export const OTHER_TAG_GROUP = 'Other values or untagged';

/** What is wrong with a tag key, or null. */
export function tagKeyProblem(key: string): string | null {
  return TAG_KEY_PATTERN.test(key) ? null : `A tag key is ${TAG_KEY_RULE}.`;
}

/** What is wrong with a tag value, or null: 1 to 128 characters. */
function tagValueProblem(value: string): string | null {
  if (value.length === 0) return 'A tag value has 1 to 128 characters.';
  return [...value].length > MAX_TAG_VALUE_LENGTH
    ? `A tag value has at most ${MAX_TAG_VALUE_LENGTH} characters.`
    : null;
}

/** `key:value`, as the `tag` filter takes it; the bare key for a `hasTag` filter. */
export function tagText({ key, value }: Tag): string {
  return value === null ? key : `${key}:${value}`;
}

/**
 * A filter typed by hand: `key:value` (split at the first colon, so a value may hold colons) or a bare `key` (any
 * value). Spaces around the key are ignored, the value is kept as typed.
 */
export function parseTagFilter(text: string): { tag: Tag } | { problem: string } {
  const colon = text.indexOf(':');
  const key = (colon < 0 ? text : text.slice(0, colon)).trim();
  if (key === '') return { problem: 'Type a tag as key:value, or a key alone for any value.' };
  const keyProblem = tagKeyProblem(key);
  if (keyProblem) return { problem: keyProblem };
  if (colon < 0) return { tag: { key, value: null } };
  const value = text.slice(colon + 1);
  const valueProblem = tagValueProblem(value);
  return valueProblem ? { problem: valueProblem } : { tag: { key, value } };
}

/**
 * The tag filters of a route's query, each kept once and in order; a hand-edited value that is not a valid filter is
 * left out, so a broken link still shows the page.
 */
export function tagFiltersOf(query: URLSearchParams): TagFilters {
  const valid = (texts: string[], hasValue: boolean) =>
    [...new Set(texts)].filter((text) => {
      const parsed = parseTagFilter(text);
      return 'tag' in parsed && (parsed.tag.value !== null) === hasValue;
    });
  return { tag: valid(query.getAll('tag'), true), hasTag: valid(query.getAll('hasTag'), false) };
}

/** The filters as tags, `key:value` ones first, for showing them. */
export function filterTags(filters: TagFilters): Tag[] {
  const tags: Tag[] = [];
  for (const text of [...filters.tag, ...filters.hasTag]) {
    const parsed = parseTagFilter(text);
    if ('tag' in parsed) tags.push(parsed.tag);
  }
  return tags;
}

/** The filters with `tag` added (nothing changes when it is already there). */
export function withTagFilter(filters: TagFilters, tag: Tag): TagFilters {
  const text = tagText(tag);
  if (tag.value === null)
    return filters.hasTag.includes(text) ? filters : { ...filters, hasTag: [...filters.hasTag, text] };
  return filters.tag.includes(text) ? filters : { ...filters, tag: [...filters.tag, text] };
}

/** The filters without `tag`. */
export function withoutTagFilter(filters: TagFilters, tag: Tag): TagFilters {
  const text = tagText(tag);
  return tag.value === null
    ? { ...filters, hasTag: filters.hasTag.filter((other) => other !== text) }
    : { ...filters, tag: filters.tag.filter((other) => other !== text) };
}

export const hasTagFilters = (filters: TagFilters) => filters.tag.length > 0 || filters.hasTag.length > 0;

/** What a view's tag filters ask, in words: "team is support or sales, and env is set". */
export function describeTagFilters(filters: TagFilters): string {
  const byKey = new Map<string, string[]>();
  for (const { key, value } of filterTags(filters)) {
    const values = byKey.get(key) ?? [];
    if (value !== null) values.push(value);
    byKey.set(key, values);
  }
  return [...byKey]
    .map(([key, values]) => (values.length === 0 ? `${key} is set` : `${key} is ${values.join(' or ')}`))
    .join(', and ');
}

/** The query values of the filters (none when empty), to spread into a route's query or an API call. */
export function tagQuery(filters: TagFilters): { tag?: string[]; hasTag?: string[] } {
  return {
    tag: filters.tag.length > 0 ? filters.tag : undefined,
    hasTag: filters.hasTag.length > 0 ? filters.hasTag : undefined,
  };
}

/** A log row's tags, by key in alphabetical order. */
export function sortedTags(tags: Record<string, string> | null | undefined): Tag[] {
  return Object.entries(tags ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => ({ key, value }));
}

/** The name of a by-tag group: its value, or the group of the other values and the untagged calls. */
export function tagGroupLabel(value: string | null): string {
  return value === null ? OTHER_TAG_GROUP : value;
}

/** A link's query of tag filters (`tag=team%3Asupport&hasTag=env`), '' when none. */
export function tagSearch(filters: TagFilters): string {
  const query = new URLSearchParams();
  for (const text of filters.tag) query.append('tag', text);
  for (const text of filters.hasTag) query.append('hasTag', text);
  return query.toString();
}

/** A link to Logs or Stats (`path`): the calls of `endpointId` (of every endpoint when none) that the filters keep. */
export function callsHref(path: string, endpointId: string | undefined, filters: TagFilters): string {
  const search = [endpointId ? `endpointId=${endpointId}` : '', tagSearch(filters)].filter(Boolean).join('&');
  return search ? `${path}?${search}` : path;
}

/** What a `groupBy` query value that breaks the figures down by a tag's values starts with. */
const GROUP_BY_TAG = 'tag:';

/** The `groupBy` query value that breaks the figures down by the values of `key`; undefined without a key. */
export function groupByTag(key: string | undefined): string | undefined {
  return key ? `${GROUP_BY_TAG}${key}` : undefined;
}

/** The tag key of a `groupBy=tag:<key>` query value, or undefined for any other value. */
export function groupByTagOf(groupBy: string | null): string | undefined {
  if (!groupBy?.startsWith(GROUP_BY_TAG)) return undefined;
  const key = groupBy.slice(GROUP_BY_TAG.length);
  return tagKeyProblem(key) ? undefined : key;
}
