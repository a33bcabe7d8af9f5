// Scores of an execution on the dashboard, free of React: a score's value in words, who recorded it, and an
// annotation's value read from the input that fits its config's type (checked as the service checks it).
import { bounds } from '../../api/bounds';
import type { Schemas } from '../../api/client';

export type LogScore = Schemas['LogScoreResponse'];
export type ScoreConfig = Schemas['ScoreConfigResponse'];
export type ScoreValue = LogScore['value'];

export const MAX_COMMENT_LENGTH = bounds.ScoreLogDto.comment.maxLength;

export const SOURCE_LABEL: Record<LogScore['source'], string> = {
  api: 'Application (API)',
  annotation: 'Annotation',
  eval: 'Evaluation',
};

/** A score's value as the page shows it: booleans as true or false, numbers as the reader's locale writes them. */
export function formatScoreValue(value: ScoreValue): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return value.toLocaleString(undefined, { maximumFractionDigits: 6 });
  return value;
}

/**
 * The value typed or picked for `config`: `'true'` or `'false'` for a boolean, a number within the bounds for a
 * numeric one, one of the categories for a categorical one. A problem in words otherwise.
 */
export function scoreValueOf(config: ScoreConfig, input: string): { value: ScoreValue } | { problem: string } {
  if (config.dataType === 'boolean') {
    if (input === 'true' || input === 'false') return { value: input === 'true' };
    return { problem: 'Choose true or false.' };
  }
  if (config.dataType === 'numeric') {
    const value = input.trim() === '' ? NaN : Number(input);
    if (!Number.isFinite(value)) return { problem: 'Type a number.' };
    const { minimum, maximum } = config;
    if ((minimum !== null && value < minimum) || (maximum !== null && value > maximum))
      return { problem: `The value must be from ${minimum} to ${maximum}.` };
    return { value };
  }
  return (config.categories ?? []).includes(input) ? { value: input } : { problem: 'Choose one of the categories.' };
}

/** What the value input starts with: nothing chosen, so a score is never sent by accident. */
export const EMPTY_VALUE = '';

/** The configs offered for an annotation, by name; the ones this execution already has say so. */
export function annotationChoices(
  configs: ScoreConfig[],
  scores: LogScore[],
): { config: ScoreConfig; scored: boolean }[] {
  const scored = new Set(scores.map((score) => score.name));
  return [...configs]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((config) => ({ config, scored: scored.has(config.name) }));
}
