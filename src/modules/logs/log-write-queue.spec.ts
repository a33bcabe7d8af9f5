import { LogWriteQueue, LogWriteQueueOptions } from './log-write-queue';
import { TestClock } from '../../../test/support/test-clock';

/** An in-memory stand-in for the database: records each batch, and can be made unreachable. */
class FakeSink {
  batches: number[][] = [];
  down = false;
  calls = 0;

  write = async (rows: number[]): Promise<void> => {
    this.calls++;
    await new Promise((resolve) => setImmediate(resolve));
    if (this.down) throw new Error('connection refused');
    this.batches.push([...rows]);
  };

  get rows(): number[] {
    return this.batches.flat();
  }
}

const OPTIONS: LogWriteQueueOptions = {
  batchSize: 3,
  flushDelayMs: 20,
  maxQueuedRows: 10,
  maxQueuedBytes: 1000,
  initialBackoffMs: 10,
  maxBackoffMs: 40,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

describe('LogWriteQueue', () => {
  it('writes rows in multi-row batches, in order, without being asked', async () => {
    const sink = new FakeSink();
    const queue = new LogWriteQueue(sink.write, OPTIONS);
    for (let i = 1; i <= 7; i++) queue.enqueue(i, 10);
    await eventually(() => sink.rows.length === 7);
    expect(sink.rows).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(sink.batches.every((batch) => batch.length <= 3)).toBe(true);
    expect(sink.batches.length).toBeLessThan(7);
    expect(queue.state()).toEqual({ queued: 0, queuedBytes: 0, written: 7, dropped: 0, failedWrites: 0 });
  });

  it('writes large rows in several batches, each within maxBatchBytes (a larger row alone)', async () => {
    const sink = new FakeSink();
    const queue = new LogWriteQueue(sink.write, { ...OPTIONS, maxQueuedBytes: 10_000, maxBatchBytes: 100 });
    const bytes = [40, 40, 40, 500, 30, 30];
    bytes.forEach((size, index) => queue.enqueue(index + 1, size));
    await eventually(() => sink.rows.length === bytes.length);
    expect(sink.batches).toEqual([[1, 2], [3], [4], [5, 6]]);
    expect(queue.state()).toMatchObject({ queued: 0, queuedBytes: 0, written: 6 });
  });

  it('writes a lone row after the flush delay', async () => {
    const sink = new FakeSink();
    const queue = new LogWriteQueue(sink.write, OPTIONS);
    queue.enqueue(1, 10);
    expect(sink.calls).toBe(0);
    await eventually(() => sink.rows.length === 1, 500);
  });

  it('writes a lone row once its flush delay has passed on the clock it was given', async () => {
    const sink = new FakeSink();
    const clock = new TestClock();
    const queue = new LogWriteQueue(sink.write, { ...OPTIONS, flushDelayMs: 60_000 }, {}, clock);
    queue.enqueue(1, 10);
    clock.advance(59_000);
    await sleep(5);
    expect(sink.calls).toBe(0);
    clock.advance(1_000);
    await eventually(() => sink.rows.length === 1, 500);
  });

  it('flush() writes everything queued and resolves once it is stored', async () => {
    const sink = new FakeSink();
    const queue = new LogWriteQueue(sink.write, { ...OPTIONS, flushDelayMs: 60_000 });
    queue.enqueue(1, 10);
    queue.enqueue(2, 10);
    await queue.flush();
    expect(sink.rows).toEqual([1, 2]);
  });

  it('keeps rows while the database is down and retries with backoff, losing nothing', async () => {
    const sink = new FakeSink();
    const failures: number[] = [];
    const queue = new LogWriteQueue(sink.write, OPTIONS, { writeFailed: (_e, retryInMs) => failures.push(retryInMs) });
    sink.down = true;
    for (let i = 1; i <= 4; i++) queue.enqueue(i, 10);
    await expect(queue.flush()).rejects.toThrow('connection refused');
    await eventually(() => failures.length >= 3);
    expect(failures.slice(0, 3)).toEqual([10, 20, 40]);
    expect(queue.state().queued).toBe(4);
    sink.down = false;
    await eventually(() => sink.rows.length === 4);
    expect(sink.rows).toEqual([1, 2, 3, 4]);
    expect(queue.state()).toMatchObject({ queued: 0, written: 4, dropped: 0 });
  });

  it('bounds the queue by rows and bytes, counting what it drops', async () => {
    const sink = new FakeSink();
    const dropping: number[] = [];
    const queue = new LogWriteQueue(sink.write, OPTIONS, { dropping: (n) => dropping.push(n) });
    sink.down = true;
    for (let i = 1; i <= 12; i++) queue.enqueue(i, 10);
    expect(queue.state()).toMatchObject({ queued: 10, dropped: 2 });
    expect(dropping).toEqual([1]);
    queue.enqueue(99, 5000);
    expect(queue.state()).toMatchObject({ queued: 10, dropped: 3 });
    sink.down = false;
    await queue.flush().catch(() => queue.flush());
    expect(sink.rows).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('close() flushes what is queued', async () => {
    const sink = new FakeSink();
    const queue = new LogWriteQueue(sink.write, { ...OPTIONS, flushDelayMs: 60_000 });
    for (let i = 1; i <= 5; i++) queue.enqueue(i, 10);
    await expect(queue.close(1000)).resolves.toBe(0);
    expect(sink.rows).toEqual([1, 2, 3, 4, 5]);
  });

  it('close() waits for a write under way and also writes rows recorded while it closes', async () => {
    const written: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const queue = new LogWriteQueue<number>(
      async (rows) => {
        if (written.length === 0) await held; // the first batch is still being written when close() starts
        written.push([...rows]);
      },
      { ...OPTIONS, flushDelayMs: 0 },
    );
    queue.enqueue(1, 10);
    await sleep(5);
    let closed = false;
    const closing = queue.close(1000).then((lost) => {
      closed = true;
      return lost;
    });
    queue.enqueue(2, 10);
    await sleep(5);
    expect(closed).toBe(false);
    queue.enqueue(3, 10);
    release();
    await expect(closing).resolves.toBe(0);
    expect(written.flat()).toEqual([1, 2, 3]);
    expect(queue.state()).toMatchObject({ queued: 0, dropped: 0, written: 3 });
  });

  it('close() writes rows recorded just after it was called, before it resolves', async () => {
    const sink = new FakeSink();
    const queue = new LogWriteQueue(sink.write, { ...OPTIONS, flushDelayMs: 60_000 });
    const closing = queue.close(1000);
    queue.enqueue(1, 10);
    queue.enqueue(2, 10);
    await expect(closing).resolves.toBe(0);
    expect(sink.rows).toEqual([1, 2]);
  });

  it('close() gives up after its deadline and reports the rows it lost', async () => {
    const sink = new FakeSink();
    const queue = new LogWriteQueue(sink.write, OPTIONS);
    sink.down = true;
    queue.enqueue(1, 10);
    queue.enqueue(2, 10);
    await expect(queue.close(100)).resolves.toBe(2);
    expect(queue.state()).toMatchObject({ queued: 0, dropped: 2 });
    expect(sink.calls).toBeGreaterThan(1);
  });
});
