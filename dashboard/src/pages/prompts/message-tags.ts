/** The roles of a template's message blocks, as the service reads them. */
export const MESSAGE_ROLES = ['system', 'user', 'assistant'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** A message block's opening or closing tag in the template's text (`from`/`to` are offsets, `to` exclusive). */
export interface MessageTag {
  role: MessageRole;
  closing: boolean;
  from: number;
  to: number;
}

/** A block from its opening tag to its closing tag. */
export interface MessageBlock {
  role: MessageRole;
  open: MessageTag;
  close: MessageTag;
}

// `{% user %}`, `{%- enduser -%}`: a tag holding only a role or its end, with Liquid's whitespace control.
const TAG = /\{%-?\s*(end)?(system|user|assistant)\s*-?%\}/g;

/**
 * The message block tags of a template and the blocks they make: each opening tag pairs with the next closing tag of
 * its role. Tags inside `{% raw %}` or `{% comment %}` are text, not tags, and are skipped. Tags that pair with nothing
 * are still listed (the service's check reports them).
 */
export function messageTagsOf(text: string): { tags: MessageTag[]; blocks: MessageBlock[] } {
  const tags: MessageTag[] = [];
  const skipped = skippedRanges(text);
  for (const match of text.matchAll(TAG)) {
    const from = match.index;
    if (skipped.some(([start, end]) => from >= start && from < end)) continue;
    tags.push({ role: match[2] as MessageRole, closing: match[1] !== undefined, from, to: from + match[0].length });
  }
  const blocks: MessageBlock[] = [];
  const open = new Map<MessageRole, MessageTag>();
  for (const tag of tags) {
    const opening = open.get(tag.role);
    if (!tag.closing) {
      if (!opening) open.set(tag.role, tag);
    } else if (opening) {
      blocks.push({ role: tag.role, open: opening, close: tag });
      open.delete(tag.role);
    }
  }
  return { tags, blocks: blocks.sort((a, b) => a.open.from - b.open.from) };
}

/** The parts of the text between `{% raw %}`/`{% comment %}` and their end tags. */
function skippedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  const start = /\{%-?\s*(raw|comment)\s*-?%\}/g;
  for (let match = start.exec(text); match; match = start.exec(text)) {
    const end = new RegExp(`\\{%-?\\s*end${match[1]}\\s*-?%\\}`, 'g');
    end.lastIndex = start.lastIndex;
    const found = end.exec(text);
    const stop = found ? found.index : text.length;
    ranges.push([start.lastIndex, stop]);
    start.lastIndex = found ? end.lastIndex : text.length;
  }
  return ranges;
}
