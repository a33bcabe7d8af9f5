import type { IncomingMessage, ServerResponse } from 'node:http';
import { keyedSurfaceOf } from '../auth/pre-body-auth.middleware';
import { type HttpRequestLike, nodeRequestOf } from '../http/http-context';
import type { CacheLookupResult, Metrics } from './metrics';

/** The time an execution request spent waiting for providers, noted on Node's request for the overhead histogram. */
interface ProviderTimedRequest extends IncomingMessage {
  providerMs?: number;
}

/** Notes the provider calls an execution made (their latencies, in milliseconds) on its request. */
export function noteProviderTime(request: HttpRequestLike, attempts: readonly { latencyMs: number }[]): void {
  let total = 0;
  for (const attempt of attempts) total += attempt.latencyMs;
  (nodeRequestOf(request) as ProviderTimedRequest).providerMs = total;
}

const CACHE_RESULTS = new Map<unknown, CacheLookupResult>([
  ['HIT', 'hit'],
  ['MISS', 'miss'],
  ['BYPASS', 'bypass'],
]);

/**
 * Counts each request of the keyed surfaces when its answer has been sent: its surface and status code, and for an
 * execution its cache lookup (the X-Cache it answered) and its overhead (its time minus its provider calls'). Installed
 * in the HTTP adapter's request hook, so refusals before routing (401, 413, 404) are counted too.
 */
export class RequestMetrics {
  constructor(private readonly metrics: Metrics) {}

  use(request: ProviderTimedRequest, response: ServerResponse): void {
    const url = request.url ?? '/';
    // The usual spelling of an execution is recognised at once; any other goes through the full (decoding) match.
    const surface = url.startsWith('/api/v1/') ? 'execution' : keyedSurfaceOf(url);
    if (!surface) return;
    const startedMs = performance.now();
    // `finish` is emitted once; `on` spares the wrapper `once` builds.
    response.on('finish', () => {
      this.metrics.requestAnswered(surface, response.statusCode);
      if (surface !== 'execution') return;
      const cache = CACHE_RESULTS.get(response.getHeader('x-cache'));
      if (cache) this.metrics.cacheLookup(cache);
      this.metrics.overheadObserved((performance.now() - startedMs - (request.providerMs ?? 0)) / 1000);
    });
  }
}
