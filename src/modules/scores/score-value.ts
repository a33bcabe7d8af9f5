import type { ScoreDataType, ScoreValue } from './score-types';

/** What a score's value is checked against: its config's type and allowed values. */
export interface ScoreValueRules {
  dataType: ScoreDataType;
  minimum: number | null;
  maximum: number | null;
  categories: string[] | null;
}

/** How a value is stored: booleans as 0 or 1 and numbers as they are in valueNumber, categories in valueCategory. */
export interface StoredScoreValue {
  valueNumber: number | null;
  valueCategory: string | null;
}

/** A score's comment is at most this many characters. */
export const SCORE_COMMENT_MAX_LENGTH = 2000;

/**
 * What is wrong with `value` for a score of config `name`, or null: a boolean score takes true or false, a numeric one a
 * finite number within the config's bounds (inclusive), a categorical one one of the config's categories.
 */
export function scoreValueProblem(name: string, rules: ScoreValueRules, value: unknown): string | null {
  switch (rules.dataType) {
    case 'boolean':
      return typeof value === 'boolean' ? null : `value of score '${name}' must be true or false`;
    case 'numeric': {
      const { minimum, maximum } = rules;
      if (typeof value !== 'number' || !Number.isFinite(value)) return `value of score '${name}' must be a number`;
      if ((minimum !== null && value < minimum) || (maximum !== null && value > maximum)) {
        return `value of score '${name}' must be between ${minimum} and ${maximum}`;
      }
      return null;
    }
    case 'categorical': {
      const categories = rules.categories ?? [];
      if (typeof value === 'string' && categories.includes(value)) return null;
      return `value of score '${name}' must be one of: ${categories.join(', ')}`;
    }
  }
}

/** The stored form of a value `scoreValueProblem` accepted. */
export function storedScoreValue(dataType: ScoreDataType, value: ScoreValue): StoredScoreValue {
  switch (dataType) {
    case 'boolean':
      return { valueNumber: value === true ? 1 : 0, valueCategory: null };
    case 'numeric':
      return { valueNumber: value as number, valueCategory: null };
    case 'categorical':
      return { valueNumber: null, valueCategory: value as string };
  }
}

/** A stored value typed back: a boolean, a number or a category. */
export function scoreValueOf(dataType: ScoreDataType, stored: StoredScoreValue): ScoreValue {
  switch (dataType) {
    case 'boolean':
      return stored.valueNumber === 1;
    case 'numeric':
      return Number(stored.valueNumber);
    case 'categorical':
      return stored.valueCategory ?? '';
  }
}

/** What is wrong with a score's comment, or null (absent and null are fine). */
export function scoreCommentProblem(comment: unknown): string | null {
  if (comment === undefined || comment === null) return null;
  if (typeof comment !== 'string') return 'comment must be a string';
  if (comment.length > SCORE_COMMENT_MAX_LENGTH) {
    return `comment must be at most ${SCORE_COMMENT_MAX_LENGTH} characters`;
  }
  return null;
}
