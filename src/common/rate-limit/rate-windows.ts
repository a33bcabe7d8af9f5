import type { ThrottlerStorageRecord } from './rate-limiter';

/** A window's counter as the in-process storage holds it: hits so far and when the window ends (epoch ms). */
export interface WindowCounter {
  hits: number;
  resetAtMs: number;
}

/** Whether a window is still running at `nowMs`: it resets at `resetAtMs`, so an expired one starts afresh. */
export function isLive(counter: WindowCounter | undefined, nowMs: number): counter is WindowCounter {
  return counter !== undefined && counter.resetAtMs > nowMs;
}

/**
 * One request on a fixed window that starts with its first counted hit and lasts its TTL: counted when the window has
 * room (`counter` is updated in place), refused otherwise and not counted. `counter` must be current (a missing or
 * expired one starts afresh: `{ hits: 0, resetAtMs: now + ttl }`).
 */
export function hitWindow(counter: WindowCounter, limit: number, nowMs: number): ThrottlerStorageRecord {
  const isBlocked = counter.hits >= limit;
  if (!isBlocked) counter.hits++;
  return storageRecord(counter.hits, counter.resetAtMs - nowMs, isBlocked);
}

/**
 * The @nestjs/throttler record of a window with `hits` counted and `msLeft` until it resets. As in the library's own
 * storage, a refused request's totalHits includes it (limit + 1), and it may retry when the window resets.
 */
export function storageRecord(hits: number, msLeft: number, isBlocked: boolean): ThrottlerStorageRecord {
  const secondsLeft = Math.max(1, Math.ceil(msLeft / 1000));
  return {
    totalHits: isBlocked ? hits + 1 : hits,
    timeToExpire: secondsLeft,
    isBlocked,
    timeToBlockExpire: isBlocked ? secondsLeft : 0,
  };
}
