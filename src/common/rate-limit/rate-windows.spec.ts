import { hitWindow, isLive, storageRecord } from './rate-windows';

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

  it('allows the last request a window has room for and refuses the next', () => {
    const counter = { hits: 2, resetAtMs: NOW + 40_000 };
    expect(hitWindow(counter, 3, NOW)).toEqual({
      totalHits: 3,
      timeToExpire: 40,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(hitWindow(counter, 3, NOW)).toEqual({
      totalHits: 4,
      timeToExpire: 40,
      isBlocked: true,
      timeToBlockExpire: 40,
    });
    expect(counter).toEqual({ hits: 3, resetAtMs: NOW + 40_000 });
  });

  it('counts in a window one millisecond before its reset, which then has a second left', () => {
    const counter = { hits: 2, resetAtMs: NOW + 1 };
    expect(hitWindow(counter, 3, NOW)).toEqual({
      totalHits: 3,
      timeToExpire: 1,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('refuses without counting when a counter is above a lowered limit', () => {
    const counter = { hits: 7, resetAtMs: NOW + 5_000 };
    expect(hitWindow(counter, 3, NOW)).toEqual({
      totalHits: 8,
      timeToExpire: 5,
      isBlocked: true,
      timeToBlockExpire: 5,
    });
    expect(counter.hits).toBe(7);
  });
});

describe('isLive', () => {
  it('keeps a window until the millisecond it resets', () => {
    expect(isLive({ hits: 2, resetAtMs: NOW + 1 }, NOW)).toBe(true);
    expect(isLive({ hits: 2, resetAtMs: NOW }, NOW)).toBe(false);
    expect(isLive(undefined, NOW)).toBe(false);
  });
});

describe('storageRecord', () => {
  it('rounds the time left up to whole seconds', () => {
    expect(storageRecord(1, 30_000, false)).toEqual({
      totalHits: 1,
      timeToExpire: 30,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(storageRecord(1, 30_001, true)).toEqual({
      totalHits: 2,
      timeToExpire: 31,
      isBlocked: true,
      timeToBlockExpire: 31,
    });
  });

  it('never reports less than one second left', () => {
    expect(storageRecord(1, 5, true).timeToBlockExpire).toBe(1);
    expect(storageRecord(1, 0, false).timeToExpire).toBe(1);
  });
});
