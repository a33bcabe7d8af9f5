import type {
  KeyThrottlerStorage,
  RateLimitDecision,
  RateWindow,
  ThrottlerStorageRecord,
  WindowState,
} from './rate-limiter';

/**
 * One request's pass through its windows. Each window's count starts as @nestjs/throttler reaches it, without waiting
 * for the one before, so the storage gets them all at once (a Redis client sends them in one round trip); the
 * decision waits for every count. A window with room counts the request, a full one does not; when any window is full
 * the request is refused and the windows that counted it give the hit back, so a refused request counts in none. Every
 * window is known when the decision is made, so a refused request's Retry-After covers every full window.
 */
export class WindowAdmission {
  private readonly counts: Promise<{ window: RateWindow; record: ThrottlerStorageRecord }>[] = [];

  constructor(private readonly storage: KeyThrottlerStorage) {}

  /** Starts counting the request in `window`; `decision` waits for it. */
  count(window: RateWindow): void {
    // blockDuration 0: the storages keep fixed windows (a full one refuses until it resets).
    const counting = this.storage.increment(window.key, window.ttlMs, window.limit, 0, window.name);
    this.counts.push(counting.then((record) => ({ window, record })));
  }

  /** The decision once every window is counted (at least one), which the X-RateLimit-* headers describe. */
  async decision(): Promise<RateLimitDecision> {
    const counted = await Promise.all(this.counts);
    const isRefused = counted.some(({ record }) => record.isBlocked);
    if (isRefused) {
      await Promise.all(
        counted.filter(({ record }) => !record.isBlocked).map(({ window }) => this.storage.release(window.key)),
      );
    }
    const nowMs = Date.now();
    const states = counted.map(({ window, record }): WindowState => {
      if (record.isBlocked)
        return {
          name: window.name,
          limit: window.limit,
          remaining: 0,
          resetAtMs: nowMs + record.timeToBlockExpire * 1000,
        };
      // A refused request's hit is given back, so the window has one more left than the count said.
      const remaining = window.limit - record.totalHits + (isRefused ? 1 : 0);
      return {
        name: window.name,
        limit: window.limit,
        remaining: Math.max(0, remaining),
        resetAtMs: nowMs + record.timeToExpire * 1000,
      };
    });
    return decide(!isRefused, states, nowMs);
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
