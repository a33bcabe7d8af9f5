import { runPool } from './run-pool';

/** A job that waits until the test lets it finish. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return { done, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('running cells a few at a time', () => {
  it('never runs more than the limit at once, and starts the jobs in order', async () => {
    const gates = Array.from({ length: 7 }, gate);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const pool = runPool([0, 1, 2, 3, 4, 5, 6], 3, async (job) => {
      started.push(job);
      running += 1;
      most = Math.max(most, running);
      await gates[job].done;
      running -= 1;
    });
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[1].open();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const one of gates) one.open();
    await expect(pool).resolves.toEqual([]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(3);
  });

  it('goes on after a job that throws', async () => {
    const done: number[] = [];
    await expect(
      runPool([1, 2, 3], 2, async (job) => {
        if (job === 1) throw new Error('boom');
        done.push(job);
      }),
    ).resolves.toEqual([]);
    expect(done).toEqual([2, 3]);
  });

  it('starts no further job once stopped, and answers the ones never started', async () => {
    let stop = false;
    const started: number[] = [];
    const left = await runPool(
      [1, 2, 3, 4, 5],
      2,
      async (job) => {
        started.push(job);
        if (job === 2) stop = true;
        await settle();
      },
      () => stop,
    );
    expect(started).toEqual([1, 2]);
    expect(left).toEqual([3, 4, 5]);
  });

  it('runs nothing for no jobs', async () => {
    await expect(runPool([], 3, () => Promise.reject(new Error('no job')))).resolves.toEqual([]);
  });
});
