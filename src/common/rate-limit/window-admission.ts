import type { KeyThrottlerStorage, RateLimitDecision, RateWindow, WindowState } from './rate-limiter';

/**
 * One request's pass through its windows, one window at a time (the order @nestjs/throttler runs its named throttlers
 * in): each window with room counts the request. When one is full the request is refused: the windows that already
 * counted it give the hit back and the windows after it are only read, so a refused request counts in none. Every
 * window is seen before the decision is final, because a refused request may retry only once every full window has
 * reset, the ones after the first full window included.
 */
export class WindowAdmission {
  /** Every window seen so far: until a refusal, each one counted the request. */
  private windows: { key: string; state: WindowState }[] = [];
  private isRefused = false;

  constructor(private readonly storage: KeyThrottlerStorage) {}

  /** Counts the request in `window`, or only reads the window once the request is refused. */
  async count(window: RateWindow, blockDuration = 0): Promise<void> {
    if (this.isRefused) return this.look(window);
    const record = await this.storage.increment(window.key, window.ttlMs, window.limit, blockDuration, window.name);
    const nowMs = Date.now();
    if (!record.isBlocked) {
      const remaining = window.limit - record.totalHits;
      this.seen(window, remaining, nowMs + record.timeToExpire * 1000);
      return;
    }
    this.isRefused = true;
    await Promise.all(this.windows.map(({ key }) => this.storage.release(key)));
    this.windows = this.windows.map(({ key, state }) => ({ key, state: { ...state, remaining: state.remaining + 1 } }));
    this.seen(window, 0, nowMs + record.timeToBlockExpire * 1000);
  }

  /** The decision on the windows seen so far (at least one), which the X-RateLimit-* headers describe. */
  decision(): RateLimitDecision {
    return decide(
      !this.isRefused,
      this.windows.map(({ state }) => state),
      Date.now(),
    );
  }

  private async look(window: RateWindow): Promise<void> {
    const current = await this.storage.peek(window.key);
    this.seen(window, window.limit - (current?.hits ?? 0), Date.now() + (current?.msLeft ?? window.ttlMs));
  }

  private seen(window: RateWindow, remaining: number, resetAtMs: number): void {
    const state = { name: window.name, limit: window.limit, remaining: Math.max(0, remaining), resetAtMs };
    this.windows.push({ key: window.key, state });
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
