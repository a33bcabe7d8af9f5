import {
  type EvalRunItem,
  formatRate,
  isFinished,
  itemsShown,
  outputDiff,
  outputText,
  progressOf,
  runBodyOf,
  versionLabel,
} from './rules';

const item = (itemId: string, verdict: EvalRunItem['verdict']) => ({ itemId, verdict }) as EvalRunItem;

describe('a run', () => {
  it('has ended once completed, failed or cancelled, so its page stops asking', () => {
    expect(['queued', 'running', 'completed', 'failed', 'cancelled'].filter((s) => isFinished(s as never))).toEqual([
      'completed',
      'failed',
      'cancelled',
    ]);
  });

  it('counts an item done once it has a verdict', () => {
    expect(progressOf([item('a', 'regressed'), item('b', null), item('c', 'unchanged_pass')])).toEqual({
      done: 2,
      total: 3,
    });
    expect(progressOf([])).toEqual({ done: 0, total: 0 });
  });

  it('shows the regressions only until asked for every item', () => {
    const items = [item('a', 'regressed'), item('b', 'improved'), item('c', null), item('d', 'regressed')];
    expect(itemsShown(items, false).map((one) => one.itemId)).toEqual(['a', 'd']);
    expect(itemsShown(items, true)).toBe(items);
  });

  it('writes rates as percentages with at most one decimal, and none as a dash', () => {
    expect(formatRate(0.6667)).toBe('66.7%');
    expect(formatRate(1)).toBe('100%');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(null)).toBe('—');
  });

  it('names a prompt version by its prompt’s name, or a short id when the name is unknown', () => {
    const names = new Map([['p1', 'Plain']]);
    expect(versionLabel({ promptId: 'p1', versionNumber: 3 }, names)).toBe('Plain v3');
    expect(versionLabel({ promptId: '0123456789ab', versionNumber: 1 }, names)).toBe('Prompt 01234567 v1');
    expect(versionLabel(null, names)).toBe('None');
  });

  it('asks for the version chosen, or leaves it to the service (the current one) when none is', () => {
    const choice = { promptId: 'p', baseline: 'none', concurrency: 2, repeats: 3, fresh: true } as const;
    expect(runBodyOf({ ...choice, versionNumber: 4 })).toEqual({ ...choice, versionNumber: 4 });
    expect(runBodyOf({ ...choice, versionNumber: null })).toEqual(choice);
  });
});

describe('an output', () => {
  it('reads as text: a string as it is, other JSON pretty-printed, nothing as empty', () => {
    expect(outputText('Paris')).toBe('Paris');
    expect(outputText({ capital: 'Paris' })).toBe('{\n  "capital": "Paris"\n}');
    expect(outputText(null)).toBe('');
  });

  it('diffs line by line, each line numbered in the texts it belongs to', () => {
    expect(outputDiff('a\nb\nc', 'a\nB\nc\nd')).toEqual([
      { type: 'unchanged', text: 'a', fromLine: 1, toLine: 1 },
      { type: 'removed', text: 'b', fromLine: 2, toLine: null },
      { type: 'added', text: 'B', fromLine: null, toLine: 2 },
      { type: 'unchanged', text: 'c', fromLine: 3, toLine: 3 },
      { type: 'added', text: 'd', fromLine: null, toLine: 4 },
    ]);
  });
});
