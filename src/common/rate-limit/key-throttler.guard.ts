import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
} from '@nestjs/throttler';
import { RateLimitError } from '../errors/app-error';
import { type HttpRequestLike, type HttpResponseLike, setHeader } from '../http/http-context';
import { requestContextOf } from '../http/request-context';
import { Metrics } from '../metrics/metrics';
import { KeyThrottlerStorage, type RateLimitDecision } from './rate-limiter';
import { isEndpointWindow, windowKey } from './surface-windows';
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
 * @nestjs/throttler keyed by API key, on the admin and execution routes. The tracker is the authenticated key's id
 * (from the request's context), and each named throttler of the windows the route names (@RateLimit, see
 * `throttlerDefinitions`) counts it in its window of the storage, under the same keys MCP tool calls count in. The
 * windows are gathered in one WindowAdmission per guard call, handed from canActivate to each handleRequest through
 * the call's own ExecutionContext, and decided once all are in: a refusal gives back the hits the request counted,
 * and its Retry-After covers every full window. The headers are written here, after the decision, on success and
 * refusal.
 */
@Injectable()
export class KeyThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly windows: KeyThrottlerStorage,
    reflector: Reflector,
    private readonly metrics: Metrics,
  ) {
    super(options, windows, reflector);
  }

  /** The windows of each guard call under way, by its context (one per request and guard). */
  private readonly admissions = new WeakMap<ExecutionContext, WindowAdmission>();

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const admission = new WindowAdmission(this.windows);
    this.admissions.set(context, admission);
    let canContinue: boolean;
    try {
      canContinue = await super.canActivate(context);
    } finally {
      this.admissions.delete(context);
    }
    if (admission.isEmpty) return canContinue;
    const { req, res } = this.getRequestResponse(context);
    const decision = await admission.decision();
    applyRateLimitHeaders(res as HttpResponseLike, decision);
    if (!decision.allowed) {
      const { surface } = requestContextOf(req as HttpRequestLike);
      if (surface !== 'open' && this.metrics.enabled) this.metrics.rateLimited(surface);
      throw rateLimitError(decision);
    }
    return canContinue;
  }

  protected async getTracker(request: HttpRequestLike): Promise<string> {
    return requestContextOf(request).principal.keyId;
  }

  /** A key's windows by name; an endpoint's own windows per key per endpoint. */
  protected generateKey(context: ExecutionContext, keyId: string, name: string): string {
    if (!isEndpointWindow(name)) return windowKey(name, keyId);
    const request = context.switchToHttp().getRequest<HttpRequestLike>();
    return windowKey(name, keyId, requestContextOf(request).executionTarget!.id);
  }

  /** Starts counting the request in one window; canActivate decides once every window is counted. */
  protected async handleRequest({
    context,
    limit,
    ttl,
    throttler,
    getTracker,
    generateKey,
  }: ThrottlerRequest): Promise<boolean> {
    const request = this.getRequestResponse(context).req;
    const name = throttler.name!;
    const key = generateKey(context, await getTracker(request, context), name);
    this.admissions.get(context)!.count({ name, key, limit, ttlMs: ttl });
    return true;
  }
}
