import type { RateWindow } from '../../common/rate-limit/rate-limiter';
import { MemoryRateLimitStore } from './rate-limit.store';
import { consumeWindows, decide, type WindowCounter } from './rate-windows';

const NOW = 1_700_000_000_000;
const minute: RateWindow = { name: 'minute', key: 'minute:{k}', limit: 3, ttlMs: 60_000 };
const hour: RateWindow = { name: 'hour', key: 'hour:{k}', limit: 5, ttlMs: 3_600_000 };

describe('consumeWindows', () => {
  it('starts missing windows at now and counts the request in every window', () => {
    const { decision, counters } = consumeWindows([minute, hour], [undefined, undefined], NOW);
    expect(counters).toEqual([
      { hits: 1, resetAtMs: NOW + 60_000 },
      { hits: 1, resetAtMs: NOW + 3_600_000 },
    ]);
    expect(decision).toEqual({
      allowed: true,
      reported: { name: 'minute', limit: 3, remaining: 2, resetAtMs: NOW + 60_000 },
      retryAfterSeconds: 0,
    });
  });

  it('keeps a window fixed: later hits do not move its reset', () => {
    const existing: WindowCounter = { hits: 1, resetAtMs: NOW + 10_000 };
    const { counters } = consumeWindows([minute], [existing], NOW);
    expect(counters[0]).toEqual({ hits: 2, resetAtMs: NOW + 10_000 });
  });

  it('restarts an expired window', () => {
    const expired: WindowCounter = { hits: 3, resetAtMs: NOW };
    const { decision, counters } = consumeWindows([minute], [expired], NOW);
    expect(decision.allowed).toBe(true);
    expect(counters[0]).toEqual({ hits: 1, resetAtMs: NOW + 60_000 });
  });

  it('refuses when any window is full and then counts the request in none', () => {
    const full: WindowCounter = { hits: 5, resetAtMs: NOW + 1_800_000 };
    const roomy: WindowCounter = { hits: 1, resetAtMs: NOW + 30_000 };
    const { decision, counters } = consumeWindows([minute, hour], [roomy, full], NOW);
    expect(counters).toEqual([roomy, full]);
    expect(decision).toEqual({
      allowed: false,
      reported: { name: 'hour', limit: 5, remaining: 0, resetAtMs: NOW + 1_800_000 },
      retryAfterSeconds: 1_800,
    });
  });

  it('reports the window with the fewest requests left', () => {
    const { decision } = consumeWindows([minute, hour], [undefined, { hits: 4, resetAtMs: NOW + 100_000 }], NOW);
    expect(decision).toEqual({
      allowed: true,
      reported: { name: 'hour', limit: 5, remaining: 0, resetAtMs: NOW + 100_000 },
      retryAfterSeconds: 0,
    });
  });

  it('allows the last request a window has room for and refuses the next', () => {
    const almost: WindowCounter = { hits: 2, resetAtMs: NOW + 40_000 };
    const last = consumeWindows([minute], [almost], NOW);
    expect(last.counters).toEqual([{ hits: 3, resetAtMs: NOW + 40_000 }]);
    expect(last.decision).toEqual({ allowed: true, reported: { name: 'minute', limit: 3, remaining: 0, resetAtMs: NOW + 40_000 }, retryAfterSeconds: 0 });
    const next = consumeWindows([minute], last.counters, NOW);
    expect(next.counters).toEqual(last.counters);
    expect(next.decision).toEqual({ allowed: false, reported: { name: 'minute', limit: 3, remaining: 0, resetAtMs: NOW + 40_000 }, retryAfterSeconds: 40 });
  });

  it('keeps a window that resets one millisecond from now', () => {
    const { counters } = consumeWindows([minute], [{ hits: 2, resetAtMs: NOW + 1 }], NOW);
    expect(counters).toEqual([{ hits: 3, resetAtMs: NOW + 1 }]);
  });

  it('retries after the full window only: a roomy window that resets later does not lengthen Retry-After', () => {
    const full: WindowCounter = { hits: 3, resetAtMs: NOW + 45_000 };
    const roomy: WindowCounter = { hits: 1, resetAtMs: NOW + 3_000_000 };
    const { decision, counters } = consumeWindows([minute, hour], [full, roomy], NOW);
    expect(counters).toEqual([full, roomy]);
    expect(decision).toEqual({
      allowed: false,
      reported: { name: 'minute', limit: 3, remaining: 0, resetAtMs: NOW + 45_000 },
      retryAfterSeconds: 45,
    });
  });

  it('reports no negative remaining when a counter is above a lowered limit', () => {
    const { decision } = consumeWindows([minute], [{ hits: 7, resetAtMs: NOW + 5_000 }], NOW);
    expect(decision).toEqual({ allowed: false, reported: { name: 'minute', limit: 3, remaining: 0, resetAtMs: NOW + 5_000 }, retryAfterSeconds: 5 });
  });
});

describe('decide', () => {
  it('on a tie reports the window that resets last and waits for every full window', () => {
    const decision = decide(
      false,
      [
        { name: 'minute', limit: 1, remaining: 0, resetAtMs: NOW + 20_000 },
        { name: 'day', limit: 9, remaining: 0, resetAtMs: NOW + 90_500 },
      ],
      NOW,
    );
    expect(decision.reported.name).toBe('day');
    expect(decision.retryAfterSeconds).toBe(91);
  });

  it('on a tie reports the window that resets last whatever the order they are listed in', () => {
    const day = { name: 'day', limit: 9, remaining: 0, resetAtMs: NOW + 90_500 };
    const minuteState = { name: 'minute', limit: 1, remaining: 0, resetAtMs: NOW + 20_000 };
    expect(decide(false, [day, minuteState], NOW)).toEqual({ allowed: false, reported: day, retryAfterSeconds: 91 });
    const roomyHour = { name: 'hour', limit: 10, remaining: 2, resetAtMs: NOW + 3_000_000 };
    const roomyMinute = { name: 'minute', limit: 5, remaining: 2, resetAtMs: NOW + 50_000 };
    expect(decide(true, [roomyHour, roomyMinute], NOW)).toEqual({ allowed: true, reported: roomyHour, retryAfterSeconds: 0 });
    expect(decide(true, [roomyMinute, roomyHour], NOW)).toEqual({ allowed: true, reported: roomyHour, retryAfterSeconds: 0 });
  });

  it('prefers fewer requests left over a later reset', () => {
    const tight = { name: 'minute', limit: 5, remaining: 1, resetAtMs: NOW + 50_000 };
    const roomy = { name: 'hour', limit: 10, remaining: 2, resetAtMs: NOW + 3_000_000 };
    expect(decide(true, [roomy, tight], NOW).reported).toEqual(tight);
    expect(decide(true, [tight, roomy], NOW).reported).toEqual(tight);
  });

  it('rounds the wait up to whole seconds', () => {
    expect(decide(false, [{ name: 'minute', limit: 1, remaining: 0, resetAtMs: NOW + 30_000 }], NOW).retryAfterSeconds).toBe(30);
    expect(decide(false, [{ name: 'minute', limit: 1, remaining: 0, resetAtMs: NOW + 30_001 }], NOW).retryAfterSeconds).toBe(31);
  });

  it('never asks to retry in less than one second', () => {
    const decision = decide(false, [{ name: 'minute', limit: 1, remaining: 0, resetAtMs: NOW + 10 }], NOW);
    expect(decision.retryAfterSeconds).toBe(1);
  });
});

describe('MemoryRateLimitStore', () => {
  it('is exact under concurrency: limit N, N+M concurrent requests, N allowed', async () => {
    const store = new MemoryRateLimitStore();
    const window: RateWindow = { name: 'minute', key: 'minute:{c}', limit: 7, ttlMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 12 }, () => store.consume([window])));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    expect(results.filter((r) => !r.allowed).every((r) => r.reported.remaining === 0)).toBe(true);
  });

  it('does not count refused requests: a window with room stays untouched by refusals in another', async () => {
    const store = new MemoryRateLimitStore();
    const tight: RateWindow = { name: 'endpoint-minute', key: 'endpoint-minute:{d}:e', limit: 1, ttlMs: 60_000 };
    const wide: RateWindow = { name: 'minute', key: 'minute:{d}', limit: 10, ttlMs: 60_000 };
    expect((await store.consume([wide, tight])).allowed).toBe(true);
    expect((await store.consume([wide, tight])).allowed).toBe(false);
    expect((await store.consume([wide, tight])).allowed).toBe(false);
    const alone = await store.consume([wide]);
    expect(alone.allowed).toBe(true);
    expect(alone.reported.remaining).toBe(8);
  });
});
