import type { KeyThrottlerStorage, RateLimitDecision, RateWindow, WindowState } from './rate-limiter';

/**
 * One request's pass through its windows. The windows are gathered as @nestjs/throttler reaches them and counted
 * together when the decision is asked for, in one synchronous run, so a storage can send them all at once (the Redis
 * storage runs them in one script call). A window with room counts the request, a full one does not; when any window
 * is full the request is refused and the windows that counted it give the hit back, so a refused request counts in
 * none. Every window is known when the decision is made, so a refused request's Retry-After covers every full window.
 */
export class WindowAdmission {
  private readonly windows: RateWindow[] = [];

  constructor(private readonly storage: KeyThrottlerStorage) {}

  /** Whether no window has been added (nothing to decide). */
  get isEmpty(): boolean {
    return this.windows.length === 0;
  }

  /** Adds `window` to the ones the request must fit in. */
  count(window: RateWindow): void {
    this.windows.push(window);
  }

  /** The decision once every window is counted (at least one), which the X-RateLimit-* headers describe. */
  async decision(): Promise<RateLimitDecision> {
    // blockDuration 0: the storages keep fixed windows (a full one refuses until it resets).
    const counted = await Promise.all(
      this.windows.map(async (window) => ({
        window,
        record: await this.storage.increment(window.key, window.ttlMs, window.limit, 0, window.name),
      })),
    );
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
