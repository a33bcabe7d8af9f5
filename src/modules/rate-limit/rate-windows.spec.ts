import { decide, WindowAdmission } from '../../common/rate-limit/window-admission';
import type { RateWindow } from '../../common/rate-limit/rate-limiter';
import { MemoryThrottlerStorage } from './rate-limit.store';
import { hitWindow, storageRecord } from './rate-windows';

const NOW = 1_700_000_000_000;

describe('hitWindow', () => {
  it('counts a request in a window with room, without moving its reset', () => {
    const counter = { hits: 1, resetAtMs: NOW + 10_000 };
    expect(hitWindow(counter, 3, NOW)).toEqual({
      totalHits: 2,
      timeToExpire: 10,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(counter).toEqual({ hits: 2, resetAtMs: NOW + 10_000 });
  });

  it('refuses in a full window without counting, until the window resets', () => {
    const counter = { hits: 3, resetAtMs: NOW + 1_500 };
    expect(hitWindow(counter, 3, NOW)).toEqual({
      totalHits: 4,
      timeToExpire: 2,
      isBlocked: true,
      timeToBlockExpire: 2,
    });
    expect(counter.hits).toBe(3);
  });
});

describe('storageRecord', () => {
  it('never reports less than one second left', () => {
    expect(storageRecord(1, 5, true).timeToBlockExpire).toBe(1);
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

  it('never asks to retry in less than one second', () => {
    const decision = decide(false, [{ name: 'minute', limit: 1, remaining: 0, resetAtMs: NOW + 10 }], NOW);
    expect(decision.retryAfterSeconds).toBe(1);
  });
});

describe('WindowAdmission on the in-process storage', () => {
  it('is exact under concurrency: limit N, N+M concurrent requests, N allowed', async () => {
    const storage = new MemoryThrottlerStorage();
    const window: RateWindow = { name: 'minute', key: 'minute:{c}', limit: 7, ttlMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 12 }, () => new WindowAdmission(storage).count(window)));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    expect(results.filter((r) => !r.allowed).every((r) => r.reported.remaining === 0)).toBe(true);
  });

  it('reports the window with the fewest requests left', async () => {
    const admission = new WindowAdmission(new MemoryThrottlerStorage());
    await admission.count({ name: 'minute', key: 'minute:{f}', limit: 3, ttlMs: 60_000 });
    const decision = await admission.count({ name: 'hour', key: 'hour:{f}', limit: 1, ttlMs: 3_600_000 });
    expect(decision).toMatchObject({ allowed: true, reported: { name: 'hour', limit: 1, remaining: 0 } });
  });

  it('does not count refused requests: the windows that counted one give the hit back', async () => {
    const storage = new MemoryThrottlerStorage();
    const wide: RateWindow = { name: 'minute', key: 'minute:{d}', limit: 10, ttlMs: 60_000 };
    const tight: RateWindow = { name: 'endpoint-minute', key: 'endpoint-minute:{d}:e', limit: 1, ttlMs: 60_000 };
    const admit = async () => {
      const admission = new WindowAdmission(storage);
      const first = await admission.count(wide);
      return first.allowed ? admission.count(tight) : first;
    };
    expect((await admit()).allowed).toBe(true);
    const refused = await admit();
    expect(refused).toMatchObject({ allowed: false, reported: { name: 'endpoint-minute', remaining: 0 } });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect((await admit()).allowed).toBe(false);
    const alone = await new WindowAdmission(storage).count(wide);
    expect(alone.allowed).toBe(true);
    expect(alone.reported.remaining).toBe(8);
  });
});
