import type { ModelInfo } from '../models/model';

/**
 * Money is counted in billionths of a dollar (the precision of a logged cost): integers, so sums are exact and a limit
 * of $1,000,000 (10^15 units) stays within a double's exact integers, in Redis's Lua as in JavaScript.
 */
export const UNITS_PER_USD = 1_000_000_000;

export function usdToUnits(usd: number): number {
  return Math.round(usd * UNITS_PER_USD);
}

export function unitsToUsd(units: number): number {
  return units / UNITS_PER_USD;
}

/**
 * Tokens an input image may cost at most: the largest image the providers accept is resized to at most ~2,800 tokens
 * (OpenAI's high detail at 2048×768 tiles; Anthropic's ~1,600), so 3,000 bounds each.
 */
export const INPUT_IMAGE_TOKENS = 3_000;

/** Tokens a provider adds around the messages of one call (role markers, the reply's priming). */
export const CALL_OVERHEAD_TOKENS = 16;

/** What one attempt sends, as far as its cost depends on it. */
export interface AttemptShape {
  /** The rendered prompt. */
  prompt: string;
  /** Images sent with it (vision inputs). */
  inputImages: number;
  /** The output tokens it may use: its maxTokens. */
  maxTokens: number;
  /** Image endpoints: the images it asks for (`n`); null for text calls. */
  images: number | null;
}

/** Counts (or bounds from above) the tokens of a text for a model. */
export type TokenCounter = (model: ModelInfo, text: string) => number;

/**
 * An attempt's worst-case cost in units (rounded up): the input tokens at the model's input price, plus either its
 * maxTokens (the model's own maximum when the prompt sets none) at the output price, or the images it asks for at the
 * image price. A price the catalog does not have counts 0: a model without a price reserves nothing.
 */
export function worstCaseUnits(model: ModelInfo, attempt: AttemptShape, countTokens: TokenCounter): number {
  const { inputPerMillionTokens, outputPerMillionTokens, perImage } = model.pricing;
  const priced = inputPerMillionTokens || outputPerMillionTokens || perImage;
  if (!priced) return 0;
  let usd = 0;
  if (inputPerMillionTokens) {
    const inputTokens =
      countTokens(model, attempt.prompt) + attempt.inputImages * INPUT_IMAGE_TOKENS + CALL_OVERHEAD_TOKENS;
    usd += (inputTokens * inputPerMillionTokens) / 1_000_000;
  }
  if (attempt.images !== null && perImage) {
    usd += attempt.images * perImage;
  } else if (outputPerMillionTokens) {
    const maxTokens = attempt.maxTokens > 0 ? attempt.maxTokens : (model.maxOutputTokens ?? 0);
    usd += (maxTokens * outputPerMillionTokens) / 1_000_000;
  }
  return Math.ceil(usd * UNITS_PER_USD - 1e-6);
}
