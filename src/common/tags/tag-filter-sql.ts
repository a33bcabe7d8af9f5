/**
 * Which tags a log row must carry: for each key of `values`, one of its values (`tag=team:a&tag=team:b`); each key
 * of `present`, any value (`hasTag=team`). Different keys must all match.
 */
export interface TagFilter {
  values: Map<string, string[]>;
  present: string[];
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
