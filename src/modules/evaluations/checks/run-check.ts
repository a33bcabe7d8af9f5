import { LRUCache } from 'lru-cache';
import type { CheckResult, DatasetCheck, DatasetCheckType } from '../../datasets/dataset-check';
import { conformOutput, type OutputFieldRule } from '../../execution/output-schema';
import { clip, jsonTextOf, MAX_QUOTED_LENGTH, quote, reason } from './check-reason';
import { type CompiledPattern, compilePattern, matches } from './check-regex';

/** The checks that run on an output alone; a judge check asks a model and is run by the evaluation runner. */
export type OutputCheck = Exclude<DatasetCheck, { type: 'judge' }>;

/** What the checks read of one call of one item. */
export interface CheckSubject {
  /** The call's output, as the execution answers it (an object with output fields, else the raw value). */
  output: unknown;
  /** The item's expected output; null when the item has none. */
  expectedOutput: unknown;
  /** The endpoint's output fields. */
  outputFields: OutputFieldRule[];
  latencyMs: number;
  /** Null when the model has no price. */
  costUsd: number | null;
  /** Set when the call failed; the message is the one the execution answers. */
  failure: { code: string; message: string } | null;
}

/**
 * One check on one call's output. A failed call fails every check, with the failure's message as the reason. The
 * rules, each check passing when:
 *
 * - `schema`: the output conforms to the endpoint's output fields, by the execution's own rule for a structured
 *   answer (an endpoint with no output fields other than an image has nothing to conform to, so it passes);
 * - `equals`: the output equals the expected output as JSON (key order does not matter, array order does); an item
 *   without an expected output fails it;
 * - `field_equals`: the value at the dot-separated `path` (a segment of digits indexes an array) is present in the
 *   expected output and equals the output's value there;
 * - `contains` / `not_contains`: the output's JSON text holds (or does not hold) `value`; a string output is matched
 *   as its JSON text too, in double quotes and with JSON escapes. Without `caseSensitive` both are lower-cased;
 * - `regex`: the pattern (RE2 syntax, see check-regex.ts) matches the output's JSON text somewhere;
 * - `max_latency_ms`: the call took at most `value` milliseconds;
 * - `max_cost_usd`: the call cost at most `value` dollars. A call whose cost is unknown (the model has no price)
 *   passes, with the reason "cost unknown": the ceiling guards spending that can be measured, and failing every item of
 *   an unpriced model would report as a quality failure what is a missing price.
 *
 * Reasons are short sentences for people, quoting values cut to MAX_QUOTED_LENGTH characters, and never longer than
 * MAX_REASON_LENGTH.
 */
export function runCheck(check: OutputCheck, subject: CheckSubject): CheckResult {
  if (subject.failure) return failedCallResult(check.type, subject.failure);
  const outcome = outcomeOf(check, subject);
  if (outcome === null) return { type: check.type, pass: true, reason: null };
  return { type: check.type, pass: outcome.pass, reason: reason(outcome.note) };
}

/** The result of any check (the judge's included) on a call that failed: it fails, with the failure's message. */
export function failedCallResult(type: DatasetCheckType, failure: { message: string }): CheckResult {
  return { type, pass: false, reason: reason(`the call failed: ${failure.message}`) };
}

/** Null when the check passes without a remark; otherwise whether it passes and the reason. */
type Outcome = null | { pass: boolean; note: string };

const fail = (note: string): Outcome => ({ pass: false, note });

function outcomeOf(check: OutputCheck, subject: CheckSubject): Outcome {
  const { output, expectedOutput } = subject;
  switch (check.type) {
    case 'schema':
      return schemaProblem(output, subject.outputFields);
    case 'equals':
      if (isAbsent(expectedOutput)) return fail('the item has no expected output');
      return jsonEquals(output, expectedOutput)
        ? null
        : fail(`the output is ${quote(output)}, expected ${quote(expectedOutput)}`);
    case 'field_equals':
      return fieldProblem(check.path, output, expectedOutput);
    case 'contains':
    case 'not_contains':
      return containsProblem(check, jsonTextOf(output));
    case 'regex':
      return regexProblem(check.pattern, jsonTextOf(output));
    case 'max_latency_ms':
      return subject.latencyMs <= check.value
        ? null
        : fail(`took ${Math.round(subject.latencyMs)} ms, over ${check.value} ms`);
    case 'max_cost_usd':
      if (subject.costUsd === null) return { pass: true, note: 'cost unknown: the model has no price' };
      return subject.costUsd <= check.value
        ? null
        : fail(`cost ${dollars(subject.costUsd)}, over ${dollars(check.value)}`);
  }
}

function schemaProblem(output: unknown, fields: OutputFieldRule[]): Outcome {
  if (fields.every((field) => field.dataType === 'image')) return null;
  const conformance = conformOutput(output, fields);
  if (conformance.ok) return null;
  return fail(`the output does not match the output fields: ${conformance.problem.replace(/^the answer/, 'it')}`);
}

function fieldProblem(path: string, output: unknown, expectedOutput: unknown): Outcome {
  const name = `"output.${clip(path, MAX_QUOTED_LENGTH)}"`;
  if (isAbsent(expectedOutput)) return fail('the item has no expected output');
  const expected = valueAt(expectedOutput, path);
  if (!expected.found) return fail(`the expected output has no ${name}`);
  const actual = valueAt(output, path);
  if (!actual.found) return fail(`${name} is missing, expected ${quote(expected.value)}`);
  return jsonEquals(actual.value, expected.value)
    ? null
    : fail(`${name} is ${quote(actual.value)}, expected ${quote(expected.value)}`);
}

function containsProblem(check: Extract<OutputCheck, { type: 'contains' | 'not_contains' }>, text: string): Outcome {
  const found = check.caseSensitive
    ? text.includes(check.value)
    : text.toLowerCase().includes(check.value.toLowerCase());
  const quoted = quote(check.value);
  if (check.type === 'contains') return found ? null : fail(`does not contain ${quoted}`);
  return found ? fail(`contains ${quoted}`) : null;
}

function regexProblem(pattern: string, text: string): Outcome {
  const matcher = matcherOf(pattern);
  if (!matcher.ok) return fail(`the pattern does not compile: ${matcher.message}`);
  return matches(matcher.matcher, text) ? null : fail(`does not match /${clip(pattern, MAX_QUOTED_LENGTH)}/`);
}

/**
 * Compiled patterns, by pattern: a run matches the same few patterns against every item and repeat. Bounded, since
 * patterns come from every tenant's datasets.
 */
const matchers = new LRUCache<string, CompiledPattern>({ max: 256 });

function matcherOf(pattern: string): CompiledPattern {
  let compiled = matchers.get(pattern);
  if (!compiled) {
    compiled = compilePattern(pattern);
    matchers.set(pattern, compiled);
  }
  return compiled;
}

/** The value at a dot-separated path: object keys (own ones only), and array indexes for segments of digits. */
function valueAt(root: unknown, path: string): { found: true; value: unknown } | { found: false } {
  let value = root;
  for (const segment of path.split('.')) {
    if (Array.isArray(value)) {
      if (!/^(0|[1-9]\d*)$/.test(segment) || Number(segment) >= value.length) return { found: false };
      value = value[Number(segment)];
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, segment)) {
      value = (value as Record<string, unknown>)[segment];
    } else {
      return { found: false };
    }
  }
  return { found: true, value };
}

/** JSON equality: same types, same array items in order, same object keys in any order with equal values. */
function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEquals(item, b[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && jsonEquals(left[key], right[key]));
}

const isAbsent = (value: unknown) => value === null || value === undefined;

/** Dollars as reasons show them: up to nine decimals (the precision costs are kept at), no trailing zeros. */
function dollars(value: number): string {
  return `$${value.toFixed(9).replace(/\.?0+$/, '')}`;
}
