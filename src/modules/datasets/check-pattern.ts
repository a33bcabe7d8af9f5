import { RE2JS, RE2JSException } from 're2js';

/**
 * The one regular-expression engine of regex checks, for the save-time validation of a pattern and for matching it
 * against outputs: RE2 (its JavaScript port), whose matching time is linear in the length of the text whatever the
 * pattern, so a pattern such as `(a+)+$` cannot stall a run on a long output. That linear bound is the check's time
 * bound. RE2's syntax is close to JavaScript's but has no lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) and no
 * backreferences (`\1`); flags are written inline, e.g. `(?i)` for a case-insensitive match.
 */
export interface CheckMatcher {
  readonly pattern: string;
  readonly compiled: RE2JS;
}

export type CompiledPattern = { ok: true; matcher: CheckMatcher } | { ok: false; message: string };

/** An error message of the engine is cut to this many characters (it quotes the offending part of the pattern). */
const MAX_MESSAGE_LENGTH = 200;

/**
 * Compiles a regex check's pattern; a pattern that does not compile gives a message fit for the caller, such as
 * "invalid escape sequence: `\1`" (without the engine's "error parsing regexp" prefix).
 */
export function compilePattern(pattern: string): CompiledPattern {
  try {
    return { ok: true, matcher: { pattern, compiled: RE2JS.compile(pattern) } };
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const message = error.message.replace(/^error parsing regexp: /, '');
    const bounded = message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
    return { ok: false, message: bounded };
  }
}

/** Whether the pattern matches anywhere in the text (it is not anchored unless it says `^` or `$`). */
export function matches(matcher: CheckMatcher, text: string): boolean {
  return matcher.compiled.test(text);
}
