import { type FilteredValueToken, type Liquid, type TagToken, type Token, Tokenizer, TypeGuards } from 'liquidjs';

/**
 * What a template can do, read from its tokens before any render.
 *
 * A bounded template cannot loop, assign, capture or count, and each of its values goes through filters that run in
 * linear time and never make a value longer than their inputs (case changes excepted, counted below). Its render time
 * is linear in its output, and its output has an upper bound known before rendering (`renderedSizeBound`). Anything
 * else is unbounded: its render may take as long or write as much as the render limits allow.
 */
export type TemplateShape =
  | {
      bounded: true;
      /** UTF-8 bytes of the template text outside values, plus the text of each output weighted like its value. */
      literalBytes: number;
      /**
       * The values the template reads (each operand of an output or a condition), weighted by how much their filters
       * can grow them: each read is at most as long as the JSON of the inputs (or 64 bytes).
       */
      valueReads: number;
    }
  | { bounded: false; reason: string };

/** Tags that only choose which parts of the template render, each at most once. */
const BRANCH_TAGS = new Set([
  'if',
  'elsif',
  'else',
  'endif',
  'unless',
  'endunless',
  'case',
  'when',
  'endcase',
  'comment',
  'endcomment',
  // Message blocks render their body once, where they stand.
  'system',
  'endsystem',
  'user',
  'enduser',
  'assistant',
  'endassistant',
]);
/** Tags whose arguments are one filtered value, evaluated once: `if`, `elsif`, `unless` and `case`. */
const CONDITION_TAGS = new Set(['if', 'elsif', 'unless', 'case']);

/**
 * Filters that run in linear time and return a value no longer than what they read: `default` returns its input or
 * its argument, the others remove characters or change their case. No arguments for the others (`strip: chars` and
 * friends are linear too, but a bounded template has no need of them).
 */
const LENGTH_KEEPING_FILTERS = new Set(['default', 'strip', 'lstrip', 'rstrip', 'strip_newlines']);
/**
 * Case changes map each code point on its own; the longest mapping in UTF-8 is three times the code point's bytes
 * (U+0390 `ΐ`, two bytes, upper-cases to three code points of two bytes each).
 */
const CASE_FILTERS = new Set(['upcase', 'downcase', 'capitalize']);
const CASE_GROWTH = 3;

/** A value at most this long renders whatever its JSON: numbers, booleans, `[object Object]`. */
const MIN_VALUE_BYTES = 64;

/**
 * Classifies `source` with liquidjs's own tokenizer and the engine's delimiters and operators. A template that does not
 * tokenize is unbounded: the render thread reports its error.
 */
export function classifyTemplate(engine: Liquid, source: string): TemplateShape {
  let tokens;
  try {
    tokens = new Tokenizer(source, engine.options.operators).readTopLevelTokens(engine.options);
  } catch {
    return unbounded('the template does not tokenize');
  }
  const shape = { bounded: true as const, literalBytes: 0, valueReads: 0 };
  try {
    for (const token of tokens) {
      if (TypeGuards.isHTMLToken(token)) {
        // Whitespace control only trims this text: its bytes before trimming bound it.
        shape.literalBytes += Buffer.byteLength(token.getContent(), 'utf8');
      } else if (TypeGuards.isOutputToken(token)) {
        const tokenizer = new Tokenizer(token.input, engine.options.operators, undefined, token.contentRange);
        const value = tokenizer.readFilteredValue();
        tokenizer.skipBlank();
        if (!tokenizer.end()) return unbounded(`an output has more than one value: ${token.getText()}`);
        const weight = valueWeight(value);
        if (typeof weight === 'string') return unbounded(weight);
        // Literals in the output (`{{ "text" }}`, `default: "text"`) are bounded by its own text.
        shape.literalBytes += weight.growth * Buffer.byteLength(token.getText(), 'utf8');
        shape.valueReads += weight.reads;
      } else if (TypeGuards.isTagToken(token)) {
        const reads = tagReads(token);
        if (typeof reads === 'string') return unbounded(reads);
        shape.valueReads += reads;
      } else {
        return unbounded('the template has a token of an unknown kind');
      }
    }
  } catch {
    return unbounded('an output or a tag does not tokenize');
  }
  return shape;
}

/**
 * An upper bound, in UTF-8 bytes, of what a bounded template renders with `inputs`: its literal bytes, plus each value
 * read at its weight times the longer of 64 bytes and the JSON of the inputs. The JSON bounds any value reachable
 * from the inputs as liquidjs writes it (strings, numbers, arrays joined, objects as `[object Object]`).
 */
export function renderedSizeBound(
  shape: Extract<TemplateShape, { bounded: true }>,
  inputs: Record<string, unknown>,
): number {
  if (shape.valueReads === 0) return shape.literalBytes;
  let inputBytes: number;
  try {
    inputBytes = Buffer.byteLength(JSON.stringify(inputs) ?? '', 'utf8');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  return shape.literalBytes + shape.valueReads * Math.max(MIN_VALUE_BYTES, inputBytes);
}

function unbounded(reason: string): TemplateShape {
  return { bounded: false, reason };
}

/** The values a branch tag reads, or why the tag makes the template unbounded. */
function tagReads(token: TagToken): number | string {
  if (!BRANCH_TAGS.has(token.name)) return `the ${token.name} tag can repeat, store or write values`;
  if (CONDITION_TAGS.has(token.name)) {
    const weight = valueWeight(token.tokenizer.readFilteredValue());
    return typeof weight === 'string' ? weight : weight.reads;
  }
  if (token.name === 'when') return whenReads(token);
  // else, comment and the end tags take no values (liquidjs ignores what follows their name).
  return 0;
}

/** `when` compares the case value with each of its values, read as liquidjs reads them (separated by `,` or `or`). */
function whenReads(token: TagToken): number | string {
  const tokenizer = token.tokenizer;
  let reads = 0;
  while (!tokenizer.end()) {
    const value = tokenizer.readValueOrThrow();
    if (!isPlainValue(value)) return `a when value is a range or a group: ${token.getText()}`;
    reads++;
    tokenizer.skipBlank();
    if (tokenizer.peek() === ',') tokenizer.readTo(',');
    else tokenizer.readTo('or');
  }
  return reads;
}

/**
 * How many values a filtered value reads (its operands and its filters' arguments) and how much its filters can
 * grow the longest of them; or why it is unbounded.
 */
function valueWeight(value: FilteredValueToken): { reads: number; growth: number } | string {
  let operands = 0;
  for (const token of value.initial.postfix) {
    if (TypeGuards.isOperatorToken(token)) continue;
    if (!isPlainValue(token)) return `a value is a range or a group: ${value.getText()}`;
    operands++;
  }
  let growth = 1;
  for (const filter of value.filters) {
    if (CASE_FILTERS.has(filter.name) && filter.args.length === 0) {
      growth *= CASE_GROWTH;
      continue;
    }
    if (!LENGTH_KEEPING_FILTERS.has(filter.name))
      return `the ${filter.name} filter can make a value longer or take more than linear time`;
    if (filter.name !== 'default' && filter.args.length > 0)
      return `the ${filter.name} filter takes no arguments in a bounded template`;
    for (const arg of filter.args) {
      const argValue = Array.isArray(arg) ? arg[1] : arg;
      if (argValue === undefined) continue;
      if (!isPlainValue(argValue)) return `a filter argument is a range or a group: ${value.getText()}`;
      operands++;
    }
  }
  return { reads: operands * growth, growth };
}

/** A literal, or a variable whose bracketed keys are plain values too: no range, no parenthesised group. */
function isPlainValue(token: Token): boolean {
  if (TypeGuards.isQuotedToken(token) || TypeGuards.isNumberToken(token) || TypeGuards.isLiteralToken(token))
    return true;
  if (!TypeGuards.isPropertyAccessToken(token)) return false;
  if (token.variable !== undefined && !isPlainValue(token.variable)) return false;
  return token.props.every((prop) => TypeGuards.isWordToken(prop) || isPlainValue(prop));
}
