import { diffLines, diffWordsWithSpace } from 'diff';

export interface DiffLine {
  type: 'added' | 'removed' | 'unchanged';
  /** Line number in the `from` text (null for added lines). */
  fromLine: number | null;
  /** Line number in the `to` text (null for removed lines). */
  toLine: number | null;
  text: string;
}

/** A piece of a changed line: `changed` marks the words that differ from the line it replaced or was replaced by. */
export interface DiffSegment {
  text: string;
  changed: boolean;
}

/**
 * The lines of `from` and `to`, each marked added, removed or unchanged, with its line numbers. Both texts are read as
 * if they ended with a line break, so a line appended after a last line without one leaves that line unchanged.
 */
export function lineDiff(from: string, to: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let fromLine = 1;
  let toLine = 1;
  for (const part of diffLines(withFinalBreak(from), withFinalBreak(to))) {
    const type = part.added ? 'added' : part.removed ? 'removed' : 'unchanged';
    for (const text of part.value.replace(/\n$/, '').split('\n')) {
      lines.push({
        type,
        fromLine: type === 'added' ? null : fromLine++,
        toLine: type === 'removed' ? null : toLine++,
        text,
      });
    }
  }
  return lines;
}

function withFinalBreak(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * Which lines replace which: within each run of changed lines, the n-th removed line and the n-th added line are a
 * pair (by their index in `lines`). A line without a counterpart (more removed than added lines, or the reverse) is
 * wholly removed or added and in no pair.
 */
export function replacedLines(lines: DiffLine[]): Map<number, number> {
  const pairs = new Map<number, number>();
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    for (let i = 0; i < Math.min(removed.length, added.length); i++) {
      pairs.set(removed[i], added[i]);
      pairs.set(added[i], removed[i]);
    }
    removed = [];
    added = [];
  };
  lines.forEach((line, index) => {
    if (line.type === 'removed') {
      // A removed line after added ones starts a new run.
      if (added.length > 0) flush();
      removed.push(index);
    } else if (line.type === 'added') added.push(index);
    else flush();
  });
  flush();
  return pairs;
}

/**
 * The words of a removed line (`side` 'removed') or of the added line that replaced it ('added'), the words that differ
 * marked changed. Spaces count as words, so a changed indentation shows.
 */
export function wordSegments(removed: string, added: string, side: 'removed' | 'added'): DiffSegment[] {
  const segments: DiffSegment[] = [];
  for (const part of diffWordsWithSpace(removed, added)) {
    if ((side === 'removed' && part.added) || (side === 'added' && part.removed)) continue;
    const changed = Boolean(part.added || part.removed);
    const last = segments[segments.length - 1];
    // A space alone between two changed words joins them: "one sentence" reads as one change.
    const before = segments[segments.length - 2];
    if (changed && last && !last.changed && /^\s+$/.test(last.text) && before?.changed) {
      segments.pop();
      before.text += last.text + part.value;
    } else if (last && last.changed === changed) last.text += part.value;
    else segments.push({ text: part.value, changed });
  }
  return segments;
}

/** The segments of line `index` of `lines`: its changed words when it replaces or was replaced by a line, else null. */
export function segmentsOf(lines: DiffLine[], pairs: Map<number, number>, index: number): DiffSegment[] | null {
  const line = lines[index];
  const other = pairs.get(index);
  if (line.type === 'unchanged' || other === undefined) return null;
  return line.type === 'removed'
    ? wordSegments(line.text, lines[other].text, 'removed')
    : wordSegments(lines[other].text, line.text, 'added');
}
