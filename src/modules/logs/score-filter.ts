import { SCORE_NAME_PATTERN } from '../scores/score-config-rules';

/** A value in a `score=name:value` filter is at most this long (a category's longest). */
const MAX_FILTER_VALUE_LENGTH = 64;

/**
 * Which scores a log row must have: for each name of `values`, one of its values (`score=tone:formal&score=tone:casual`);
 * each name of `present`, any value (`score=helpful`). Different names must all match.
 */
export interface ScoreFilter {
  values: Map<string, string[]>;
  present: string[];
}

/** A `score` query value: `name`, or `name:value`; null when it is neither. */
export function parseScoreFilter(text: string): { name: string; value?: string } | null {
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  if (!SCORE_NAME_PATTERN.test(name)) return null;
  if (colon < 0) return { name };
  const value = text.slice(colon + 1);
  if (value.length === 0 || value.length > MAX_FILTER_VALUE_LENGTH) return null;
  return { name, value };
}

/** What is wrong with a `score` query value, or null. */
export function scoreFilterProblem(text: unknown): string | null {
  if (typeof text !== 'string' || parseScoreFilter(text) === null) {
    return `each score must be a score name, or name:value (a value of 1 to ${MAX_FILTER_VALUE_LENGTH} characters)`;
  }
  return null;
}

/** The filter of the `score` query values, checked by the DTO; undefined for none. */
export function scoreFilterOf(score: string[] | undefined): ScoreFilter | undefined {
  if (!score?.length) return undefined;
  const values = new Map<string, string[]>();
  const present = new Set<string>();
  for (const text of score) {
    const { name, value } = parseScoreFilter(text)!;
    if (value === undefined) {
      present.add(name);
      continue;
    }
    const list = values.get(name);
    if (!list) values.set(name, [value]);
    else if (!list.includes(value)) list.push(value);
  }
  return { values, present: [...present].filter((name) => !values.has(name)) };
}

/**
 * The SQL conditions of a filter on the rows of `logs` (the execution_logs alias), its values appended to `params`:
 * one EXISTS per name on the row's scores, which the unique (log_id, name) index answers (or, for a rare score, the
 * tenant's scores of that name, by their own index). A value matches a boolean
 * score as `true` or `false`, a numeric one as the same number, a categorical one as the same text.
 */
export function scoreConditions(filter: ScoreFilter | undefined, params: unknown[], logs = 'execution_logs'): string[] {
  if (!filter) return [];
  const placeholder = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const scored = (name: string, valueConditions: () => string | undefined) => {
    const nameMatch = `s.log_id = ${logs}.id AND s.tenant_id = ${logs}.tenant_id AND s.name = ${placeholder(name)}`;
    const values = valueConditions();
    return `EXISTS (SELECT 1 FROM execution_scores s WHERE ${nameMatch}${values ? ` AND (${values})` : ''})`;
  };
  const valueMatch = (value: string) => {
    const options = [`(s.data_type = 'categorical' AND s.value_category = ${placeholder(value)})`];
    if (value === 'true' || value === 'false') {
      options.push(`(s.data_type = 'boolean' AND s.value_number = ${placeholder(value === 'true' ? 1 : 0)})`);
    }
    const number = Number(value);
    if (value.trim() !== '' && Number.isFinite(number)) {
      options.push(`(s.data_type = 'numeric' AND s.value_number = ${placeholder(number)})`);
    }
    return options.join(' OR ');
  };
  const conditions: string[] = [];
  for (const [name, values] of filter.values) {
    conditions.push(scored(name, () => values.map(valueMatch).join(' OR ')));
  }
  for (const name of filter.present) conditions.push(scored(name, () => undefined));
  return conditions;
}
