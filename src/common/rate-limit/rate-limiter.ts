import type { Principal } from '../auth/principal';
import type { RateLimitSettings } from './rate-limit-settings';

/** What a request counts as: an admin request, an execution, or (an MCP run_endpoint call) both at once. */
export type RateLimitSurface = 'admin' | 'execution';

/** One fixed window a request must fit in: `limit` requests per `ttlMs`, counted under `key`. */
export interface RateWindow {
  /** Throttler name (`minute`, `endpoint-hour`, `admin`, …). */
  name: string;
  /** Storage key; built from key and endpoint ids only, never from a raw API key. */
  key: string;
  limit: number;
  ttlMs: number;
}

/** A window after the check. */
export interface WindowState {
  name: string;
  limit: number;
  remaining: number;
  /** When the window resets, epoch milliseconds. */
  resetAtMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The window with the fewest requests left is the one the headers describe. */
  reported: WindowState;
  /** Seconds until every full window has reset (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * The port the rate-limit module implements. `consume` checks every window in one atomic step and counts the
 * request in all of them only when each has room: a refused request counts nowhere.
 */
export abstract class RateLimiter {
  abstract consume(windows: RateWindow[]): Promise<RateLimitDecision>;

  /**
   * Counts one request of this key on each of `surfaces` (with the endpoint's own limits on `execution`, when given):
   * every window of every surface in one atomic step, so a refused request counts in none of them.
   */
  abstract consumeFor(
    principal: Principal,
    surfaces: readonly RateLimitSurface[],
    endpoint?: EndpointRateLimits | null,
  ): Promise<RateLimitDecision>;
}

/** An endpoint's own per-key limits (null = none), for the execution surface; an endpoint record fits as it is. */
export interface EndpointRateLimits extends RateLimitSettings {
  id: string;
}
