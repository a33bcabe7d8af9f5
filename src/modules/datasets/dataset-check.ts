/**
 * The checks a dataset runs on every item's output (at most MAX_CHECKS). An item passes when all of them pass.
 *
 * - `schema`: the output matches the endpoint's output fields (always on when the endpoint has some).
 * - `equals`: the output equals the item's `expectedOutput` (deep JSON equality).
 * - `field_equals`: one field of the output (`path`, dot-separated) equals the same field of `expectedOutput`.
 * - `contains` / `not_contains`: the output's JSON text holds (or does not hold) `value`.
 * - `regex`: the output's JSON text matches `pattern` (at most MAX_REGEX_LENGTH characters), with a time bound.
 * - `max_latency_ms` / `max_cost_usd`: the call took at most `value` milliseconds, or cost at most `value` dollars.
 * - `judge`: a model (`llmModel`) reads `rubric`, a Liquid template over `inputs`, `output` and `expected`, and
 *   answers `{pass, score, reason}`; the check passes when it says pass and its score is at least `threshold`.
 */
export type DatasetCheck =
  | { type: 'schema' }
  | { type: 'equals' }
  | { type: 'field_equals'; path: string }
  | { type: 'contains' | 'not_contains'; value: string; caseSensitive: boolean }
  | { type: 'regex'; pattern: string }
  | { type: 'max_latency_ms'; value: number }
  | { type: 'max_cost_usd'; value: number }
  | { type: 'judge'; llmModel: string; rubric: string; threshold: number };

export type DatasetCheckType = DatasetCheck['type'];

export const DATASET_CHECK_TYPES: readonly DatasetCheckType[] = [
  'schema',
  'equals',
  'field_equals',
  'contains',
  'not_contains',
  'regex',
  'max_latency_ms',
  'max_cost_usd',
  'judge',
];

/** At most this many checks per dataset. */
export const MAX_CHECKS = 20;
/** A regex check's pattern is at most this long. */
export const MAX_REGEX_LENGTH = 500;

/** One check's result on one output: whether it passed, and why not (or the judge's reason). */
export interface CheckResult {
  type: DatasetCheckType;
  pass: boolean;
  reason: string | null;
}
