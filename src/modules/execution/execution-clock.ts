import { UpstreamTimeoutError } from '../../common/errors/app-error';

/** Whole milliseconds since `startedMs` (a performance.now() reading). */
export function elapsedSince(startedMs: number): number {
  return Math.round(performance.now() - startedMs);
}

/**
 * Runs `work` with an abort signal that fires when the time left runs out, and answers 504 at that moment (with
 * `message`, the endpoint's timeout by default). With `stopOn`, the same signal also fires when that one does (with its
 * reason): one controller and one listener, rather than a composite signal per call, whose tracking Node keeps until
 * a garbage collection.
 */
export async function withDeadline<T>(
  remainingMs: number,
  timeoutSeconds: number,
  work: (signal: AbortSignal) => Promise<T>,
  message = `The LLM did not answer within the endpoint's timeout of ${timeoutSeconds} seconds`,
  stopOn?: AbortSignal,
): Promise<T> {
  if (remainingMs <= 0) throw new UpstreamTimeoutError(message);
  const controller = new AbortController();
  const stop = stopOn ? () => controller.abort(stopOn.reason) : undefined;
  if (stopOn && stop) {
    if (stopOn.aborted) stop();
    else stopOn.addEventListener('abort', stop, { once: true });
  }
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new UpstreamTimeoutError(message));
    }, remainingMs);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } catch (error) {
    if (error instanceof UpstreamTimeoutError) throw new UpstreamTimeoutError(message);
    throw error;
  } finally {
    clearTimeout(timer);
    if (stopOn && stop) stopOn.removeEventListener('abort', stop);
  }
}
