import { hash } from 'node:crypto';

// The rules of an endpoint's traffic split: which shapes are valid, and which variant a request gets. Pure: no I/O.

/** `key` (the calling key's id), `none` (random by weight) or `header:<name>` (that request header's value). */
export type StickyBy = string;

export interface TrafficSplitVariant {
  promptId: string;
  /** A whole percentage, 1..100; the weights of a split sum to 100. */
  weight: number;
}

/** The endpoint's split of its traffic between 2 to 5 Live prompts (null on the endpoint: the default answers). */
export interface TrafficSplit {
  variants: TrafficSplitVariant[];
  stickyBy: StickyBy;
}

export const SPLIT_VARIANTS = { min: 2, max: 5 } as const;
export const SPLIT_TOTAL_WEIGHT = 100;
/** The longest header name `header:<name>` accepts. */
export const STICKY_HEADER_MAX_LENGTH = 100;
/** `key`, `none`, or `header:` and an HTTP header name (a token: letters, digits and !#$%&'*+.^_`|~-). */
export const STICKY_BY_PATTERN = new RegExp(
  `^(key|none|header:[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,${STICKY_HEADER_MAX_LENGTH}})$`,
);

const HEADER_PREFIX = 'header:';

/** A problem of a split that the field-by-field rules cannot see, with the field it names. */
export interface SplitProblem {
  field: string;
  message: string;
}

/**
 * What a split's shape breaks beyond each field's own rules: the weights must sum to 100 and a prompt may appear
 * once. (Counts, weight bounds, id formats and stickyBy are checked field by field by the request DTO.)
 */
export function splitProblems(split: TrafficSplit): SplitProblem[] {
  const problems: SplitProblem[] = [];
  const total = split.variants.reduce((sum, variant) => sum + variant.weight, 0);
  if (total !== SPLIT_TOTAL_WEIGHT) {
    problems.push({
      field: 'trafficSplit.variants',
      message: `trafficSplit.variants weights must sum to ${SPLIT_TOTAL_WEIGHT} (they sum to ${total})`,
    });
  }
  const seen = new Set<string>();
  split.variants.forEach((variant, index) => {
    const promptId = variant.promptId.toLowerCase();
    if (seen.has(promptId)) {
      problems.push({
        field: `trafficSplit.variants.${index}.promptId`,
        message: `trafficSplit.variants.${index}.promptId lists prompt ${variant.promptId} a second time`,
      });
    }
    seen.add(promptId);
  });
  return problems;
}

/** The split as stored: header names in lower case (HTTP header names are case-insensitive), ids in lower case. */
export function normalizeSplit(split: TrafficSplit): TrafficSplit {
  const stickyBy = split.stickyBy.startsWith(HEADER_PREFIX) ? split.stickyBy.toLowerCase() : split.stickyBy;
  return {
    variants: split.variants.map((variant) => ({ promptId: variant.promptId.toLowerCase(), weight: variant.weight })),
    stickyBy,
  };
}

/** The header a `header:<name>` split reads (lower case), or null for `key` and `none`. */
export function stickyHeaderOf(split: TrafficSplit): string | null {
  return split.stickyBy.startsWith(HEADER_PREFIX) ? split.stickyBy.slice(HEADER_PREFIX.length).toLowerCase() : null;
}

/** What a request offers to stick by: its key's id and a way to read one of its headers. */
export interface StickyContext {
  keyId: string;
  header: (name: string) => string | undefined;
}

/**
 * The value a request sticks by: the key's id (`key`), the header's value (`header:<name>`; null when the request does
 * not carry it or it is blank), or null (`none`): null means a random pick by the weights.
 */
export function stickyValueOf(split: TrafficSplit, context: StickyContext): string | null {
  if (split.stickyBy === 'key') return context.keyId;
  const header = stickyHeaderOf(split);
  if (header === null) return null;
  const value = context.header(header)?.trim();
  return value ? value : null;
}

/** A sticky value's bucket, 0..99: SHA-256 of the endpoint id and the value, so each endpoint spreads values anew. */
export function bucketOf(endpointId: string, stickyValue: string): number {
  // The one-shot hash: about half the cost of a createHash object per request.
  const digest = hash('sha256', `${endpointId}\n${stickyValue}`, 'buffer');
  return digest.readUInt32BE(0) % SPLIT_TOTAL_WEIGHT;
}

/** The variant whose share of the cumulative weights holds `bucket` (0..99). */
export function variantAt(split: TrafficSplit, bucket: number): TrafficSplitVariant {
  let cumulative = 0;
  for (const variant of split.variants) {
    cumulative += variant.weight;
    if (bucket < cumulative) return variant;
  }
  return split.variants[split.variants.length - 1];
}

/**
 * The prompt id a request without `?prompt=` gets: a sticky value always lands on the same variant (as long as the
 * split is unchanged); without one, a random pick by the weights. `random` returns a number in [0, 1).
 */
export function assignVariant(
  split: TrafficSplit,
  endpointId: string,
  stickyValue: string | null,
  random: () => number = Math.random,
): string {
  const bucket = stickyValue === null ? Math.floor(random() * SPLIT_TOTAL_WEIGHT) : bucketOf(endpointId, stickyValue);
  return variantAt(split, bucket).promptId;
}

/** Whether the split lists this prompt. */
export function splitLists(split: TrafficSplit | null, promptId: string): boolean {
  return split !== null && split.variants.some((variant) => variant.promptId === promptId.toLowerCase());
}

/**
 * The share, in percent, of the calls without `?prompt=` that a prompt answers: its weight when the endpoint splits
 * its traffic (0 when the split does not list it), else 100 for the default prompt and 0 for any other.
 */
export function trafficShareOf(split: TrafficSplit | null, defaultPromptId: string | null, promptId: string): number {
  const id = promptId.toLowerCase();
  if (split) return split.variants.find((variant) => variant.promptId === id)?.weight ?? 0;
  return defaultPromptId !== null && defaultPromptId.toLowerCase() === id ? 100 : 0;
}
