import type { ScoreDataType } from './score-types';

/** A score config's name: a lowercase letter, then up to 63 lowercase letters, digits, `_`, `.` or `-`. */
export const SCORE_NAME_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;
/** A tenant declares at most this many score configs. */
export const MAX_SCORE_CONFIGS = 50;
export const MIN_CATEGORIES = 2;
export const MAX_CATEGORIES = 20;
export const MAX_CATEGORY_LENGTH = 64;
export const MAX_SCORE_DESCRIPTION_LENGTH = 1000;
/**
 * A numeric config's bounds lie within ±this, so its scores, their sums and their sums of squares (which the statistics
 * keep per hour and day) stay exact enough and far from overflowing a double.
 */
export const MAX_SCORE_BOUND = 1e15;

/** The type-dependent part of a config: what its values may be. */
export interface ScoreConfigShape {
  dataType: ScoreDataType;
  minimum: number | null;
  maximum: number | null;
  categories: string[] | null;
}

/** One problem of a config, naming its field. */
export interface ScoreConfigProblem {
  field: string;
  message: string;
}

/**
 * What is wrong with a config's values for its type: a numeric config needs finite `minimum` < `maximum`; a
 * categorical one 2–20 distinct non-empty categories of at most 64 characters; bounds belong to numeric configs only and
 * categories to categorical ones only. (Each value's own type and size is checked with the request body.)
 */
export function scoreConfigProblems(shape: ScoreConfigShape): ScoreConfigProblem[] {
  const problems: ScoreConfigProblem[] = [];
  const { dataType, minimum, maximum, categories } = shape;
  if (dataType === 'numeric') {
    if (minimum === null) problems.push({ field: 'minimum', message: 'minimum is required for numeric scores' });
    if (maximum === null) problems.push({ field: 'maximum', message: 'maximum is required for numeric scores' });
    if (minimum !== null && maximum !== null && !(minimum < maximum)) {
      problems.push({ field: 'maximum', message: 'maximum must be greater than minimum' });
    }
  } else {
    if (minimum !== null) problems.push({ field: 'minimum', message: 'minimum applies to numeric scores only' });
    if (maximum !== null) problems.push({ field: 'maximum', message: 'maximum applies to numeric scores only' });
  }
  if (dataType === 'categorical') {
    if (categories === null) {
      problems.push({ field: 'categories', message: 'categories are required for categorical scores' });
    } else {
      if (categories.length < MIN_CATEGORIES || categories.length > MAX_CATEGORIES) {
        problems.push({
          field: 'categories',
          message: `categories must hold ${MIN_CATEGORIES} to ${MAX_CATEGORIES} values`,
        });
      }
      if (new Set(categories).size !== categories.length) {
        problems.push({ field: 'categories', message: 'categories must be distinct' });
      }
      categories.forEach((category, index) => {
        if (category.length === 0 || category.length > MAX_CATEGORY_LENGTH) {
          problems.push({
            field: `categories.${index}`,
            message: `categories.${index} must be 1 to ${MAX_CATEGORY_LENGTH} characters`,
          });
        }
      });
    }
  } else if (categories !== null) {
    problems.push({ field: 'categories', message: 'categories apply to categorical scores only' });
  }
  return problems;
}
