import { QueryFailedError } from 'typeorm';
import { preparedLog } from '../../../test/support/log-entries';
import { TestClock } from '../../../test/support/test-clock';
import { type TagRollupGroup, rollUpBatch, rollUpTags } from './log-rollup';
import { type TagSumsStore, TagSumWindows } from './tag-sum-windows';

/** Records what the windows ask of the database; `refuse` and `fail` make the next writeSums throw. */
class FakeStore implements TagSumsStore {
  written: { window: string; groups: TagRollupGroup[] }[] = [];
  fromRows: string[] = [];
  next: 'ok' | 'refuse' | 'fail' = 'ok';

  async writeSums(window: string, groups: TagRollupGroup[]): Promise<boolean> {
    const next = this.next;
    this.next = 'ok';
    if (next === 'fail') throw new Error('connection lost');
    if (next === 'refuse') throw refusal('23503', 'execution_log_tag_rollups_endpoint_id_fkey');
    this.written.push({ window, groups });
    return true;
  }

  async sumFromRows(window: string): Promise<number> {
    this.fromRows.push(window);
    return 0;
  }
}

/** A statement the database refused, as the driver reports it. */
const refusal = (code: string, constraint: string) =>
  new QueryFailedError('INSERT', [], Object.assign(new Error('refused'), { code, constraint }));

const tags = { team: 'search' };
const rows = [1, 2, 3].map((n) => preparedLog({ id: `id-${n}`, tags, tagsJson: JSON.stringify(tags) }));
const taggedOf = (batch: typeof rows) => rollUpBatch(batch).tagged;

describe('TagSumWindows', () => {
  let store: FakeStore;
  let clock: TestClock;
  let windows: TagSumWindows;

  beforeEach(() => {
    store = new FakeStore();
    clock = new TestClock();
    windows = new TagSumWindows(store, clock, { windowMs: 5_000, maxRows: 100, maxGroups: 100 });
  });

  it('sums the batches of a window in memory and writes them once, when the window is due', async () => {
    const window = windows.current();
    windows.stored(window, taggedOf(rows.slice(0, 2)));
    expect(windows.current()).toBe(window);
    windows.stored(window, taggedOf(rows.slice(2)));
    expect(windows.due()).toBe(false);
    clock.advance(5_000);
    expect(windows.due()).toBe(true);
    // The next batch opens another window, and the closed one is written.
    expect(windows.current()).not.toBe(window);
    await windows.writeClosed();
    expect(store.written).toEqual([{ window, groups: rollUpTags(rows) }]);
    expect(store.written[0].groups.map((group) => group.calls)).toEqual([3, 3]);
    expect(windows.pending).toBe(0);
  });

  it('closes a window sooner once it holds its most rows', () => {
    windows = new TagSumWindows(store, clock, { windowMs: 5_000, maxRows: 2, maxGroups: 100 });
    const window = windows.current();
    windows.stored(window, taggedOf(rows.slice(0, 2)));
    expect(windows.due()).toBe(true);
    expect(windows.current()).not.toBe(window);
  });

  it('closes a window once the UTC hour it opened in has passed', () => {
    windows = new TagSumWindows(store, clock, { windowMs: 2 * 3_600_000, maxRows: 100, maxGroups: 100 });
    const window = windows.current();
    windows.stored(window, taggedOf(rows));
    expect(windows.due()).toBe(false);
    clock.advance(3_600_000 - (clock.epochNow() % 3_600_000));
    expect(windows.due()).toBe(true);
  });

  it('writes nothing for a window without tagged rows', async () => {
    windows.current();
    windows.close();
    await windows.writeClosed();
    expect(store.written).toEqual([]);
    expect(store.fromRows).toEqual([]);
  });

  it('keeps the sums when writing them fails, and writes them on the next call', async () => {
    const window = windows.current();
    windows.stored(window, taggedOf(rows));
    windows.close();
    store.next = 'fail';
    await expect(windows.writeClosed()).rejects.toThrow('connection lost');
    expect(windows.pending).toBe(1);
    await windows.writeClosed();
    expect(store.written.map((write) => write.window)).toEqual([window]);
    expect(windows.pending).toBe(0);
  });

  it('lets go a window whose batch failed without saying whether it was stored (the sweep sums its rows)', async () => {
    const window = windows.current();
    windows.stored(window, taggedOf(rows.slice(0, 1)));
    windows.failed(window, new Error('connection lost'));
    // The failed batch is retried in another window.
    const next = windows.current();
    expect(next).not.toBe(window);
    windows.stored(next, taggedOf(rows.slice(1)));
    windows.close();
    await windows.writeClosed();
    expect(store.fromRows).toEqual([]);
    expect(store.written.map((write) => write.window)).toEqual([next]);
    expect(store.written[0].groups.map((group) => group.calls)).toEqual([2, 2]);
  });

  it('lets go a window another instance summed meanwhile (the batch was refused as late)', async () => {
    const window = windows.current();
    windows.stored(window, taggedOf(rows.slice(0, 1)));
    windows.failed(window, refusal('23514', 'tag_sum_windows_late_check'));
    expect(windows.current()).not.toBe(window);
    windows.close();
    await windows.writeClosed();
    expect(store.written).toEqual([]);
  });

  it('keeps the window open when the database refused a row of the batch (nothing of it was stored)', () => {
    const window = windows.current();
    windows.failed(window, refusal('23503', 'execution_logs_endpoint_id_fkey'));
    expect(windows.current()).toBe(window);
  });

  it('keeps at most 30 closed windows unwritten; the oldest are let go to the sweep', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 35; i++) {
      const window = windows.current();
      ids.push(window);
      windows.stored(window, taggedOf(rows.slice(0, 1)));
      windows.close();
    }
    expect(windows.pending).toBe(30);
    await windows.writeClosed();
    expect(store.written.map((write) => write.window)).toEqual(ids.slice(5));
  });

  it('sums from the stored rows when the database refuses the sums (an endpoint was deleted meanwhile)', async () => {
    const window = windows.current();
    windows.stored(window, taggedOf(rows));
    windows.close();
    store.next = 'refuse';
    await windows.writeClosed();
    expect(store.written).toEqual([]);
    expect(store.fromRows).toEqual([window]);
  });
});
