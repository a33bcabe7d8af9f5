/** The logged fields whose size depends on the caller and the model, each capped on its own. */
export const CAPPED_LOG_FIELDS = [
  'inputs',
  'renderedPrompt',
  'renderedMessages',
  'rawResponse',
  'parsedOutput',
] as const;
export type CappedLogField = (typeof CAPPED_LOG_FIELDS)[number];

export interface CappedText {
  text: string;
  truncated: boolean;
}

/**
 * Keeps at most `maxBytes` UTF-8 bytes of `text`. A longer text becomes its first `maxBytes` bytes, cut at a character
 * boundary (so possibly a few bytes fewer, never half a character), followed by `…[truncated N bytes]`, N being the
 * number of bytes cut. A log row then stays bounded whatever a caller sends or a model answers.
 */
export function capLogText(text: string, maxBytes: number): CappedText {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: a short enough text needs no encoding to be measured.
  if (text.length * 3 <= maxBytes) return { text, truncated: false };
  const totalBytes = Buffer.byteLength(text, 'utf8');
  if (totalBytes <= maxBytes) return { text, truncated: false };
  // Only the start is encoded: every UTF-16 unit is at least one byte, so the first maxBytes + 1 units hold the bytes
  // kept and the one after them (a pair split by this slice encodes at or past that byte, so it is never kept).
  const bytes = Buffer.from(text.slice(0, maxBytes + 1), 'utf8');
  let end = maxBytes;
  // Back off over continuation bytes (10xxxxxx) to the start of the character that straddles the limit.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  const kept = bytes.subarray(0, end).toString('utf8');
  return { text: `${kept}…[truncated ${totalBytes - end} bytes]`, truncated: true };
}

/**
 * Keeps at most `maxBytes` UTF-8 bytes of the messages' texts in all: the messages are kept in order, each text cut as
 * capLogText cuts one (an empty text and its marker once the bytes are spent), so every message keeps its role.
 */
export function capLogMessages<T extends { content: string }>(
  messages: T[],
  maxBytes: number,
): { messages: T[]; truncated: boolean } {
  let remaining = maxBytes;
  let truncated = false;
  const kept = messages.map((message) => {
    const capped = capLogText(message.content, remaining);
    if (capped.truncated) {
      truncated = true;
      remaining = 0;
      return { ...message, content: capped.text };
    }
    remaining -= Buffer.byteLength(message.content, 'utf8');
    return message;
  });
  return { messages: kept, truncated };
}
