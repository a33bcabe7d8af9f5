import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Liquid, Template } from 'liquidjs';
import { LRUCache } from 'lru-cache';
import { PromptError, ValidationError } from '../../../common/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import {
  analyzeTemplate,
  createLiquidEngine,
  RenderFailure,
  type RenderLimits,
  renderWithinLimits,
  messageBlockProblem,
  syntaxProblem,
  TemplateAnalysis,
  templateSizeProblem,
} from './liquid-template';
import type { RenderedPrompt } from './message-blocks';
import { classifyTemplate, renderedSizeBound, type TemplateShape } from './render-bound';
import { RENDER_FAILED, type RenderCaller, RenderPool } from './render-pool';

/** A template version as this thread knows it: its shape, and its parsed form when it is bounded. */
interface RenderPlan {
  source: string;
  shape: TemplateShape;
  /** Null when the template is unbounded or does not parse: it renders in a render thread, which reports its error. */
  templates: Template[] | null;
}

/** The one place that parses and renders Liquid, for the validator, prompt saves and execution. */
@Injectable()
export class TemplateService implements OnApplicationShutdown {
  /** Parses only (validator, saves): parsing is bounded by the template's size limit and never loops. */
  private readonly engine = createLiquidEngine();
  /** Started with the first render that needs it, so processes that never render (the CLI) start no threads. */
  private pool: Promise<RenderPool> | null = null;
  private readonly limits: RenderLimits;
  private readonly renderQueueMax: number;
  /** Parses and renders bounded templates on this thread, with the render threads' options and limits. */
  private readonly renderEngine: Liquid;
  /** Classified (and, when bounded, parsed) versions, keyed and checked like each render thread's cache. */
  private readonly plans = new LRUCache<string, RenderPlan>({ max: 500 });

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limits = { timeoutMs: config.renderTimeoutMs, maxOutputBytes: config.maxRenderedPromptBytes };
    this.renderQueueMax = config.renderQueueMax;
    this.renderEngine = createLiquidEngine(this.limits);
  }

  // On application shutdown, not module destroy: that runs before the HTTP server closes, while requests in flight
  // still render.
  async onApplicationShutdown(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    if (pool) await (await pool).close();
  }

  /** The validator's report: syntax errors with positions, the inputs read and the unknown ones. */
  validate(template: string, inputFieldNames: string[]): TemplateAnalysis {
    return analyzeTemplate(this.engine, template, inputFieldNames);
  }

  /** Templates are bounded in size: a 400 naming `template` above 100 KB. */
  assertWithinSizeLimit(template: string): void {
    const sizeProblem = templateSizeProblem(template);
    if (sizeProblem) throw new ValidationError(sizeProblem, 'template');
  }

  /**
   * A prompt template that can be saved: within the size limit, valid Liquid syntax, and its message blocks (if any)
   * laid out by their rules; a 400 naming `template` with the problem and its position otherwise.
   */
  assertSavable(template: string): void {
    this.assertWithinSizeLimit(template);
    this.assertParses(template, 'template');
    const problem = messageBlockProblem(this.engine, template);
    if (problem) throw new ValidationError(`template breaks the message block rules: ${describe(problem)}`, 'template');
  }

  /**
   * A template that parses as Liquid, whatever it is for (a prompt's template, an evaluation judge's rubric): a 400
   * naming `field` with the syntax error and its position otherwise. Its size is the caller's to bound.
   */
  assertParses(template: string, field: string): void {
    const problem = syntaxProblem(this.engine, template);
    if (problem) throw new ValidationError(`${field} is not valid Liquid: ${describe(problem)}`, field);
  }

  /**
   * Renders with `inputs` in scope, into the whole text and its messages; each of `imageFields` renders as its image
   * (its value is not read, so it is not sent to a render thread). A bounded template (only branch tags, only filters that keep a value's length,
   * see `classifyTemplate`) whose output bound with these inputs is within MAX_RENDERED_PROMPT_BYTES renders here:
   * its time is linear in that bound, and handing it to a thread would cost more than the render. Every other
   * template renders in a render thread, so one that loops or builds strings for its whole budget never holds the
   * event loop. `cacheKey` names the parsed template in each cache (execution passes `${promptId}:${version}`;
   * versions are immutable); a different source under the same key is parsed again. A template that fails, takes
   * longer than RENDER_TIMEOUT_MS or writes more than MAX_RENDERED_PROMPT_BYTES is a PromptError (422): the prompt
   * cannot run. A render that needs a thread waits its `caller`'s fair turn: an OverloadedError (503) when the wait
   * queue is full and the caller's tenant holds most of it, the signal's reason when the caller's request went away.
   */
  async render(
    cacheKey: string,
    template: string,
    values: Record<string, unknown>,
    caller?: RenderCaller,
    imageFields: string[] = [],
  ): Promise<RenderedPrompt> {
    const inputs = withoutImageData(values, imageFields);
    const plan = this.planOf(cacheKey, template);
    if (plan.templates && plan.shape.bounded && renderedSizeBound(plan.shape, inputs) <= this.limits.maxOutputBytes) {
      return this.renderHere(plan.templates, inputs, imageFields);
    }
    this.pool ??= this.startPool();
    return (await this.pool).render({ cacheKey, template, inputs, imageFields }, caller);
  }

  private planOf(cacheKey: string, source: string): RenderPlan {
    const cached = this.plans.get(cacheKey);
    if (cached && cached.source === source) return cached;
    const shape: TemplateShape = templateSizeProblem(source)
      ? { bounded: false, reason: 'the template is over its size limit' }
      : classifyTemplate(this.renderEngine, source);
    let templates: Template[] | null = null;
    if (shape.bounded) {
      try {
        templates = this.renderEngine.parse(source);
      } catch {
        // Left to a render thread, which answers the syntax error as every unparsable template's.
      }
    }
    const plan = { source, shape, templates };
    this.plans.set(cacheKey, plan);
    return plan;
  }

  private renderHere(templates: Template[], inputs: Record<string, unknown>, imageFields: string[]): RenderedPrompt {
    try {
      return renderWithinLimits(this.renderEngine, templates, inputs, this.limits, imageFields);
    } catch (error) {
      if (error instanceof RenderFailure) throw new PromptError(`${RENDER_FAILED}: ${error.message}`);
      throw error;
    }
  }

  private async startPool(): Promise<RenderPool> {
    const pool = new RenderPool(this.limits, this.renderQueueMax);
    try {
      await pool.warmUp();
      return pool;
    } catch (error) {
      // The next render starts a new pool rather than failing forever.
      this.pool = null;
      await pool.close();
      throw error;
    }
  }
}

function describe(problem: { message: string; line: number | null; column: number | null }): string {
  const position = problem.line !== null ? ` (line ${problem.line}, column ${problem.column})` : '';
  return `${problem.message}${position}`;
}

/** The inputs with each image field's data URI replaced by its name: the render places the image, never its data. */
function withoutImageData(values: Record<string, unknown>, imageFields: string[]): Record<string, unknown> {
  if (!imageFields.some((field) => values[field] !== undefined && values[field] !== null)) return values;
  const inputs = { ...values };
  for (const field of imageFields) if (inputs[field] !== undefined && inputs[field] !== null) inputs[field] = field;
  return inputs;
}
