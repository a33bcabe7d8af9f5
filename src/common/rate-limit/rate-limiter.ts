import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Principal } from '../auth/principal';
import type { RateLimitSettings } from './rate-limit-settings';

/**
 * What a request counts as: an admin request, an execution, or (an MCP run_endpoint call) both at once; or a score
 * recorded through the execution API.
 */
export type RateLimitSurface = 'admin' | 'execution' | 'score';

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

/** What @nestjs/throttler's storage answers for one window (the package does not export the type by name). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The @nestjs/throttler storage of the rate-limit windows (memory or Redis, chosen by config). `increment` is the
 * library's contract for one window; `release` takes back a hit a request counted in a window when a later window of
 * the same request refused it, so a refused request counts in none.
 */
export abstract class KeyThrottlerStorage implements ThrottlerStorage {
  abstract increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord>;
  abstract release(key: string): Promise<void>;
}

/**
 * The port the rate-limit module implements for callers outside an HTTP guard (MCP tool calls): the same windows,
 * counted in the same storage as the REST guards.
 */
export abstract class RateLimiter {
  /**
   * Counts one request of this key on each of `surfaces` (with the endpoint's own limits on `execution`, when given):
   * it must fit every window of every surface, and a refused request counts in none of them.
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
