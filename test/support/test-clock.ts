import { Clock, type ClockTimer } from '../../src/common/time/clock';

interface PendingTimer extends ClockTimer {
  due: number;
  callback: () => void;
  real: NodeJS.Timeout;
}

/**
 * The system's clock, which a test can move forward: `advance(ms)` makes `ms` more pass at once (entries expire,
 * timers due by then run) instead of the test waiting for them. Timers otherwise run in real time, so what the
 * application does on its own (writing its log rows) goes on as usual.
 */
export class TestClock extends Clock {
  private offsetMs = 0;
  private readonly pending = new Set<PendingTimer>();

  now(): number {
    return performance.now() + this.offsetMs;
  }

  epochNow(): number {
    return Date.now() + this.offsetMs;
  }

  setTimeout(callback: () => void, delayMs: number): ClockTimer {
    const timer: PendingTimer = {
      due: this.now() + delayMs,
      callback,
      real: setTimeout(() => {
        this.pending.delete(timer);
        callback();
      }, delayMs),
      unref: () => timer.real.unref(),
    };
    this.pending.add(timer);
    return timer;
  }

  clearTimeout(timer: ClockTimer): void {
    const pending = timer as PendingTimer;
    clearTimeout(pending.real);
    this.pending.delete(pending);
  }

  /** Moves the clock `ms` forward; the timers due by then run now, earliest first. */
  advance(ms: number): void {
    this.offsetMs += ms;
    const due = [...this.pending].filter((timer) => timer.due <= this.now()).sort((x, y) => x.due - y.due);
    for (const timer of due) {
      this.clearTimeout(timer);
      timer.callback();
    }
  }
}
