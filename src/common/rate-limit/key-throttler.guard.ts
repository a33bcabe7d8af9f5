import { type CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { RateLimitError } from '../errors/app-error';
import { type HttpRequestLike, type HttpResponseLike, setHeader } from '../http/http-context';
import { requestContextOf } from '../http/request-context';
import { Metrics } from '../metrics/metrics';
import { KeyThrottlerStorage, type RateLimitDecision } from './rate-limiter';
import { rateLimitSurfaceOf } from './rate-limit.decorator';
import { type PerMinuteLimits, perMinuteLimitsOf, surfaceWindows } from './surface-windows';
import { WindowAdmission } from './window-admission';

/**
 * The one place that writes the rate-limit headers, on every surface: X-RateLimit-Limit, -Remaining and -Reset (a
 * Unix timestamp in seconds) of the reported window, and Retry-After on a refusal.
 */
export function applyRateLimitHeaders(response: HttpResponseLike, decision: RateLimitDecision): void {
  setHeader(response, 'X-RateLimit-Limit', decision.reported.limit);
  setHeader(response, 'X-RateLimit-Remaining', decision.reported.remaining);
  setHeader(response, 'X-RateLimit-Reset', Math.ceil(decision.reported.resetAtMs / 1000));
  if (!decision.allowed) setHeader(response, 'Retry-After', decision.retryAfterSeconds);
}

export function rateLimitError(decision: RateLimitDecision): RateLimitError {
  const seconds = decision.retryAfterSeconds;
  return new RateLimitError(`Rate limit exceeded: retry in ${seconds} second${seconds === 1 ? '' : 's'}`, seconds);
}

/**
 * The rate limits of the admin, execution and scoring routes, keyed by API key. The windows a request counts in are
 * `surfaceWindows` of its route's surface (@RateLimit, read once per handler), its key's limits and, for an execution,
 * the target endpoint's own: the same windows, under the same keys, that MCP tool calls count in. They are counted
 * together in @nestjs/throttler's storage (one WindowAdmission) and decided once all are in: a refusal gives back the
 * hits the request counted, and its Retry-After covers every full window. The headers are written here, after the
 * decision, on success and refusal.
 *
 * The library's own guard is not used: it looks up six pieces of route metadata for each of its named throttlers on
 * every request (eight throttlers, about 50 lookups, several awaits), which was a measurable share of a call's CPU,
 * while a route's windows follow from its surface alone.
 */
@Injectable()
export class KeyThrottlerGuard implements CanActivate {
  private readonly perMinute: PerMinuteLimits;

  constructor(
    @InjectThrottlerStorage() private readonly windows: KeyThrottlerStorage,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.perMinute = perMinuteLimitsOf(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<HttpRequestLike>();
    const requestContext = requestContextOf(request);
    const surface = rateLimitSurfaceOf(context);
    const admission = new WindowAdmission(this.windows);
    const endpoint = surface === 'execution' ? requestContext.executionTarget : null;
    for (const window of surfaceWindows(this.perMinute, [surface], requestContext.principal, endpoint)) {
      admission.count(window);
    }
    if (admission.isEmpty) return true;
    const decision = await admission.decision();
    applyRateLimitHeaders(http.getResponse<HttpResponseLike>(), decision);
    if (!decision.allowed) {
      if (requestContext.surface !== 'open' && this.metrics.enabled) this.metrics.rateLimited(requestContext.surface);
      throw rateLimitError(decision);
    }
    return true;
  }
}
