import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Piscina } from 'piscina';
import { PromptError } from '../../../common/errors/app-error';
import { FairAdmission } from './fair-admission';
import type { RenderLimits } from './liquid-template';
import type { RenderedPrompt } from './message-blocks';
import type { RenderOutcome, RenderTask } from './render.worker';

/** Render threads: two at least, so one hostile render never holds every render; at most four. */
const THREADS = Math.min(4, Math.max(2, availableParallelism()));
/** Render threads run at a lower scheduling priority than the event loop, which keeps answering while they work. */
const NICE_INCREMENT = 10;
/**
 * liquidjs stops a render between two steps once its time is up; one step it cannot interrupt (a single filter over a
 * huge string) is stopped from here by terminating the thread, after twice the budget plus the start of a
 * replacement thread.
 */
const BACKSTOP_GRACE_MS = 250;
/**
 * A render thread's young generation. V8 sizes it from the machine's memory (on Node 24 up to 64 MB a semi-space) for
 * the main thread's throughput; a render allocates a template's short-lived values, and every thread holding a young
 * generation that large added tens of megabytes to the process's resident memory under load.
 */
const YOUNG_GENERATION_MB = 16;
/** The start of every render failure's message, wherever the template rendered. */
export const RENDER_FAILED = "The prompt's template could not be rendered";

/** Who a render is for: its tenant's share of the threads, and the request's signal (aborted when its client left). */
export interface RenderCaller {
  tenantId: string;
  signal?: AbortSignal;
}

/** Renders asked for without a caller (the service's own checks) share one tenant's place in the queue. */
const NO_CALLER: RenderCaller = { tenantId: '' };

/**
 * Renders templates in worker threads, so a template that loops or builds strings for its whole budget holds a
 * render thread, not the event loop every other request needs. Each thread keeps its own parsed-template cache.
 * At most one render per thread is in flight; the others wait here, so a render's time starts when a thread takes
 * it. The wait is fair between tenants and bounded (see FairAdmission): one tenant flooding the threads with slow
 * templates holds at most half of them while another tenant's render waits, and past `queueMax` waiting renders the
 * tenant holding most of the queue is refused with 503 `overloaded`.
 */
export class RenderPool {
  private readonly pool: Piscina<RenderTask, RenderOutcome>;
  private readonly backstopMs: number;
  private readonly admission: FairAdmission;

  constructor(
    private readonly limits: RenderLimits,
    queueMax: number,
  ) {
    this.admission = new FairAdmission(THREADS, queueMax);
    this.backstopMs = limits.timeoutMs * 2 + BACKSTOP_GRACE_MS;
    this.pool = new Piscina<RenderTask, RenderOutcome>({
      ...workerScript(),
      minThreads: THREADS,
      maxThreads: THREADS,
      idleTimeout: Number.POSITIVE_INFINITY,
      workerData: limits,
      niceIncrement: NICE_INCREMENT,
      resourceLimits: { maxOldGenerationSizeMb: heapLimitMb(limits), maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
  }

  /** Starts every thread and loads its engine, so no render's time includes a thread's start. */
  async warmUp(): Promise<void> {
    await Promise.all(
      Array.from({ length: THREADS }, () =>
        this.pool.run({ cacheKey: 'warm-up', template: '', inputs: {}, imageFields: [] }),
      ),
    );
  }

  /** The rendered text and messages, or a PromptError saying why the template cannot run. */
  async render(task: RenderTask, caller: RenderCaller = NO_CALLER): Promise<RenderedPrompt> {
    const release = await this.admission.admit(caller.tenantId, caller.signal);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.backstopMs);
    try {
      const outcome = await this.pool.run(task, { signal: controller.signal });
      if (!outcome.ok) throw new PromptError(`${RENDER_FAILED}: ${outcome.message}`);
      return outcome.rendered;
    } catch (error) {
      if (error instanceof PromptError) throw error;
      if (controller.signal.aborted)
        throw new PromptError(`${RENDER_FAILED}: the template took longer than ${this.limits.timeoutMs} ms to render`);
      // The thread ran out of its heap (Piscina replaces it): the template built more than any budget allows.
      if ((error as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new PromptError(`${RENDER_FAILED}: the template builds strings larger than its memory budget`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/**
 * A render thread's heap: the strings liquidjs lets a template build (eight times the output limit, two bytes a
 * character) and the output itself, with room to spare. A thread past it dies alone, whatever the template did.
 */
function heapLimitMb(limits: RenderLimits): number {
  return 64 + Math.ceil((Math.max(limits.maxOutputBytes, 2 ** 20) * 24) / 2 ** 20);
}

/**
 * Built, the worker is the `.js` beside this file. Run from the TypeScript sources (the test runner), a worker thread
 * has no transform of its own: it loads the `.ts` through the swc require hook of the test support.
 */
function workerScript(): { filename: string; execArgv?: string[] } {
  const extension = path.extname(__filename);
  const filename = path.join(__dirname, `render.worker${extension}`);
  if (extension !== '.ts') return { filename };
  return { filename, execArgv: ['--require', path.join(__dirname, '../../../../test/support/ts-require-hook.js')] };
}
