import {
  type Context,
  type Emitter,
  type Liquid,
  type Parser,
  Tag,
  type TagToken,
  type Template,
  type TopLevelToken,
  toValue,
  toValueSync,
  TypeGuards,
} from 'liquidjs';

/** The roles a template's message blocks give their messages: `assistant` blocks are few-shot turns. */
export const MESSAGE_ROLES = ['system', 'user', 'assistant'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** A breach of the message block rules, at its 1-based line and column. */
export interface MessageBlockProblem {
  message: string;
  line: number;
  column: number;
}

/** A template has at most this many message blocks. */
export const MAX_MESSAGE_BLOCKS = 100;
/** The breaches reported of one template, at most (each is found in one pass; a position costs a scan of the text). */
const MAX_PROBLEMS = 20;

/** A piece of a rendered message: text, or the image of an image input field at the place the template output it. */
export type MessagePart = { type: 'text'; text: string } | { type: 'image'; field: string };

export interface RenderedMessage {
  role: MessageRole;
  /** The message's text, an image written as its placeholder (`[image photo]`). */
  content: string;
  parts: MessagePart[];
}

/** A render's result: the whole rendered text, and the messages it makes. */
export interface RenderedPrompt {
  text: string;
  messages: RenderedMessage[];
}

/** What an image input writes in the rendered text: a placeholder naming its field, never its data URI. */
export function imagePlaceholder(field: string): string {
  return `[image ${field}]`;
}

/**
 * The value an image input field has while a template renders: written by an output, it places the image there (see
 * MessageEmitter); anywhere else (a filter, a capture) it is its placeholder text.
 */
export class ImageReference {
  constructor(readonly field: string) {}

  toString(): string {
    return imagePlaceholder(this.field);
  }
}

/** The inputs a template renders with: each image field present replaced by its ImageReference. */
export function withImageReferences(inputs: Record<string, unknown>, imageFields: string[]): Record<string, unknown> {
  if (imageFields.length === 0) return inputs;
  const values = { ...inputs };
  for (const field of imageFields) {
    if (values[field] !== undefined && values[field] !== null) values[field] = new ImageReference(field);
  }
  return values;
}

interface OpenBlock {
  role: MessageRole;
  start: number;
}

interface ClosedBlock extends OpenBlock {
  end: number;
}

interface PlacedImage {
  field: string;
  start: number;
  end: number;
}

/**
 * The emitter of a prompt's render: it keeps the whole text, where each message block starts and ends in it, and where
 * each image was output. An image is placed once, at the first output of its field outside system and assistant
 * blocks; later outputs of it write nothing.
 */
export class MessageEmitter implements Emitter {
  buffer = '';
  private readonly blocks: ClosedBlock[] = [];
  private open: OpenBlock | null = null;
  private readonly images: PlacedImage[] = [];
  private readonly placed = new Set<string>();

  /** `write` with the text of any other value given by `textOf`. */
  constructor(private readonly textOf: (value: unknown) => string) {}

  write(html: unknown): void {
    const value: unknown = toValue(html);
    if (value instanceof ImageReference) {
      if (this.placed.has(value.field)) return;
      // System and assistant messages carry text only: an image output there stays to be placed in a user message.
      if (!this.open || this.open.role === 'user') this.placed.add(value.field);
      const start = this.buffer.length;
      this.append(imagePlaceholder(value.field));
      this.images.push({ field: value.field, start, end: this.buffer.length });
      return;
    }
    this.append(this.textOf(value));
  }

  /** Overridden to bound the text as it grows. */
  protected append(text: string): void {
    this.buffer += text;
  }

  /** Whether a block was opened (a block inside another, or past the limit, is part of the one around it). */
  openBlock(role: MessageRole): boolean {
    if (this.open || this.blocks.length >= MAX_MESSAGE_BLOCKS) return false;
    this.open = { role, start: this.buffer.length };
    return true;
  }

  closeBlock(): void {
    if (!this.open) return;
    this.blocks.push({ ...this.open, end: this.buffer.length });
    this.open = null;
  }

  /**
   * The messages: without blocks, the whole text as one user message; with blocks, one message per block, its text
   * trimmed, a block that renders empty dropped.
   */
  rendered(): RenderedPrompt {
    const text = this.buffer;
    if (this.blocks.length === 0) return { text, messages: [this.messageOf('user', 0, text.length, false)] };
    const messages: RenderedMessage[] = [];
    for (const block of this.blocks) {
      const message = this.messageOf(block.role, block.start, block.end, true);
      if (message.content !== '') messages.push(message);
    }
    return { text, messages };
  }

  private messageOf(role: MessageRole, from: number, to: number, trim: boolean): RenderedMessage {
    let start = from;
    let end = to;
    if (trim) {
      // A placeholder is not whitespace: trimming never cuts into one.
      while (start < end && /\s/.test(this.buffer[start])) start++;
      while (end > start && /\s/.test(this.buffer[end - 1])) end--;
    }
    const parts: MessagePart[] = [];
    let at = start;
    for (const image of this.images) {
      if (image.start < start || image.end > end) continue;
      if (image.start > at) parts.push({ type: 'text', text: this.buffer.slice(at, image.start) });
      parts.push({ type: 'image', field: image.field });
      at = image.end;
    }
    if (at < end || parts.length === 0) parts.push({ type: 'text', text: this.buffer.slice(at, end) });
    return { role, content: this.buffer.slice(start, end), parts };
  }
}

/**
 * Registers `{% system %}…{% endsystem %}`, `{% user %}…{% enduser %}` and `{% assistant %}…{% endassistant %}`. A
 * block renders its body where it stands; rendered by a prompt's MessageEmitter, it also marks where its message
 * starts and ends. Rendered anywhere else (a capture, another engine's emitter), it is its text alone.
 */
export function registerMessageBlocks(engine: Liquid): void {
  for (const role of MESSAGE_ROLES) {
    engine.registerTag(
      role,
      class extends Tag {
        readonly templates: Template[] = [];
        readonly role = role;

        constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid, parser: Parser) {
          super(token, remain, liquid);
          const end = `end${role}`;
          while (remain.length > 0) {
            const next = remain.shift()!;
            if (TypeGuards.isTagToken(next) && next.name === end) return;
            this.templates.push(parser.parseToken(next, remain));
          }
          throw new Error(`tag ${token.getText()} not closed`);
        }

        *render(context: Context, emitter: Emitter): Generator<unknown, void, unknown> {
          const marks = emitter instanceof MessageEmitter && emitter.openBlock(role);
          yield this.liquid.renderer.renderTemplates(this.templates, context, emitter);
          if (marks) emitter.closeBlock();
        }

        // eslint-disable-next-line require-yield -- liquidjs's static analysis reads a tag's children as a generator's result
        *children(): Generator<unknown, Template[]> {
          return this.templates;
        }
      },
    );
  }
}

const COMMENT_TAGS = new Set(['comment', '#']);
const ROLE_NAMES = new Set<string>(MESSAGE_ROLES);

function isMessageBlock(template: Template): boolean {
  return TypeGuards.isTagToken(template.token) && ROLE_NAMES.has(template.token.name);
}

function childrenOf(template: Template): Template[] {
  return template.children ? toValueSync<Template[]>(template.children(false, true)) : [];
}

/** Whether any template of the tree is a message block. */
function hasMessageBlock(templates: Template[]): boolean {
  return templates.some((template) => isMessageBlock(template) || hasMessageBlock(childrenOf(template)));
}

/**
 * The breaches of the message block rules in a parsed template, each with its position; none when it has no blocks.
 * With blocks: nothing but whitespace and comments outside them, blocks at the top level only and never nested, at
 * most one `system` block and it comes first, at most MAX_MESSAGE_BLOCKS blocks.
 */
export function messageBlockProblems(templates: Template[]): MessageBlockProblem[] {
  if (!hasMessageBlock(templates)) return [];
  const problems: MessageBlockProblem[] = [];
  let blocks = 0;
  let systemSeen = false;
  for (const template of templates) {
    if (problems.length >= MAX_PROBLEMS) break;
    const token = template.token;
    if (isMessageBlock(template)) {
      const name = (token as TagToken).name;
      blocks++;
      if (blocks === MAX_MESSAGE_BLOCKS + 1) {
        problems.push(problemAt(token, `a template has at most ${MAX_MESSAGE_BLOCKS} message blocks`));
      }
      if (name === 'system') {
        if (systemSeen) problems.push(problemAt(token, 'a template has at most one system block'));
        else if (blocks > 1) problems.push(problemAt(token, 'the system block must come before the other blocks'));
        systemSeen = true;
      }
      for (const nested of nestedBlocks(childrenOf(template))) {
        problems.push(
          problemAt(nested.token, `message blocks cannot be nested: {% ${nested.name} %} is inside {% ${name} %}`),
        );
      }
      continue;
    }
    if (TypeGuards.isHTMLToken(token)) {
      const text = token.getContent();
      const offset = text.search(/\S/);
      if (offset >= 0) problems.push(problemAt(token, outsideMessage('text'), offset));
      continue;
    }
    if (TypeGuards.isTagToken(token) && COMMENT_TAGS.has(token.name)) continue;
    const inside = nestedBlocks(childrenOf(template));
    const what = TypeGuards.isTagToken(token) ? `the {% ${token.name} %} tag` : 'an output';
    if (inside.length === 0) problems.push(problemAt(token, outsideMessage(what)));
    for (const nested of inside) {
      problems.push(problemAt(nested.token, `message blocks must be at the top level of the template, not in ${what}`));
    }
  }
  return problems;
}

function outsideMessage(what: string): string {
  return `${what} outside message blocks: a template with message blocks has only whitespace and comments outside them`;
}

/** The message blocks anywhere in these templates (and their children). */
function nestedBlocks(templates: Template[]): { token: TagToken; name: string }[] {
  const found: { token: TagToken; name: string }[] = [];
  for (const template of templates) {
    if (isMessageBlock(template)) {
      const token = template.token as TagToken;
      found.push({ token, name: token.name });
    }
    found.push(...nestedBlocks(childrenOf(template)));
  }
  return found;
}

/** A problem at `token`'s position, or `offset` characters into it. */
function problemAt(token: Template['token'], message: string, offset = 0): MessageBlockProblem {
  const before = token.input.slice(0, token.begin + offset);
  const lines = before.split('\n');
  return { message, line: lines.length, column: lines[lines.length - 1].length + 1 };
}
