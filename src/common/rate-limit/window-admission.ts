import type { KeyThrottlerStorage, RateLimitDecision, RateWindow, WindowState } from './rate-limiter';

/**
 * One request's pass through its windows, one window at a time (the order @nestjs/throttler runs its named throttlers
 * in): each window with room counts the request. When one is full the request is refused: the windows that already
 * counted it give the hit back and the windows after it are not counted, so a refused request counts in none.
 */
export class WindowAdmission {
  private readonly counted: { key: string; state: WindowState }[] = [];
  private reported?: WindowState;

  constructor(private readonly storage: KeyThrottlerStorage) {}

  /** Counts the request in `window`; the decision so far, which the X-RateLimit-* headers describe. */
  async count(window: RateWindow, blockDuration = 0): Promise<RateLimitDecision> {
    const record = await this.storage.increment(window.key, window.ttlMs, window.limit, blockDuration, window.name);
    const nowMs = Date.now();
    if (!record.isBlocked) {
      const state = {
        name: window.name,
        limit: window.limit,
        remaining: Math.max(0, window.limit - record.totalHits),
        resetAtMs: nowMs + record.timeToExpire * 1000,
      };
      this.counted.push({ key: window.key, state });
      this.reported = this.reported && !hasFewerLeft(state, this.reported) ? this.reported : state;
      return { allowed: true, reported: this.reported, retryAfterSeconds: 0 };
    }
    const full = {
      name: window.name,
      limit: window.limit,
      remaining: 0,
      resetAtMs: nowMs + record.timeToBlockExpire * 1000,
    };
    const given = this.counted.splice(0);
    await Promise.all(given.map(({ key }) => this.storage.release(key)));
    const states = given.map(({ state }) => ({ ...state, remaining: Math.min(state.limit, state.remaining + 1) }));
    states.push(full);
    return decide(false, states, nowMs);
  }
}

/** Whether `a` is the window to report over `b`: fewer requests left, or as many and it resets later. */
function hasFewerLeft(a: WindowState, b: WindowState): boolean {
  return a.remaining < b.remaining || (a.remaining === b.remaining && a.resetAtMs > b.resetAtMs);
}

/**
 * The window the headers describe is the one with the fewest requests left; on a tie, the one that resets last (a
 * caller waiting for the earlier reset would still be refused). A refused request may retry once every full window
 * has reset.
 */
export function decide(allowed: boolean, states: WindowState[], nowMs: number): RateLimitDecision {
  const reported = states.reduce((best, state) => (hasFewerLeft(state, best) ? state : best));
  if (allowed) return { allowed, reported, retryAfterSeconds: 0 };
  const lastReset = Math.max(...states.filter((state) => state.remaining === 0).map((state) => state.resetAtMs));
  return { allowed, reported, retryAfterSeconds: Math.max(1, Math.ceil((lastReset - nowMs) / 1000)) };
}
