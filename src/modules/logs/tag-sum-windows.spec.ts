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
    if (next === 'refuse')
      throw new QueryFailedError('INSERT', [], Object.assign(new Error('foreign key'), { code: '23503' }));
    this.written.push({ window, groups });
    return true;
  }

  async sumFromRows(window: string): Promise<number> {
    this.fromRows.push(window);
    return 0;
  }
}

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

  it('sums from the stored rows a window whose batch failed without saying whether it was stored', async () => {
    const window = windows.current();
    windows.stored(window, taggedOf(rows.slice(0, 1)));
    windows.failed(window);
    // The failed batch is retried in another window.
    const next = windows.current();
    expect(next).not.toBe(window);
    windows.stored(next, taggedOf(rows.slice(1)));
    windows.close();
    await windows.writeClosed();
    expect(store.fromRows).toEqual([window]);
    expect(store.written.map((write) => write.window)).toEqual([next]);
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
