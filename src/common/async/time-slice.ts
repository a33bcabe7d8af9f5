import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Work done piece by piece on promises (a stream read part after part) never returns to the event loop while its
 * next piece is ready: a provider stream with megabytes buffered is read to its end in one turn, and every other
 * request (new connections included) waits meanwhile. A TimeSlice lets such a loop give the turn back: `yieldIfDue`
 * waits for the event loop's next turn once `sliceMs` of work has run since the last one, and costs nothing otherwise.
 */
export class TimeSlice {
  private startedMs: number;

  constructor(
    private readonly sliceMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedMs = now();
  }

  /** Whether the slice is spent (the caller should yield before its next piece). */
  get isSpent(): boolean {
    return this.now() - this.startedMs >= this.sliceMs;
  }

  /** Resolves at once while the slice lasts; once it is spent, at the event loop's next turn, with a new slice. */
  async yieldIfDue(): Promise<void> {
    if (!this.isSpent) return;
    await nextTurn();
    this.startedMs = this.now();
  }
}
