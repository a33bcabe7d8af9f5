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
  /** decisions.md §5: the window with the fewest requests left is the one the headers describe. */
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
}

/** An endpoint's own per-key limits (null = none), for the execution surface; an endpoint record fits as it is. */
export interface EndpointRateLimits {
  id: string;
  rateLimitPerMinute: number | null;
  rateLimitPerHour: number | null;
  rateLimitPerDay: number | null;
}
