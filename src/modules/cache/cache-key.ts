import { hash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';

/** Everything a cached answer depends on. */
export interface CacheKeyParts {
  endpointId: string;
  promptId: string;
  promptVersion: number;
  /** The prompt version's model settings. */
  llmModel: string;
  temperature: number;
  maxTokens: number;
  customParameters: Record<string, unknown>;
  /**
   * The endpoint's input and output field definitions, in any stable text form (see `fieldsFingerprint`): defaults
   * and output fields shape the answer, so a changed field never serves an answer made before it.
   */
  fields: string;
  /** The complete request body, as sent. */
  body: unknown;
}

/**
 * How a prompt version and a body make the messages sent: the template's message blocks, and each image input placed
 * where the template outputs it (or attached at the end of the last user message). The messages follow from the
 * prompt version and the body under these rules, so the key covers them without rendering; a change of these rules
 * changes this number, so no answer made from messages built otherwise is served.
 */
const MESSAGE_RULES = 2;

/** JSON with object keys sorted at every depth, so equal bodies give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  return stringify(value ?? null) ?? 'null';
}

/** A short stable text of field definitions for `CacheKeyParts.fields`: the hash of their canonical JSON. */
export function fieldsFingerprint(fields: unknown): string {
  return hash('sha256', canonicalJson(fields), 'hex');
}

/**
 * `resp:<endpointId>:<sha256>`: the endpoint id stays readable (an endpoint's entries can be found and removed), and
 * the hash covers the prompt id and version, the model settings, the endpoint's fields, the canonical body and the
 * rules that make messages of them (see MESSAGE_RULES), so a new prompt version (a template that makes other
 * messages), a changed setting or field, or any other input never serves an old answer. Bodies never appear
 * in key names.
 */
export function cacheKey(parts: CacheKeyParts): string {
  const material = canonicalJson({
    prompt: [parts.promptId, parts.promptVersion],
    model: {
      llmModel: parts.llmModel,
      temperature: parts.temperature,
      maxTokens: parts.maxTokens,
      customParameters: parts.customParameters,
    },
    fields: parts.fields,
    body: parts.body,
    messages: MESSAGE_RULES,
  });
  return `resp:${parts.endpointId}:${hash('sha256', material, 'hex')}`;
}
