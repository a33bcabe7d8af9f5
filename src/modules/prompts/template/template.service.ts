import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ValidationError } from '../../../common/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { analyzeTemplate, createLiquidEngine, syntaxProblem, TemplateAnalysis, templateSizeProblem } from './liquid-template';
import { RenderPool } from './render-pool';

/** The one place that parses and renders Liquid, for the validator, prompt saves and execution. */
@Injectable()
export class TemplateService implements OnApplicationShutdown {
  /** Parses only (validator, saves): parsing is bounded by the template's size limit and never loops. */
  private readonly engine = createLiquidEngine();
  /** Started with the first render, so processes that never render (the CLI) start no threads. */
  private pool: Promise<RenderPool> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

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

  /** A template that can be saved: within the size limit and valid Liquid syntax (a 400 naming `template`). */
  assertSavable(template: string): void {
    this.assertWithinSizeLimit(template);
    const problem = syntaxProblem(this.engine, template);
    if (problem) {
      const position = problem.line !== null ? ` (line ${problem.line}, column ${problem.column})` : '';
      throw new ValidationError(`template is not valid Liquid: ${problem.message}${position}`, 'template');
    }
  }

  /**
   * Renders with `inputs` in scope, in a render thread. `cacheKey` names the parsed template in each thread's cache
   * (execution passes `${promptId}:${version}`; versions are immutable); a different source under the same key is
   * parsed again. A template that fails, takes longer than RENDER_TIMEOUT_MS or writes more than
   * MAX_RENDERED_PROMPT_BYTES is a PromptError (422): the prompt cannot run.
   */
  async render(cacheKey: string, template: string, inputs: Record<string, unknown>): Promise<string> {
    this.pool ??= this.startPool();
    return (await this.pool).render({ cacheKey, template, inputs });
  }

  private async startPool(): Promise<RenderPool> {
    const pool = new RenderPool({ timeoutMs: this.config.renderTimeoutMs, maxOutputBytes: this.config.maxRenderedPromptBytes });
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
