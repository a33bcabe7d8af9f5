import { workerData } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import type { Template } from 'liquidjs';
import { createLiquidEngine, RenderFailure, type RenderLimits, renderWithinLimits } from './liquid-template';
import type { RenderedPrompt } from './message-blocks';

/** One render, posted by the main thread's RenderPool. */
export interface RenderTask {
  /** `${promptId}:${version}`: versions are immutable, so a parsed template is reused for as long as it is cached. */
  cacheKey: string;
  template: string;
  inputs: Record<string, unknown>;
  /** The image input fields: each renders as its image, whatever its value in `inputs`. */
  imageFields: string[];
}

/** Failures travel as values: an Error thrown in a worker loses its class on the way to the main thread. */
export type RenderOutcome = { ok: true; rendered: RenderedPrompt } | { ok: false; message: string };

// Each worker thread keeps its own engine and parsed templates (a parsed template cannot cross threads).
const limits = workerData as RenderLimits;
const engine = createLiquidEngine(limits);
const parsed = new LRUCache<string, { source: string; templates: Template[] }>({ max: 500 });

export default function render(task: RenderTask): RenderOutcome {
  try {
    let entry = parsed.get(task.cacheKey);
    if (!entry || entry.source !== task.template) {
      entry = { source: task.template, templates: engine.parse(task.template) };
      parsed.set(task.cacheKey, entry);
    }
    return { ok: true, rendered: renderWithinLimits(engine, entry.templates, task.inputs, limits, task.imageFields) };
  } catch (error) {
    if (error instanceof RenderFailure) return { ok: false, message: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message: message.replace(/, line:\d+, col:\d+$/, '') };
  }
}
