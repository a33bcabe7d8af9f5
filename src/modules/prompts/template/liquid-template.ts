import { Liquid, LiquidError, Tag, type Template, type TagToken, type TopLevelToken } from 'liquidjs';

/** Templates are bounded in size (bytes of UTF-8). */
export const TEMPLATE_MAX_BYTES = 102_400;
/** Per render: wall-clock budget (ms) and allocation budget (liquidjs units, roughly characters). */
export const RENDER_LIMIT_MS = 1_000;
export const MEMORY_LIMIT = 50_000_000;

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
 * The one Liquid configuration (STACK-NOTES §6): no file system (`templates: {}`, and the tags that load other
 * templates fail at parse time so the validator reports them), unknown filters are parse errors, `default` and `if`
 * tolerate missing inputs, and parse/render/memory limits stop hostile templates. Missing variables render empty:
 * unknown names are caught statically by the validator, and optional inputs may be absent.
 */
export function createLiquidEngine(): Liquid {
  const engine = new Liquid({
    templates: {},
    strictFilters: true,
    strictVariables: false,
    lenientIf: true,
    ownPropertyOnly: true,
    parseLimit: TEMPLATE_MAX_BYTES,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
  });
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

/** A 400-style message when the template is over the size limit, else null. */
export function templateSizeProblem(source: string): string | null {
  const bytes = Buffer.byteLength(source, 'utf8');
  return bytes > TEMPLATE_MAX_BYTES ? `template must be at most ${TEMPLATE_MAX_BYTES} bytes (100 KB); it has ${bytes}` : null;
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
 * decisions.md §2: syntax errors with line and column, the `inputs.<name>` variables read, and the unknown ones (not
 * one of `inputFieldNames`, `default` filter or not), each of which also makes the template invalid.
 */
export function analyzeTemplate(engine: Liquid, source: string, inputFieldNames: string[]): TemplateAnalysis {
  const sizeProblem = templateSizeProblem(source);
  if (sizeProblem) return { valid: false, errors: [{ message: sizeProblem, line: null, column: null }], variables: [], unknownVariables: [] };
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
          unknown.set(root, { message: `Unknown variable '${root}': templates read request values as inputs.<field>`, line: row, column: col });
        }
        continue;
      }
      // `{{ inputs }}` and dynamic keys (`inputs[key]`) name no field statically.
      const field = occurrence.segments[1];
      if (typeof field !== 'string') continue;
      const name = `inputs.${field}`;
      if (!variables.includes(name)) variables.push(name);
      if (!known.has(field) && !unknown.has(name)) {
        unknown.set(name, { message: `Unknown variable '${name}': '${field}' is not an input field of this endpoint`, line: row, column: col });
      }
    }
  }
  const errors = [...unknown.values()].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
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
