/** A timer a Clock started: `unref` lets the process exit while it is pending, as Node's own timers do. */
export interface ClockTimer {
  unref?(): unknown;
}

/**
 * Time as the service reads it where expiry or a delay is a rule (the response cache's TTLs, the log queue's flush
 * and retry delays). The real one by default; tests provide one they can move forward instead of waiting.
 */
export abstract class Clock {
  /** Milliseconds on a monotonic clock: for durations within the process. */
  abstract now(): number;
  /** Milliseconds since the Unix epoch: for times other instances compare with (an entry's expiry in Redis). */
  abstract epochNow(): number;
  abstract setTimeout(callback: () => void, delayMs: number): ClockTimer;
  abstract clearTimeout(timer: ClockTimer): void;

  /** Resolves after `delayMs`. */
  sleep(delayMs: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, delayMs));
  }
}

export class SystemClock extends Clock {
  now(): number {
    return performance.now();
  }

  epochNow(): number {
    return Date.now();
  }

  setTimeout(callback: () => void, delayMs: number): ClockTimer {
    return setTimeout(callback, delayMs);
  }

  clearTimeout(timer: ClockTimer): void {
    clearTimeout(timer as NodeJS.Timeout);
  }
}

export const SYSTEM_CLOCK: Clock = new SystemClock();
