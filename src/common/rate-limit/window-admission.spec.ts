import { MemoryThrottlerStorage } from './rate-limit.store';
import type { RateWindow, WindowState } from './rate-limiter';
import { decide, WindowAdmission } from './window-admission';

const NOW = 1_700_000_000_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

describe('decide', () => {
  const dayFull: WindowState = { name: 'day', limit: 9, remaining: 0, resetAtMs: NOW + 90_500 };
  const minuteFull: WindowState = { name: 'minute', limit: 1, remaining: 0, resetAtMs: NOW + 20_000 };

  it('on a tie reports the window that resets last and waits for every full window, whatever their order', () => {
    for (const windows of [
      [minuteFull, dayFull],
      [dayFull, minuteFull],
    ]) {
      expect(decide(false, windows, NOW)).toEqual({ allowed: false, reported: dayFull, retryAfterSeconds: 91 });
    }
  });

  it('on a tie in requests left reports the window that resets last, whatever their order', () => {
    const roomyHour = { name: 'hour', limit: 10, remaining: 2, resetAtMs: NOW + 3_000_000 };
    const roomyMinute = { name: 'minute', limit: 5, remaining: 2, resetAtMs: NOW + 50_000 };
    for (const windows of [
      [roomyHour, roomyMinute],
      [roomyMinute, roomyHour],
    ]) {
      expect(decide(true, windows, NOW)).toEqual({ allowed: true, reported: roomyHour, retryAfterSeconds: 0 });
    }
  });

  it('prefers fewer requests left over a later reset', () => {
    const tight = { name: 'minute', limit: 5, remaining: 1, resetAtMs: NOW + 50_000 };
    const roomy = { name: 'hour', limit: 10, remaining: 2, resetAtMs: NOW + 3_000_000 };
    expect(decide(true, [roomy, tight], NOW).reported).toEqual(tight);
    expect(decide(true, [tight, roomy], NOW).reported).toEqual(tight);
  });

  it('waits for the full windows only: a roomy window that resets later does not lengthen Retry-After', () => {
    const full = { name: 'minute', limit: 3, remaining: 0, resetAtMs: NOW + 45_000 };
    const roomy = { name: 'hour', limit: 5, remaining: 4, resetAtMs: NOW + 3_000_000 };
    expect(decide(false, [full, roomy], NOW)).toEqual({ allowed: false, reported: full, retryAfterSeconds: 45 });
    expect(decide(false, [roomy, full], NOW)).toEqual({ allowed: false, reported: full, retryAfterSeconds: 45 });
  });

  it('rounds the wait up to whole seconds', () => {
    expect(decide(false, [{ ...minuteFull, resetAtMs: NOW + 30_000 }], NOW).retryAfterSeconds).toBe(30);
    expect(decide(false, [{ ...minuteFull, resetAtMs: NOW + 30_001 }], NOW).retryAfterSeconds).toBe(31);
  });

  it('never asks to retry in less than one second', () => {
    expect(decide(false, [{ ...minuteFull, resetAtMs: NOW + 10 }], NOW).retryAfterSeconds).toBe(1);
    expect(decide(false, [{ ...minuteFull, resetAtMs: NOW }], NOW).retryAfterSeconds).toBe(1);
  });
});

describe('WindowAdmission on the in-process storage', () => {
  let now: number;
  let storage: MemoryThrottlerStorage;
  const minute: RateWindow = { name: 'minute', key: 'minute:{k}', limit: 3, ttlMs: MINUTE_MS };
  const hour: RateWindow = { name: 'hour', key: 'hour:{k}', limit: 5, ttlMs: HOUR_MS };
  /** One request through `windows`, all counted at once as the guard and MCP count them; the final decision. */
  const admit = async (...windows: RateWindow[]) => {
    const admission = new WindowAdmission(storage);
    for (const window of windows) admission.count(window);
    return admission.decision();
  };

  /** A window as the storage holds it, read by a count that a limit of 0 refuses (so it counts nothing). */
  const look = async (window: RateWindow) => {
    const record = await storage.increment(window.key, window.ttlMs, 0);
    return { hits: record.totalHits - 1, msLeft: record.timeToExpire * 1000 };
  };

  beforeEach(() => {
    now = NOW;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    storage = new MemoryThrottlerStorage();
  });
  afterEach(() => jest.restoreAllMocks());

  it('counts the request in every window and reports the one with the fewest requests left', async () => {
    await expect(admit(minute, hour)).resolves.toEqual({
      allowed: true,
      reported: { name: 'minute', limit: 3, remaining: 2, resetAtMs: NOW + MINUTE_MS },
      retryAfterSeconds: 0,
    });
    await expect(look(hour)).resolves.toEqual({ hits: 1, msLeft: HOUR_MS });
  });

  it('allows the last request a window has room for and refuses the next, with the whole decision', async () => {
    await admit(minute, hour);
    await admit(minute, hour);
    now += 20_000;
    await expect(admit(minute, hour)).resolves.toEqual({
      allowed: true,
      reported: { name: 'minute', limit: 3, remaining: 0, resetAtMs: NOW + MINUTE_MS },
      retryAfterSeconds: 0,
    });
    await expect(admit(minute, hour)).resolves.toEqual({
      allowed: false,
      reported: { name: 'minute', limit: 3, remaining: 0, resetAtMs: NOW + MINUTE_MS },
      retryAfterSeconds: 40,
    });
    await expect(look(hour)).resolves.toEqual({ hits: 3, msLeft: HOUR_MS - 20_000 });
  });

  it('retries after the full window only: a roomy hour window does not lengthen Retry-After', async () => {
    for (let i = 0; i < 3; i++) await admit(minute, hour);
    now += 15_000;
    const refused = await admit(minute, hour);
    expect(refused).toMatchObject({
      allowed: false,
      reported: { name: 'minute', remaining: 0 },
      retryAfterSeconds: 45,
    });
    expect((await admit(hour, minute)).retryAfterSeconds).toBe(45);
  });

  it('waits for every full window, also those after the window that refused the request', async () => {
    const tightHour = { ...hour, limit: 3 };
    for (let i = 0; i < 3; i++) await admit(minute, tightHour);
    now += 15_000;
    const expected = {
      allowed: false,
      reported: { name: 'hour', limit: 3, remaining: 0, resetAtMs: NOW + HOUR_MS },
      retryAfterSeconds: 3_585,
    };
    await expect(admit(minute, tightHour)).resolves.toEqual(expected);
    await expect(admit(tightHour, minute)).resolves.toEqual(expected);
    now = NOW + MINUTE_MS;
    await expect(admit(minute, tightHour)).resolves.toMatchObject({ allowed: false, retryAfterSeconds: 3_540 });
    await expect(look(minute)).resolves.toEqual({ hits: 0, msLeft: MINUTE_MS });
  });

  it('leaves no hit in the other windows of a refused request', async () => {
    const tight: RateWindow = { name: 'endpoint-minute', key: 'endpoint-minute:{k}:e', limit: 1, ttlMs: MINUTE_MS };
    await admit(tight);
    await expect(admit(tight, minute, hour)).resolves.toEqual({
      allowed: false,
      reported: { name: 'endpoint-minute', limit: 1, remaining: 0, resetAtMs: NOW + MINUTE_MS },
      retryAfterSeconds: 60,
    });
    await expect(look(minute)).resolves.toMatchObject({ hits: 0 });
    await expect(admit(minute)).resolves.toMatchObject({ allowed: true, reported: { remaining: 2 } });
  });

  it('does not count refused requests: the windows that counted one give the hit back', async () => {
    const wide: RateWindow = { name: 'minute', key: 'minute:{d}', limit: 10, ttlMs: MINUTE_MS };
    const tight: RateWindow = { name: 'endpoint-minute', key: 'endpoint-minute:{d}:e', limit: 1, ttlMs: MINUTE_MS };
    expect((await admit(wide, tight)).allowed).toBe(true);
    now += 1_000;
    await expect(admit(wide, tight)).resolves.toEqual({
      allowed: false,
      reported: { name: 'endpoint-minute', limit: 1, remaining: 0, resetAtMs: NOW + MINUTE_MS },
      retryAfterSeconds: 59,
    });
    expect((await admit(wide, tight)).allowed).toBe(false);
    await expect(admit(wide)).resolves.toMatchObject({ allowed: true, reported: { remaining: 8 } });
  });

  it('reports no negative remaining when a counter is above a lowered limit', async () => {
    for (let i = 0; i < 5; i++) await admit(hour);
    const lowered = { ...hour, limit: 2 };
    const expected = {
      allowed: false,
      reported: { name: 'hour', limit: 2, remaining: 0, resetAtMs: NOW + HOUR_MS },
      retryAfterSeconds: 3_600,
    };
    await expect(admit(lowered)).resolves.toEqual(expected);
    const tight: RateWindow = { name: 'endpoint-minute', key: 'endpoint-minute:{k}:e', limit: 0, ttlMs: MINUTE_MS };
    await expect(admit(tight, lowered)).resolves.toMatchObject({
      reported: expected.reported,
      retryAfterSeconds: 3_600,
    });
  });

  it('does not wait for the windows that gave their hit back, even the one whose last request it took', async () => {
    const day: RateWindow = { name: 'day', key: 'day:{k}', limit: 1, ttlMs: 24 * HOUR_MS };
    const tight: RateWindow = { name: 'endpoint-minute', key: 'endpoint-minute:{k}:e', limit: 0, ttlMs: MINUTE_MS };
    await expect(admit({ ...hour, limit: 2 }, day, tight)).resolves.toEqual({
      allowed: false,
      reported: { name: 'endpoint-minute', limit: 0, remaining: 0, resetAtMs: NOW + MINUTE_MS },
      retryAfterSeconds: 60,
    });
    await expect(look(hour)).resolves.toEqual({ hits: 0, msLeft: HOUR_MS });
    await expect(look(day)).resolves.toEqual({ hits: 0, msLeft: 24 * HOUR_MS });
  });

  it('is exact under concurrency: limit N, N+M concurrent requests, N allowed', async () => {
    const window: RateWindow = { name: 'minute', key: 'minute:{c}', limit: 7, ttlMs: MINUTE_MS };
    const results = await Promise.all(Array.from({ length: 12 }, () => admit(window)));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    expect(results.filter((r) => !r.allowed).every((r) => r.reported.remaining === 0)).toBe(true);
  });
});
