import { Fragment } from 'react';
import type { DiffLine, DiffSegment } from './text-diff';

/**
 * A diff line's text; in a line that replaces or was replaced by another, the words that differ are marked <del> (in a
 * removed line) or <ins> (in an added one): struck through or underlined, so the change shows without its colour.
 */
export function DiffText({ line, segments }: { line: DiffLine; segments: DiffSegment[] | null }) {
  if (!segments) return <code>{line.text}</code>;
  const Mark = line.type === 'added' ? 'ins' : 'del';
  return (
    <code>
      {segments.map((segment, index) =>
        segment.changed ? (
          <Mark key={index} className="diff-word">
            {segment.text}
          </Mark>
        ) : (
          <Fragment key={index}>{segment.text}</Fragment>
        ),
      )}
    </code>
  );
}
