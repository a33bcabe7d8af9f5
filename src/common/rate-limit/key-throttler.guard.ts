import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { AuthenticatedRequest } from '../auth/api-key.guard';
import { RateLimitError } from '../errors/app-error';
import { type HttpResponseLike, setHeader } from '../http/http-context';
import { type EndpointRateLimits, type RateLimitDecision, RateLimiter, type RateLimitSurface } from './rate-limiter';

export type RateLimitedRequest = AuthenticatedRequest & {
  /** Set by the execution surface once it has resolved the endpoint: its own limits become extra windows. */
  rateLimitEndpoint?: EndpointRateLimits;
};

/** The one place that writes the X-RateLimit-* headers (Reset is a Unix timestamp in seconds). */
export function applyRateLimitHeaders(response: HttpResponseLike, decision: RateLimitDecision): void {
  setHeader(response, 'X-RateLimit-Limit', decision.reported.limit);
  setHeader(response, 'X-RateLimit-Remaining', decision.reported.remaining);
  setHeader(response, 'X-RateLimit-Reset', Math.ceil(decision.reported.resetAtMs / 1000));
}

export function rateLimitError(decision: RateLimitDecision): RateLimitError {
  const seconds = decision.retryAfterSeconds;
  return new RateLimitError(`Rate limit exceeded: retry in ${seconds} second${seconds === 1 ? '' : 's'}`, seconds);
}

/**
 * Counts the request by its API key (so it runs after the key guard) in every window of its surface, in one atomic
 * step through the RateLimiter port: a request must pass every window, and a refused one counts in none. Headers are
 * written here, on success and refusal.
 */
@Injectable()
abstract class KeyThrottlerGuard implements CanActivate {
  protected abstract readonly surface: RateLimitSurface;

  constructor(private readonly limiter: RateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RateLimitedRequest>();
    if (!request.principal) throw new Error('The key throttler guard must run after a key guard');
    const decision = await this.limiter.consumeFor(request.principal, [this.surface], request.rateLimitEndpoint);
    applyRateLimitHeaders(context.switchToHttp().getResponse<HttpResponseLike>(), decision);
    if (!decision.allowed) throw rateLimitError(decision);
    return true;
  }
}

/** Admin routes: one generous per-key window, so a runaway script cannot starve the database. */
@Injectable()
export class AdminThrottlerGuard extends KeyThrottlerGuard {
  protected readonly surface = 'admin';
}

/** Execution: the key's minute/hour/day windows plus, when set, the endpoint's own per-key windows. */
@Injectable()
export class ExecutionThrottlerGuard extends KeyThrottlerGuard {
  protected readonly surface = 'execution';
}
