import type { IncomingMessage, ServerResponse } from 'node:http';
import { type HttpRequestLike, nodeRequestOf } from '../http/http-context';
import type { Surface } from '../http/surface';
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
 * in the HTTP adapter's request hook, so refusals before routing (401, 413, 404) are counted too. The surface is the
 * request's, from the surface table (see RequestContext); open routes are not counted.
 */
export class RequestMetrics {
  constructor(private readonly metrics: Metrics) {}

  use(request: ProviderTimedRequest, response: ServerResponse, surface: Surface): void {
    if (surface === 'open') return;
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
