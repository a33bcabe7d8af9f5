import { parseTagFilter, tagKeyProblem } from '../../common/tags/tags';

/**
 * Which tags a log row must carry: for each key of `values`, one of its values (`tag=team:a&tag=team:b`); each key
 * of `present`, any value (`hasTag=team`). Different keys must all match.
 */
export interface TagFilter {
  values: Map<string, string[]>;
  present: string[];
}

/** The filter of the `tag` (`key:value`) and `hasTag` (`key`) query values, checked by the DTO; undefined for none. */
export function tagFilterOf(tag: string[] | undefined, hasTag: string[] | undefined): TagFilter | undefined {
  if (!tag?.length && !hasTag?.length) return undefined;
  const values = new Map<string, string[]>();
  for (const text of tag ?? []) {
    const { key, value } = parseTagFilter(text)!;
    const list = values.get(key);
    if (!list) values.set(key, [value]);
    else if (!list.includes(value)) list.push(value);
  }
  return { values, present: [...new Set(hasTag ?? [])].filter((key) => !values.has(key)) };
}

/** The keys a filter constrains. */
export function tagFilterKeys(filter: TagFilter | undefined): string[] {
  return filter ? [...filter.values.keys(), ...filter.present] : [];
}

/** A filter on a single key: one of `values` (any value when null). Null for no filter, or one on several keys. */
export function singleKeyFilter(filter: TagFilter | undefined): { key: string; values: string[] | null } | null {
  const keys = tagFilterKeys(filter);
  if (keys.length !== 1) return null;
  return { key: keys[0], values: filter!.values.get(keys[0]) ?? null };
}

/**
 * The SQL conditions of a filter on the `tags` jsonb column, its values appended to `params`: containment (`@>`) and
 * key existence (`?`), which the column's GIN index answers.
 */
export function tagConditions(filter: TagFilter | undefined, params: unknown[], column = 'tags'): string[] {
  if (!filter) return [];
  const conditions: string[] = [];
  for (const [key, values] of filter.values) {
    const alternatives = values.map((value) => {
      params.push(JSON.stringify({ [key]: value }));
      return `${column} @> $${params.length}::jsonb`;
    });
    conditions.push(alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' OR ')})`);
  }
  for (const key of filter.present) {
    params.push(key);
    conditions.push(`${column} ? $${params.length}`);
  }
  return conditions;
}

/** What is wrong with a `tag` query value, or null. */
export function tagFilterProblem(text: unknown): string | null {
  if (typeof text !== 'string' || parseTagFilter(text) === null) {
    return 'each tag must be key:value (a tag key, a colon, and a value of 1 to 128 characters)';
  }
  return null;
}

/** What is wrong with a `hasTag` query value, or null. */
export function tagKeyFilterProblem(text: unknown): string | null {
  if (typeof text !== 'string' || tagKeyProblem(text)) return 'each hasTag must be a tag key';
  return null;
}
