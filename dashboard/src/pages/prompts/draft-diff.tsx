import { diffLines } from 'diff';
import type { DraftChanges } from './prompt-draft';

interface DiffLine {
  type: 'added' | 'removed' | 'unchanged';
  text: string;
}

/** The template's lines, each marked added, removed or unchanged, from the saved text to the draft. */
export function templateDiff(saved: string, draft: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const part of diffLines(saved, draft)) {
    const type = part.added ? 'added' : part.removed ? 'removed' : 'unchanged';
    const texts = part.value.replace(/\n$/, '').split('\n');
    for (const text of texts) lines.push({ type, text });
  }
  return lines;
}

const SIGN = { added: '+', removed: '−', unchanged: ' ' } as const;
const SPOKEN = { added: 'added', removed: 'removed', unchanged: 'unchanged' } as const;

/**
 * What saving would change: the template as a unified diff (long unchanged stretches folded) and each changed setting
 * from its saved value to the draft's.
 */
export function DraftDiff({ saved, draft, changes }: { saved: string; draft: string; changes: DraftChanges }) {
  const lines = changes.template ? templateDiff(saved, draft) : [];
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
                  {line.text || ' '}
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
function fold(lines: DiffLine[]): (DiffLine | null)[] {
  const CONTEXT = 2;
  const near = lines.map((_, index) =>
    lines.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some((line) => line.type !== 'unchanged'),
  );
  const result: (DiffLine | null)[] = [];
  lines.forEach((line, index) => {
    if (near[index]) result.push(line);
    else if (result[result.length - 1] !== null) result.push(null);
  });
  return result;
}
