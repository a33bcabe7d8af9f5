import { DiffText } from '../../ui/diff-text';
import { type DiffLine, type DiffSegment, lineDiff, replacedLines, segmentsOf } from '../../ui/text-diff';
import type { DraftChanges } from './prompt-draft';

/** A line of the diff with the changed words of a changed line (null for a line wholly added, removed or unchanged). */
type ShownLine = DiffLine & { segments: DiffSegment[] | null };

const SIGN = { added: '+', removed: '−', unchanged: ' ' } as const;
const SPOKEN = { added: 'added', removed: 'removed', unchanged: 'unchanged' } as const;

/**
 * What saving would change: the template as a unified diff (long unchanged stretches folded; within a changed line,
 * the words removed struck through and those added underlined) and each changed setting from its saved value to the
 * draft's.
 */
export function DraftDiff({ saved, draft, changes }: { saved: string; draft: string; changes: DraftChanges }) {
  const diff = changes.template ? lineDiff(saved, draft) : [];
  const pairs = replacedLines(diff);
  const lines: ShownLine[] = diff.map((line, index) => ({ ...line, segments: segmentsOf(diff, pairs, index) }));
  return (
    <div className="draft-diff">
      {changes.template ? (
        <div className="diff" role="table" aria-label="Template changes">
          {fold(lines).map((line, index) =>
            line === null ? (
              <div key={index} role="row" className="diff-line folded">
                <span role="cell" className="diff-sign" />
                <span role="cell">⋯</span>
              </div>
            ) : (
              <div key={index} role="row" className={`diff-line ${line.type}`}>
                <span role="cell" className="diff-sign" aria-label={SPOKEN[line.type]}>
                  {SIGN[line.type]}
                </span>
                <span role="cell" className="diff-text">
                  {line.text ? <DiffText line={line} segments={line.segments} /> : ' '}
                </span>
              </div>
            ),
          )}
        </div>
      ) : (
        <p className="muted">The template is unchanged.</p>
      )}
      {(changes.settings.length > 0 || changes.name) && (
        <table className="settings-diff">
          <caption className="visually-hidden">Changed settings</caption>
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Saved</th>
              <th scope="col">Draft</th>
            </tr>
          </thead>
          <tbody>
            {[...(changes.name ? [changes.name] : []), ...changes.settings].map((change) => (
              <tr key={change.setting}>
                <th scope="row">{change.setting}</th>
                <td className="mono">{change.from}</td>
                <td className="mono">{change.to}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** Keeps two lines of context around each change; longer unchanged runs become one folded marker (null). */
function fold(lines: ShownLine[]): (ShownLine | null)[] {
  const CONTEXT = 2;
  const near = lines.map((_, index) =>
    lines.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some((line) => line.type !== 'unchanged'),
  );
  const result: (ShownLine | null)[] = [];
  lines.forEach((line, index) => {
    if (near[index]) result.push(line);
    else if (result[result.length - 1] !== null) result.push(null);
  });
  return result;
}
