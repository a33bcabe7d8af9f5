import { callPasses, itemPasses, verdictOf } from './item-verdict';

describe('callPasses', () => {
  it('passes when every check passes, and without checks', () => {
    expect(callPasses([{ type: 'schema', pass: true, reason: null }])).toBe(true);
    expect(
      callPasses([
        { type: 'schema', pass: true, reason: null },
        { type: 'equals', pass: false, reason: 'the output is 1, expected 2' },
      ]),
    ).toBe(false);
    expect(callPasses([])).toBe(true);
  });
});

describe('itemPasses', () => {
  it('passes with a single passing repeat, fails with a single failing one', () => {
    expect(itemPasses([true])).toBe(true);
    expect(itemPasses([false])).toBe(false);
  });

  it('needs a strict majority of repeats', () => {
    expect(itemPasses([true, false, true])).toBe(true);
    expect(itemPasses([false, true, false])).toBe(false);
    expect(itemPasses([true, true, false, false, true])).toBe(true);
  });

  it('fails a tie and an item without results', () => {
    expect(itemPasses([true, false])).toBe(false);
    expect(itemPasses([true, true, false, false])).toBe(false);
    expect(itemPasses([])).toBe(false);
  });
});

describe('verdictOf', () => {
  it('compares the candidate with the baseline', () => {
    expect(verdictOf(false, true)).toBe('regressed');
    expect(verdictOf(true, false)).toBe('improved');
    expect(verdictOf(true, true)).toBe('unchanged_pass');
    expect(verdictOf(false, false)).toBe('unchanged_fail');
  });

  it('is unchanged by the candidate alone without a baseline', () => {
    expect(verdictOf(true, null)).toBe('unchanged_pass');
    expect(verdictOf(false, null)).toBe('unchanged_fail');
  });
});
