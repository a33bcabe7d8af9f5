import { hitWindow, isLive, storageRecord } from './rate-windows';

const NOW = 1_700_000_000_000;

/** The record of a request the window counted: its hits so far and the seconds to the window's reset. */
const counted = (totalHits: number, timeToExpire: number) => ({
  totalHits,
  timeToExpire,
  isBlocked: false,
  timeToBlockExpire: 0,
});
/** The record of a refused request, which may be retried when the window resets. */
const refused = (totalHits: number, timeToExpire: number) => ({
  totalHits,
  timeToExpire,
  isBlocked: true,
  timeToBlockExpire: timeToExpire,
});

describe('hitWindow', () => {
  it('counts a request in a window with room, without moving its reset', () => {
    const counter = { hits: 1, resetAtMs: NOW + 10_000 };
    expect(hitWindow(counter, 3, NOW)).toEqual(counted(2, 10));
    expect(counter).toEqual({ hits: 2, resetAtMs: NOW + 10_000 });
  });

  it('refuses in a full window without counting, until the window resets', () => {
    const counter = { hits: 3, resetAtMs: NOW + 1_500 };
    expect(hitWindow(counter, 3, NOW)).toEqual(refused(4, 2));
    expect(counter.hits).toBe(3);
  });

  it('allows the last request a window has room for and refuses the next', () => {
    const counter = { hits: 2, resetAtMs: NOW + 40_000 };
    expect(hitWindow(counter, 3, NOW)).toEqual(counted(3, 40));
    expect(hitWindow(counter, 3, NOW)).toEqual(refused(4, 40));
    expect(counter).toEqual({ hits: 3, resetAtMs: NOW + 40_000 });
  });

  it('counts in a window one millisecond before its reset, which then has a second left', () => {
    const counter = { hits: 2, resetAtMs: NOW + 1 };
    expect(hitWindow(counter, 3, NOW)).toEqual(counted(3, 1));
  });

  it('refuses without counting when a counter is above a lowered limit', () => {
    const counter = { hits: 7, resetAtMs: NOW + 5_000 };
    expect(hitWindow(counter, 3, NOW)).toEqual(refused(8, 5));
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
    expect(storageRecord(1, 30_000, false)).toEqual(counted(1, 30));
    expect(storageRecord(1, 30_001, true)).toEqual(refused(2, 31));
  });

  it('never reports less than one second left', () => {
    expect(storageRecord(1, 5, true).timeToBlockExpire).toBe(1);
    expect(storageRecord(1, 0, false).timeToExpire).toBe(1);
  });
});
