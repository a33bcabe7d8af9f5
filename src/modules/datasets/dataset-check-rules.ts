import { compileCheckPattern } from './check-pattern';
import {
  DATASET_CHECK_TYPES,
  type DatasetCheck,
  type DatasetCheckType,
  MAX_CHECKS,
  MAX_REGEX_LENGTH,
} from './dataset-check';

/** A field_equals check's `path` is at most this long. */
export const MAX_CHECK_PATH_LENGTH = 200;
/** A contains or not_contains check's `value` is at most this long. */
export const MAX_CHECK_TEXT_LENGTH = 1000;
/** A max_latency_ms check's `value` is at most this many milliseconds (ten minutes). */
export const MAX_CHECK_LATENCY_MS = 600_000;
/** A max_cost_usd check's `value` is at most this many dollars. */
export const MAX_CHECK_COST_USD = 1000;
/** A judge check's `llmModel` is at most this long (as a prompt's). */
export const MAX_CHECK_MODEL_LENGTH = 200;
/** A judge check's `rubric` is at most this long. */
export const MAX_RUBRIC_LENGTH = 20_000;
/** A judge check's `threshold` when none is given. */
export const DEFAULT_JUDGE_THRESHOLD = 0.5;

/** The parameters each type takes (every other property is refused). */
const PARAMETERS: Record<DatasetCheckType, readonly string[]> = {
  schema: [],
  equals: [],
  field_equals: ['path'],
  contains: ['value', 'caseSensitive'],
  not_contains: ['value', 'caseSensitive'],
  regex: ['pattern'],
  max_latency_ms: ['value'],
  max_cost_usd: ['value'],
  judge: ['llmModel', 'rubric', 'threshold'],
};

/** Every parameter of any type: what a check given as JSON may hold besides `type`. */
export const CHECK_PARAMETERS = [...new Set(Object.values(PARAMETERS).flat())];

/** One problem of the checks, naming its field (`checks.<n>.<parameter>`). */
export interface CheckProblem {
  field: string;
  message: string;
}

export type ChecksParse = { checks: DatasetCheck[]; problems: [] } | { checks: null; problems: CheckProblem[] };

/**
 * Reads checks given as JSON: at most MAX_CHECKS, each of a known `type` with that type's parameters and no other.
 * field_equals: `path`, 1 to 200 characters. contains and not_contains: `value`, 1 to 1000 characters, and
 * `caseSensitive` (default true). regex: `pattern`, 1 to 500 characters, which must compile. max_latency_ms: `value`,
 * an integer from 1 to 600000. max_cost_usd: `value`, above 0 and at most 1000. judge: `llmModel` (a non-empty
 * string; whether the catalog has it is the service's to say), `rubric` (1 to 20000 characters; whether it is valid
 * Liquid likewise) and `threshold` from 0 to 1 (default 0.5). The checks come back with their defaults filled in.
 */
export function parseChecks(given: unknown): ChecksParse {
  if (!Array.isArray(given)) return failed([{ field: 'checks', message: 'checks must be an array' }]);
  if (given.length > MAX_CHECKS) {
    return failed([{ field: 'checks', message: `checks must hold at most ${MAX_CHECKS} checks` }]);
  }
  const checks: DatasetCheck[] = [];
  const problems: CheckProblem[] = [];
  given.forEach((raw, index) => {
    const parsed = parseCheck(raw, `checks.${index}`);
    if ('problems' in parsed) problems.push(...parsed.problems);
    else checks.push(parsed.check);
  });
  return problems.length > 0 ? failed(problems) : { checks, problems: [] };
}

function failed(problems: CheckProblem[]): ChecksParse {
  return { checks: null, problems };
}

type CheckParse = { check: DatasetCheck } | { problems: CheckProblem[] };

function parseCheck(raw: unknown, at: string): CheckParse {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { problems: [{ field: at, message: `${at} must be an object with a type` }] };
  }
  const given = raw as Record<string, unknown>;
  const type = given.type;
  if (typeof type !== 'string' || !(DATASET_CHECK_TYPES as readonly string[]).includes(type)) {
    return {
      problems: [{ field: `${at}.type`, message: `${at}.type must be one of: ${DATASET_CHECK_TYPES.join(', ')}` }],
    };
  }
  const checkType = type as DatasetCheckType;
  const problems: CheckProblem[] = [];
  const problem = (name: string, message: string) =>
    problems.push({ field: `${at}.${name}`, message: `${at}.${name} ${message}` });
  for (const name of Object.keys(given)) {
    if (name !== 'type' && !PARAMETERS[checkType].includes(name))
      problem(name, `does not apply to ${checkType} checks`);
  }
  const text = (name: string, max: number): string => {
    const value = given[name];
    if (typeof value !== 'string' || value.length === 0 || value.length > max) {
      problem(name, `must be a string of 1 to ${max} characters`);
      return '';
    }
    return value;
  };
  const check = ((): DatasetCheck | null => {
    switch (checkType) {
      case 'schema':
      case 'equals':
        return { type: checkType };
      case 'field_equals':
        return { type: checkType, path: text('path', MAX_CHECK_PATH_LENGTH) };
      case 'contains':
      case 'not_contains': {
        const value = text('value', MAX_CHECK_TEXT_LENGTH);
        const caseSensitive = given.caseSensitive ?? true;
        if (typeof caseSensitive !== 'boolean') problem('caseSensitive', 'must be a boolean');
        return { type: checkType, value, caseSensitive: caseSensitive === true };
      }
      case 'regex': {
        const pattern = text('pattern', MAX_REGEX_LENGTH);
        if (pattern !== '') {
          try {
            compileCheckPattern(pattern);
          } catch (error) {
            problem('pattern', `is not a valid regular expression: ${(error as Error).message}`);
          }
        }
        return { type: checkType, pattern };
      }
      case 'max_latency_ms': {
        const value = given.value;
        if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_CHECK_LATENCY_MS) {
          problem('value', `must be an integer from 1 to ${MAX_CHECK_LATENCY_MS}`);
        }
        return { type: checkType, value: value as number };
      }
      case 'max_cost_usd': {
        const value = given.value;
        if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_CHECK_COST_USD) {
          problem('value', `must be a number above 0 and at most ${MAX_CHECK_COST_USD}`);
        }
        return { type: checkType, value: value as number };
      }
      case 'judge': {
        const llmModel = text('llmModel', MAX_CHECK_MODEL_LENGTH);
        const rubric = text('rubric', MAX_RUBRIC_LENGTH);
        const threshold = given.threshold ?? DEFAULT_JUDGE_THRESHOLD;
        if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
          problem('threshold', 'must be a number from 0 to 1');
        }
        return { type: checkType, llmModel, rubric, threshold: threshold as number };
      }
    }
  })();
  return problems.length > 0 || !check ? { problems } : { check };
}
