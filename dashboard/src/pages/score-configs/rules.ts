// Score configs on the dashboard, free of React: the form's draft (every value as typed), the checks it passes before
// it is sent (the service's own rules, so a mistake is explained at its field), the request body, and a config's
// values in words.
import { bounds } from '../../api/bounds';
import type { Schemas } from '../../api/client';

export type ScoreConfig = Schemas['ScoreConfigResponse'];
export type ScoreDataType = ScoreConfig['dataType'];
export type ScoreConfigBody = Schemas['CreateScoreConfigDto'];

/** A score's name: a lowercase letter, then up to 63 lowercase letters, digits, `_`, `.` or `-`. */
const SCORE_NAME_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;
export const SCORE_NAME_RULE = 'A lowercase letter followed by up to 63 lowercase letters, digits, _, . or -';
const MIN_CATEGORIES = 2;
export const MAX_CATEGORIES = bounds.CreateScoreConfigDto.categories.maxItems;
const MAX_CATEGORY_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = bounds.CreateScoreConfigDto.description.maxLength;

export const DATA_TYPES: { value: ScoreDataType; label: string; hint: string }[] = [
  { value: 'boolean', label: 'Boolean (yes or no)', hint: 'true or false, such as a thumbs up or down.' },
  { value: 'numeric', label: 'Numeric (a number in a range)', hint: 'A number from a minimum to a maximum.' },
  { value: 'categorical', label: 'Categorical (one of a list)', hint: 'One of 2 to 20 categories.' },
];

/** The form's values as typed: bounds as text, categories one per line. */
export interface ScoreConfigDraft {
  name: string;
  dataType: ScoreDataType;
  minimum: string;
  maximum: string;
  categories: string;
  description: string;
}

export type DraftField = keyof ScoreConfigDraft;
export type DraftProblems = Partial<Record<DraftField, string>>;

/** A new config's draft, or an existing one's as the form shows it. */
export function draftOf(config?: ScoreConfig): ScoreConfigDraft {
  return {
    name: config?.name ?? '',
    dataType: config?.dataType ?? 'boolean',
    minimum: config?.minimum === null || config?.minimum === undefined ? '' : String(config.minimum),
    maximum: config?.maximum === null || config?.maximum === undefined ? '' : String(config.maximum),
    categories: (config?.categories ?? []).join('\n'),
    description: config?.description ?? '',
  };
}

/** The categories typed one per line: each trimmed, blank lines left out. */
export function categoriesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** A bound typed as text: a finite number, or null when it is not one. */
function numberOf(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * Checks a draft as the service would: the name's pattern; for numeric configs, both bounds finite and the minimum
 * below the maximum; for categorical ones, 2 to 20 distinct categories of at most 64 characters. Returns the problems
 * by field, or the body to send (the values of the other types null, so a change of type clears them).
 */
export function checkDraft(draft: ScoreConfigDraft): { problems: DraftProblems } | { body: ScoreConfigBody } {
  const problems: DraftProblems = {};
  const name = draft.name.trim();
  if (!SCORE_NAME_PATTERN.test(name)) problems.name = `${SCORE_NAME_RULE}.`;
  let minimum: number | null = null;
  let maximum: number | null = null;
  let categories: string[] | null = null;
  if (draft.dataType === 'numeric') {
    minimum = numberOf(draft.minimum);
    maximum = numberOf(draft.maximum);
    if (minimum === null) problems.minimum = 'A numeric score needs a minimum (a number).';
    if (maximum === null) problems.maximum = 'A numeric score needs a maximum (a number).';
    else if (minimum !== null && !(minimum < maximum))
      problems.maximum = 'The maximum must be greater than the minimum.';
  }
  if (draft.dataType === 'categorical') {
    categories = categoriesOf(draft.categories);
    const long = categories.find((category) => [...category].length > MAX_CATEGORY_LENGTH);
    if (categories.length < MIN_CATEGORIES || categories.length > MAX_CATEGORIES)
      problems.categories = `Give ${MIN_CATEGORIES} to ${MAX_CATEGORIES} categories, one per line.`;
    else if (new Set(categories).size !== categories.length) problems.categories = 'Each category may appear once.';
    else if (long) problems.categories = `“${long.slice(0, 20)}…” is longer than ${MAX_CATEGORY_LENGTH} characters.`;
  }
  if (draft.description.length > MAX_DESCRIPTION_LENGTH)
    problems.description = `At most ${MAX_DESCRIPTION_LENGTH} characters.`;
  if (Object.keys(problems).length > 0) return { problems };
  return { body: { name, dataType: draft.dataType, minimum, maximum, categories, description: draft.description } };
}

/** The values a config takes, in words: "true or false", "0 to 10", "good, bad or neutral". */
export function describeValues(config: Pick<ScoreConfig, 'dataType' | 'minimum' | 'maximum' | 'categories'>): string {
  if (config.dataType === 'boolean') return 'true or false';
  if (config.dataType === 'numeric') return `${config.minimum ?? '?'} to ${config.maximum ?? '?'}`;
  const categories = config.categories ?? [];
  return categories.length <= 1
    ? categories.join('')
    : `${categories.slice(0, -1).join(', ')} or ${categories[categories.length - 1]}`;
}

export const dataTypeLabel = (dataType: ScoreDataType) =>
  ({ boolean: 'Boolean', numeric: 'Numeric', categorical: 'Categorical' })[dataType];
