import type { KeyThrottlerStorage, RateLimitDecision, RateWindow, WindowState } from './rate-limiter';

/**
 * One request's pass through its windows, one window at a time (the order @nestjs/throttler runs its named throttlers
 * in): each window with room counts the request. When one is full the request is refused: the windows that already
 * counted it give the hit back and the windows after it are only read, so a refused request counts in none. Every
 * window is seen before the decision is final, because a refused request may retry only once every full window has
 * reset, the ones after the first full window included.
 */
export class WindowAdmission {
  private readonly counted: string[] = [];
  private states: WindowState[] = [];
  private isRefused = false;

  constructor(private readonly storage: KeyThrottlerStorage) {}

  /** Counts the request in `window` (reads it, once refused); the decision so far, which the headers describe. */
  async count(window: RateWindow, blockDuration = 0): Promise<RateLimitDecision> {
    if (this.isRefused) return this.look(window);
    const record = await this.storage.increment(window.key, window.ttlMs, window.limit, blockDuration, window.name);
    const nowMs = Date.now();
    if (!record.isBlocked) {
      this.counted.push(window.key);
      this.states.push({
        name: window.name,
        limit: window.limit,
        remaining: Math.max(0, window.limit - record.totalHits),
        resetAtMs: nowMs + record.timeToExpire * 1000,
      });
      return decide(true, this.states, nowMs);
    }
    this.isRefused = true;
    const given = this.counted.splice(0);
    await Promise.all(given.map((key) => this.storage.release(key)));
    this.states = this.states.map((state) => ({ ...state, remaining: Math.min(state.limit, state.remaining + 1) }));
    this.states.push({
      name: window.name,
      limit: window.limit,
      remaining: 0,
      resetAtMs: nowMs + record.timeToBlockExpire * 1000,
    });
    return decide(false, this.states, nowMs);
  }

  /** The decision after the windows seen so far (at least one). */
  decision(): RateLimitDecision {
    return decide(!this.isRefused, this.states, Date.now());
  }

  private async look(window: RateWindow): Promise<RateLimitDecision> {
    const current = await this.storage.peek(window.key);
    const nowMs = Date.now();
    this.states.push({
      name: window.name,
      limit: window.limit,
      remaining: Math.max(0, window.limit - (current?.hits ?? 0)),
      resetAtMs: nowMs + (current?.msLeft ?? window.ttlMs),
    });
    return decide(false, this.states, nowMs);
  }
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

/** Whether `a` is the window to report over `b`: fewer requests left, or as many and it resets later. */
function hasFewerLeft(a: WindowState, b: WindowState): boolean {
  return a.remaining < b.remaining || (a.remaining === b.remaining && a.resetAtMs > b.resetAtMs);
}
