/** What kind of value a score config takes. */
export type ScoreDataType = 'boolean' | 'numeric' | 'categorical';
export const SCORE_DATA_TYPES: ScoreDataType[] = ['boolean', 'numeric', 'categorical'];

/** Who recorded a score: an application (`POST /api/v1/_scores`), an admin (annotation) or an evaluation run. */
export type ScoreSource = 'api' | 'annotation' | 'eval';
export const SCORE_SOURCES: ScoreSource[] = ['api', 'annotation', 'eval'];

/** A score's value as the API gives and answers it. */
export type ScoreValue = boolean | number | string;

/**
 * An evaluation records each check's result on the item's log row as the boolean score `eval.<check type>` (source
 * `eval`), declared or not.
 */
export const EVAL_SCORE_PREFIX = 'eval.';
