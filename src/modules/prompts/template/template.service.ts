import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { Template } from 'liquidjs';
import { ValidationError } from '../../../common/errors/app-error';
import { analyzeTemplate, createLiquidEngine, syntaxProblem, TemplateAnalysis, templateSizeProblem } from './liquid-template';

const PARSED_CACHE_SIZE = 500;

/** The one place that parses and renders Liquid, for the validator, prompt saves and execution. */
@Injectable()
export class TemplateService {
  private readonly engine = createLiquidEngine();
  private readonly parsed = new LRUCache<string, { source: string; template: Template[] }>({ max: PARSED_CACHE_SIZE });

  /** The validator's report (decisions.md §2). */
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
   * Renders with `inputs` in scope. The parsed template is cached by `cacheKey` (execution passes
   * `${promptId}:${version}`; versions are immutable); a different source under the same key is parsed again.
   * A template that fails to parse or exceeds the render limits is a ValidationError naming `template`.
   */
  async render(cacheKey: string, template: string, inputs: Record<string, unknown>): Promise<string> {
    try {
      let entry = this.parsed.get(cacheKey);
      if (!entry || entry.source !== template) {
        entry = { source: template, template: this.engine.parse(template) };
        this.parsed.set(cacheKey, entry);
      }
      return String(await this.engine.render(entry.template, { inputs }));
    } catch (error) {
      throw new ValidationError(`The prompt's template could not be rendered: ${error instanceof Error ? error.message : String(error)}`, 'template');
    }
  }
}
