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
  /** The complete request body, as sent. */
  body: unknown;
}

/** JSON with object keys sorted at every depth, so equal bodies give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  return stringify(value ?? null) ?? 'null';
}

/**
 * `resp:<endpointId>:<sha256>`: the endpoint id stays readable (an endpoint's entries can be found and removed), and
 * the hash covers the prompt id and version, the model settings and the canonical body, so a new prompt version, a
 * changed setting or any other input never serves an old answer. Bodies never appear in key names.
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
    body: parts.body,
  });
  return `resp:${parts.endpointId}:${hash('sha256', material, 'hex')}`;
}
