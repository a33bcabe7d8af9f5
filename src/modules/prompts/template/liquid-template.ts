import {
  Context,
  Liquid,
  LiquidError,
  Tag,
  toValue,
  toValueSync,
  type Template,
  type TagToken,
  type TopLevelToken,
} from 'liquidjs';
import {
  MessageEmitter,
  messageBlockProblems,
  registerMessageBlocks,
  type RenderedPrompt,
  withImageReferences,
} from './message-blocks';

/** Templates are bounded in size (bytes of UTF-8). */
export const TEMPLATE_MAX_BYTES = 102_400;

/** What one render may use: wall-clock time and bytes of output (UTF-8). */
export interface RenderLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

/** The limits of an engine that only parses (validator, saves) or renders in tests of the engine itself. */
export const DEFAULT_RENDER_LIMITS: RenderLimits = { timeoutMs: 100, maxOutputBytes: 1024 * 1024 };

/**
 * Filters and ranges may build intermediate strings and lists (`append`, `replace`, `(1..n)`) larger than what ends up
 * in the output: liquidjs bounds their allocations (counted in characters and items) at eight times the output limit,
 * and at least 8 Mi, so a small output limit does not also shrink what a template may compute.
 */
function allocationBudget(limits: RenderLimits): number {
  return Math.max(limits.maxOutputBytes * 8, 8 * 1024 * 1024);
}

export interface TemplateProblem {
  message: string;
  line: number | null;
  column: number | null;
}

export interface TemplateAnalysis {
  valid: boolean;
  errors: TemplateProblem[];
  /** The `inputs.<name>` the template reads, in order of first use. */
  variables: string[];
  /** Variables that are not input fields of the endpoint (or not under `inputs` at all). */
  unknownVariables: string[];
}

const FILE_TAGS = ['render', 'include', 'layout'];

/**
 * The one Liquid configuration: the message block tags (see message-blocks.ts), no file system (`templates: {}`, and
 * the tags that load other templates fail at parse time so the validator reports them), unknown filters are parse
 * errors, `default` and `if` tolerate missing inputs, and parse, time and allocation limits stop hostile templates. Missing variables render empty: unknown names are
 * caught statically by the validator, and optional inputs may be absent.
 */
export function createLiquidEngine(limits: RenderLimits = DEFAULT_RENDER_LIMITS): Liquid {
  const engine = new Liquid({
    templates: {},
    strictFilters: true,
    strictVariables: false,
    lenientIf: true,
    ownPropertyOnly: true,
    parseLimit: TEMPLATE_MAX_BYTES,
    renderLimit: limits.timeoutMs,
    memoryLimit: allocationBudget(limits),
  });
  registerMessageBlocks(engine);
  for (const name of FILE_TAGS) {
    engine.registerTag(
      name,
      class extends Tag {
        constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
          super(token, remain, liquid);
          throw new Error(`the ${name} tag is not available: templates cannot load other templates or files`);
        }
        *render(): Generator<unknown, void, unknown> {}
      },
    );
  }
  return engine;
}

/** A render that broke one of the limits or failed; its message is fit for the caller. */
export class RenderFailure extends Error {}

/**
 * Renders parsed templates with `inputs` in scope, synchronously (no filter or tag of this engine waits on I/O), into
 * the whole text and its messages (see MessageEmitter). Each of `imageFields` present in `inputs` renders as its image
 * (see ImageReference), whatever its value. The output is checked as it grows, so a template that writes more than
 * `limits.maxOutputBytes` stops there instead of building the whole string; liquidjs stops loops past
 * `limits.timeoutMs` and allocations past their budget.
 */
export function renderWithinLimits(
  engine: Liquid,
  templates: Template[],
  inputs: Record<string, unknown>,
  limits: RenderLimits,
  imageFields: string[] = [],
): RenderedPrompt {
  const emitter = new BoundedEmitter(limits.maxOutputBytes);
  const scope = { inputs: withImageReferences(inputs, imageFields) };
  const context = new Context(scope, engine.options, { sync: true }, { liquid: engine });
  try {
    toValueSync(engine.renderer.renderTemplates(templates, context, emitter));
  } catch (error) {
    throw renderFailure(error, limits);
  }
  // Characters under-count UTF-8 bytes: the exact size is checked once at the end.
  if (Buffer.byteLength(emitter.buffer, 'utf8') > limits.maxOutputBytes) throw tooLarge(limits);
  return emitter.rendered();
}

class BoundedEmitter extends MessageEmitter {
  constructor(private readonly maxOutputBytes: number) {
    super(textOf);
  }

  protected override append(text: string): void {
    this.buffer += text;
    // A character is at least one byte of UTF-8: past the limit in characters, it is past it in bytes.
    if (this.buffer.length > this.maxOutputBytes) throw new OutputLimitExceeded();
  }
}

class OutputLimitExceeded extends Error {}

/** What liquidjs writes for a value: strings as they are, nothing for null, lists joined, the rest as String(). */
function textOf(value: unknown): string {
  const plain: unknown = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === null || plain === undefined) return '';
  if (Array.isArray(plain)) return plain.map(textOf).join('');
  // liquidjs prints any other value with String(), an object as '[object Object]': the output is what it writes.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the same conversion as liquidjs's own
  return String(plain);
}

function tooLarge(limits: RenderLimits): RenderFailure {
  return new RenderFailure(`the rendered prompt is larger than ${limits.maxOutputBytes} bytes`);
}

function renderFailure(error: unknown, limits: RenderLimits): RenderFailure {
  // liquidjs wraps what a tag or filter throws in a RenderError that keeps the original as `originalError`.
  const original = (error as { originalError?: unknown } | null)?.originalError ?? error;
  if (original instanceof OutputLimitExceeded || error instanceof OutputLimitExceeded) return tooLarge(limits);
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes('template render limit exceeded'))
    return new RenderFailure(`the template took longer than ${limits.timeoutMs} ms to render`);
  if (message.includes('memory alloc limit exceeded') || message.includes('Invalid string length')) {
    return new RenderFailure('the template builds strings larger than its memory budget');
  }
  return new RenderFailure(message.replace(/, line:\d+, col:\d+$/, ''));
}

/** A 400-style message when the template is over the size limit, else null. */
export function templateSizeProblem(source: string): string | null {
  const bytes = Buffer.byteLength(source, 'utf8');
  return bytes > TEMPLATE_MAX_BYTES
    ? `template must be at most ${TEMPLATE_MAX_BYTES} bytes (100 KB); it has ${bytes}`
    : null;
}

/** The first breach of the message block rules in a template that parses, with its position; null when none. */
export function messageBlockProblem(engine: Liquid, source: string): TemplateProblem | null {
  return messageBlockProblems(engine.parse(source))[0] ?? null;
}

/** The template's syntax problem with its position, or null when it parses. */
export function syntaxProblem(engine: Liquid, source: string): TemplateProblem | null {
  try {
    engine.parse(source);
    return null;
  } catch (error) {
    return toProblem(error);
  }
}

/**
 * The validator's report: syntax errors with line and column, breaches of the message block rules, the `inputs.<name>`
 * variables read (image fields too), and the unknown ones (not one of `inputFieldNames`, `default` filter or not), each
 * breach or unknown variable also making the template invalid.
 */
export function analyzeTemplate(engine: Liquid, source: string, inputFieldNames: string[]): TemplateAnalysis {
  const sizeProblem = templateSizeProblem(source);
  if (sizeProblem)
    return {
      valid: false,
      errors: [{ message: sizeProblem, line: null, column: null }],
      variables: [],
      unknownVariables: [],
    };
  let parsed: Template[];
  try {
    parsed = engine.parse(source);
  } catch (error) {
    return { valid: false, errors: [toProblem(error)], variables: [], unknownVariables: [] };
  }
  const known = new Set(inputFieldNames);
  const variables: string[] = [];
  const unknown = new Map<string, TemplateProblem>();
  for (const [root, occurrences] of Object.entries(engine.analyzeSync(parsed, { partials: false }).globals)) {
    for (const occurrence of occurrences) {
      const { row, col } = occurrence.location;
      if (root !== 'inputs') {
        if (!unknown.has(root)) {
          unknown.set(root, {
            message: `Unknown variable '${root}': templates read request values as inputs.<field>`,
            line: row,
            column: col,
          });
        }
        continue;
      }
      // `{{ inputs }}` and dynamic keys (`inputs[key]`) name no field statically.
      const field = occurrence.segments[1];
      if (typeof field !== 'string') continue;
      const name = `inputs.${field}`;
      if (!variables.includes(name)) variables.push(name);
      if (!known.has(field) && !unknown.has(name)) {
        unknown.set(name, {
          message: `Unknown variable '${name}': '${field}' is not an input field of this endpoint`,
          line: row,
          column: col,
        });
      }
    }
  }
  const errors = [...messageBlockProblems(parsed), ...unknown.values()].sort(
    (a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0),
  );
  return { valid: errors.length === 0, errors, variables, unknownVariables: [...unknown.keys()] };
}

function toProblem(error: unknown): TemplateProblem {
  if (error instanceof LiquidError) {
    const [line, column] = error.token?.getPosition() ?? [null, null];
    return { message: error.message.replace(/, line:\d+, col:\d+$/, ''), line, column };
  }
  // The parse limit throws a plain AssertionError without a position.
  return { message: error instanceof Error ? error.message : String(error), line: null, column: null };
}
