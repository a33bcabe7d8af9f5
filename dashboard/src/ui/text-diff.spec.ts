import { lineDiff, replacedLines, segmentsOf, wordSegments } from './text-diff';

describe('lineDiff', () => {
  it('marks an appended line alone as added, even after a last line without a line break', () => {
    expect(lineDiff('a\nb', 'a\nb\nc')).toEqual([
      { type: 'unchanged', fromLine: 1, toLine: 1, text: 'a' },
      { type: 'unchanged', fromLine: 2, toLine: 2, text: 'b' },
      { type: 'added', fromLine: null, toLine: 3, text: 'c' },
    ]);
  });

  it('numbers the lines of each side: a changed line is removed then added', () => {
    expect(lineDiff('x\nold\ny\n', 'x\nnew\ny\n')).toEqual([
      { type: 'unchanged', fromLine: 1, toLine: 1, text: 'x' },
      { type: 'removed', fromLine: 2, toLine: null, text: 'old' },
      { type: 'added', fromLine: null, toLine: 2, text: 'new' },
      { type: 'unchanged', fromLine: 3, toLine: 3, text: 'y' },
    ]);
  });

  it('keeps an empty line and an empty text', () => {
    expect(lineDiff('', 'a\n\nb')).toEqual([
      { type: 'added', fromLine: null, toLine: 1, text: 'a' },
      { type: 'added', fromLine: null, toLine: 2, text: '' },
      { type: 'added', fromLine: null, toLine: 3, text: 'b' },
    ]);
    expect(lineDiff('same', 'same')).toEqual([{ type: 'unchanged', fromLine: 1, toLine: 1, text: 'same' }]);
  });
});

describe('replacedLines', () => {
  it('pairs the n-th removed line of a run with its n-th added line, both ways; the extra lines stay unpaired', () => {
    const lines = lineDiff('k\nr1\nr2\nr3\nk2', 'k\na1\na2\nk2');
    expect(lines.map((line) => line.type[0])).toEqual(['u', 'r', 'r', 'r', 'a', 'a', 'u']);
    expect([...replacedLines(lines).entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 4],
      [2, 5],
      [4, 1],
      [5, 2],
    ]);
  });

  it('does not pair lines across unchanged ones', () => {
    expect(replacedLines(lineDiff('a\nk', 'k\nb')).size).toBe(0);
  });
});

describe('wordSegments', () => {
  it('marks the words that differ on each side, spaces included: words only inserted leave the old line unmarked', () => {
    const removed = 'Summarize: {{ inputs.text }}';
    const added = 'Summarize in five words: {{ inputs.text }}';
    expect(wordSegments(removed, added, 'removed')).toEqual([{ text: removed, changed: false }]);
    expect(wordSegments(removed, added, 'added')).toEqual([
      { text: 'Summarize', changed: false },
      { text: ' in five words', changed: true },
      { text: ': {{ inputs.text }}', changed: false },
    ]);
    expect(wordSegments('Answer in one sentence.', 'Answer in two sentences.', 'removed')).toEqual([
      { text: 'Answer in ', changed: false },
      { text: 'one sentence', changed: true },
      { text: '.', changed: false },
    ]);
    expect(
      wordSegments(removed, added, 'added')
        .map((segment) => segment.text)
        .join(''),
    ).toBe(added);
  });

  it('gives the segments of paired lines only', () => {
    const lines = lineDiff('keep\nsay hi\n', 'keep\nsay hello\nmore\n');
    const pairs = replacedLines(lines);
    expect(segmentsOf(lines, pairs, 0)).toBeNull();
    expect(segmentsOf(lines, pairs, 1)).toEqual([
      { text: 'say ', changed: false },
      { text: 'hi', changed: true },
    ]);
    expect(segmentsOf(lines, pairs, 2)).toEqual([
      { text: 'say ', changed: false },
      { text: 'hello', changed: true },
    ]);
    expect(segmentsOf(lines, pairs, 3)).toBeNull();
  });
});
