import { parseTagFilter, tagKeyProblem } from '../../common/tags/tags';
import type { TagFilter } from '../../common/tags/tag-filter-sql';

export { type TagFilter, tagConditions } from '../../common/tags/tag-filter-sql';

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
