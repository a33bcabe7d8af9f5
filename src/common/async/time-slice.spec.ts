import { TimeSlice } from './time-slice';

describe('TimeSlice', () => {
  it('does not yield while its slice lasts', async () => {
    let now = 0;
    const slice = new TimeSlice(5, () => now);
    let ticked = false;
    setImmediate(() => (ticked = true));
    now = 4;
    await slice.yieldIfDue();
    expect(ticked).toBe(false);
  });

  it('waits for the next turn of the event loop once its slice is spent, then starts a new one', async () => {
    let now = 0;
    const slice = new TimeSlice(5, () => now);
    let ticked = false;
    setImmediate(() => (ticked = true));
    now = 5;
    expect(slice.isSpent).toBe(true);
    await slice.yieldIfDue();
    expect(ticked).toBe(true);
    expect(slice.isSpent).toBe(false);
    now = 9;
    expect(slice.isSpent).toBe(false);
    now = 10;
    expect(slice.isSpent).toBe(true);
  });

  it('lets I/O that is ready run before the loop goes on', async () => {
    const slice = new TimeSlice(0);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    // A loop of resolved promises alone would never let the timer run.
    const started = performance.now();
    while (!timerRan && performance.now() - started < 2_000) await slice.yieldIfDue();
    expect(timerRan).toBe(true);
  });
});
