import type { RateLimitDecision, RateWindow, WindowState } from '../../common/rate-limit/rate-limiter';

/** A window's counter as a store holds it: hits so far and when the window ends (epoch ms). */
export interface WindowCounter {
  hits: number;
  resetAtMs: number;
}

/**
 * Fixed windows that start with the first counted request and last `ttlMs`. Given the counters read at `nowMs`
 * (missing or expired ones start afresh), the request is allowed only if every window has room; then it counts in
 * every window, otherwise in none. Returns the counters to store (unchanged ones when refused) and the decision.
 */
export function consumeWindows(
  windows: RateWindow[],
  counters: (WindowCounter | undefined)[],
  nowMs: number,
): { decision: RateLimitDecision; counters: WindowCounter[] } {
  const current = windows.map((window, i) => {
    const counter = counters[i];
    return counter && counter.resetAtMs > nowMs ? counter : { hits: 0, resetAtMs: nowMs + window.ttlMs };
  });
  const allowed = windows.every((window, i) => current[i].hits < window.limit);
  const next = allowed ? current.map((counter) => ({ hits: counter.hits + 1, resetAtMs: counter.resetAtMs })) : current;
  const states = windows.map((window, i) => stateOf(window, next[i]));
  return { decision: decide(allowed, states, nowMs), counters: next };
}

export function stateOf(window: RateWindow, counter: WindowCounter): WindowState {
  return {
    name: window.name,
    limit: window.limit,
    remaining: Math.max(0, window.limit - counter.hits),
    resetAtMs: counter.resetAtMs,
  };
}

/**
 * The window the headers describe is the one with the fewest requests left; on a tie, the one that resets last (a
 * caller waiting for the earlier reset would still be refused). A refused request may retry once every full window
 * has reset.
 */
export function decide(allowed: boolean, states: WindowState[], nowMs: number): RateLimitDecision {
  const reported = states.reduce((best, state) =>
    state.remaining < best.remaining || (state.remaining === best.remaining && state.resetAtMs > best.resetAtMs) ? state : best,
  );
  if (allowed) return { allowed, reported, retryAfterSeconds: 0 };
  const lastReset = Math.max(...states.filter((state) => state.remaining === 0).map((state) => state.resetAtMs));
  return { allowed, reported, retryAfterSeconds: Math.max(1, Math.ceil((lastReset - nowMs) / 1000)) };
}
