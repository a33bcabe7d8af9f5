/** A check's reason is at most this many characters: it is shown in lists and stored with every result. */
export const MAX_REASON_LENGTH = 300;

/** A value quoted in a reason (an output, an expected value, a pattern) is cut to this many characters. */
export const MAX_QUOTED_LENGTH = 80;

/**
 * The text cut to `max` characters, the last one an ellipsis when it was longer. The cut never splits a surrogate
 * pair, so the result stays valid Unicode (PostgreSQL refuses a lone surrogate in JSON).
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A JSON value as a reason quotes it: its JSON text (a string in double quotes), cut to MAX_QUOTED_LENGTH. */
export function quote(value: unknown): string {
  return clip(jsonTextOf(value), MAX_QUOTED_LENGTH);
}

/** The JSON text of an output (a string output is its JSON text too: in double quotes, with escapes). */
export function jsonTextOf(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** A reason bounded to MAX_REASON_LENGTH. */
export function reason(text: string): string {
  return clip(text, MAX_REASON_LENGTH);
}
