import type { Principal } from '../auth/principal';
import { RATE_LIMIT_WINDOWS } from './rate-limit-settings';
import type { EndpointRateLimits, RateLimitSurface, RateWindow } from './rate-limiter';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const WINDOW_MS = { minute: MINUTE_MS, hour: HOUR_MS, day: DAY_MS };
const EXECUTION_WINDOWS = RATE_LIMIT_WINDOWS.map(({ window, keyLimit, setting }) => ({
  name: window,
  ttlMs: WINDOW_MS[window],
  keyLimit,
  endpointLimit: setting,
}));

/** Windows of an endpoint's own limits are named `endpoint-minute`, … and counted per key per endpoint. */
const ENDPOINT_WINDOW_PREFIX = 'endpoint-';
const ADMIN_WINDOW = 'admin-minute';
const SCORE_WINDOW = 'score-minute';

/** The per-minute limits of each key on the surfaces that have one window: the admin API (with MCP) and scoring. */
export interface PerMinuteLimits {
  admin: number;
  score: number;
}

export const perMinuteLimitsOf = (config: {
  adminRateLimitPerMinute: number;
  scoreRateLimitPerMinute: number;
}): PerMinuteLimits => ({ admin: config.adminRateLimitPerMinute, score: config.scoreRateLimitPerMinute });

export const isEndpointWindow = (name: string): boolean => name.startsWith(ENDPOINT_WINDOW_PREFIX);

/** `{keyId}` is a Redis hash tag: all of a key's windows live in one slot. Ids only, never a raw key. */
export const windowKey = (name: string, keyId: string, endpointId?: string): string =>
  endpointId === undefined ? `${name}:{${keyId}}` : `${name}:{${keyId}}:${endpointId}`;

/**
 * Every window a request must fit in, for each surface it counts on:
 * - `execution`: the key's minute/hour/day limits (its overrides or the defaults, carried by the principal), plus the
 *   endpoint's own limits, counted per key on that endpoint, for each one that is set (null = no window);
 * - `admin`: one window of `perMinute.admin` requests per key;
 * - `score`: one window of `perMinute.score` recorded scores per key, apart from its execution windows.
 * The REST guards and the MCP tools both count through this, so a key has one set of counters whatever the surface.
 */
export function surfaceWindows(
  perMinute: PerMinuteLimits,
  surfaces: readonly RateLimitSurface[],
  principal: Pick<Principal, 'keyId' | 'rateLimits'>,
  endpoint?: EndpointRateLimits | null,
): RateWindow[] {
  const windows: RateWindow[] = [];
  const { keyId } = principal;
  for (const surface of surfaces) {
    if (surface === 'admin' || surface === 'score') {
      const name = surface === 'admin' ? ADMIN_WINDOW : SCORE_WINDOW;
      windows.push({ name, key: windowKey(name, keyId), limit: perMinute[surface], ttlMs: MINUTE_MS });
      continue;
    }
    for (const { name, ttlMs, keyLimit } of EXECUTION_WINDOWS) {
      windows.push({ name, key: windowKey(name, keyId), limit: principal.rateLimits[keyLimit], ttlMs });
    }
    if (!endpoint) continue;
    for (const { name, ttlMs, endpointLimit } of EXECUTION_WINDOWS) {
      const limit = endpoint[endpointLimit];
      if (limit === null || limit === undefined) continue;
      const endpointName = `${ENDPOINT_WINDOW_PREFIX}${name}`;
      windows.push({ name: endpointName, key: windowKey(endpointName, keyId, endpoint.id), limit, ttlMs });
    }
  }
  return windows;
}
