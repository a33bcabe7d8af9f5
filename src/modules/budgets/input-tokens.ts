import type { ModelInfo } from '../models/model';

/** The part of gpt-tokenizer's encodings that is used: counting, with special tokens read as plain text. */
interface Encoding {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

const encodings = new Map<string, Encoding>();
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The input tokens of a text, counted with the provider's tokenizer where one is maintained (OpenAI's o200k_base, the
 * encoding of its current models), or bounded from above by its UTF-8 bytes (every byte-level BPE tokenizer, which
 * the other providers use, makes at most one token per byte). Text that looks like a special token is counted as
 * the plain text a provider receives it as.
 */
export function inputTokensOf(model: ModelInfo, text: string): number {
  if (model.provider !== 'openai') return Buffer.byteLength(text, 'utf8');
  return encodingOf(/^gpt-(3\.5|4)(-|$)/.test(model.id) ? 'cl100k_base' : 'o200k_base').countTokens(text, PLAIN_TEXT);
}

/** Loaded on first use: its tables are megabytes, and deployments without OpenAI never load them. */
function encodingOf(name: 'o200k_base' | 'cl100k_base'): Encoding {
  let encoding = encodings.get(name);
  if (!encoding) {
    encoding = require(`gpt-tokenizer/encoding/${name}`) as Encoding;
    encodings.set(name, encoding);
  }
  return encoding;
}
