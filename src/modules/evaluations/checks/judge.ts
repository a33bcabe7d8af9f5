import type { CheckResult } from '../../datasets/dataset-check';
import { conformOutput, type OutputFieldRule, type OutputSchema, outputSchemaOf } from '../../execution/output-schema';
import { reason } from './check-reason';

/**
 * A judge check: a model reads the check's rubric, a Liquid template over the item's `inputs`, the call's `output`
 * and the item's `expected` output, and answers `{pass, score, reason}` as a structured output. The check passes when
 * the judge says pass and its score is at least the check's threshold.
 */

/** The judge's answer as output fields, so that it is asked and checked as any endpoint's structured output is. */
const JUDGE_OUTPUT_FIELDS: OutputFieldRule[] = [
  { name: 'pass', dataType: 'boolean', description: 'Whether the output meets the rubric.', exampleValue: null },
  {
    name: 'score',
    dataType: 'number',
    description: 'How well the output meets the rubric, from 0 (not at all) to 1 (fully).',
    exampleValue: null,
  },
  { name: 'reason', dataType: 'string', description: 'One or two sentences saying why.', exampleValue: null },
];

/** The JSON schema asked of the judge model, in the form the model call takes an endpoint's output schema. */
export const judgeOutputSchema: OutputSchema = outputSchemaOf(JUDGE_OUTPUT_FIELDS)!;

/** What a rubric reads: the item's inputs, the call's output and the item's expected output (null without one). */
export interface JudgeRubricScope {
  inputs: Record<string, unknown>;
  output: unknown;
  expected: unknown;
}

/** The variables a rubric is rendered with (`{{ inputs.text }}`, `{{ output.category }}`, `{{ expected | json }}`). */
export function judgeRubricScope(item: {
  inputs: Record<string, unknown>;
  output: unknown;
  expectedOutput: unknown;
}): JudgeRubricScope {
  return { inputs: item.inputs, output: item.output, expected: item.expectedOutput ?? null };
}

export interface JudgeAnswer {
  pass: boolean;
  score: number;
  reason: string;
}

const MALFORMED = "the judge's answer was not {pass, score, reason}";

/**
 * The check's result from the judge's answer: it passes when the judge says pass and its score is at least
 * `threshold`; the reason is the judge's own (prefixed with the score when a passing answer scored too low). An answer
 * that is not `{pass: boolean, score: number from 0 to 1, reason: string}` fails the check.
 */
export function judgeCheckResult(answer: unknown, threshold: number): CheckResult {
  const judged = judgeAnswerOf(answer);
  if (!judged) return { type: 'judge', pass: false, reason: MALFORMED };
  const said = judged.reason.trim();
  if (judged.pass && judged.score < threshold) {
    const scored = `scored ${judged.score}, below the threshold ${threshold}`;
    return { type: 'judge', pass: false, reason: reason(said ? `${scored}: ${said}` : scored) };
  }
  return { type: 'judge', pass: judged.pass, reason: said ? reason(said) : null };
}

function judgeAnswerOf(answer: unknown): JudgeAnswer | null {
  const conformance = conformOutput(answer, JUDGE_OUTPUT_FIELDS);
  if (!conformance.ok) return null;
  const judged = conformance.value as unknown as JudgeAnswer;
  return judged.score >= 0 && judged.score <= 1 ? judged : null;
}
