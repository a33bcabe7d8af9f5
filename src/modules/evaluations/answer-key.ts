import { createHash } from 'node:crypto';
import type { ExecutablePrompt } from '../prompts/executable-prompt';

/**
 * The key of an evaluated answer in the answer store: a hash of the prompt version (its id and number), every setting
 * it runs with (template, model, temperature, tokens, custom parameters, retries, fallbacks), the endpoint's fields
 * (`fields`, a fingerprint: a change of the output schema changes the answers), the inputs and the repeat. An
 * unchanged side of a run finds its answers again; any change of them runs afresh.
 */
export function answerKey(prompt: ExecutablePrompt, fields: string, inputs: unknown, repeat: number): string {
  const { id, version, template, llmModel, temperature, maxTokens, customParameters, retries, fallbackModels } = prompt;
  const settings = { template, llmModel, temperature, maxTokens, customParameters, retries, fallbackModels };
  return createHash('sha256')
    .update(canonicalJson({ promptId: id, version, settings, fields, inputs, repeat }))
    .digest('hex');
}

/**
 * The key of a judge's verdict in the answer store: a hash of the judge model and the rubric as rendered for the
 * answer (it holds the inputs, the output and the expected output it read), apart from the keys of answers. The
 * same judgment asked again finds its verdict; the check's threshold is applied to it afterwards.
 */
export function judgeVerdictKey(llmModel: string, renderedRubric: string): string {
  return createHash('sha256')
    .update(canonicalJson({ judge: { llmModel, rubric: renderedRubric } }))
    .digest('hex');
}

/** JSON with every object's keys in order, so equal values give equal text whatever order their keys came in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
