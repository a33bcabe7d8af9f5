import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { Button, Field } from '../../ui/controls';
import { parseTagFilter, type Tag, tagSearch, tagText } from './rules';
import './tags.css';

/**
 * A log row's tags as chips. With `onPick` each chip is a button that filters by its tag; with `linked` each is a link
 * to the calls carrying it; otherwise plain text.
 */
export function TagChips({
  tags,
  onPick,
  linked = false,
  empty = null,
}: {
  tags: Tag[];
  onPick?: (tag: Tag) => void;
  linked?: boolean;
  empty?: string | null;
}) {
  if (tags.length === 0) return empty === null ? null : <span className="muted">{empty}</span>;
  return (
    <ul className="tag-chips" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag.key}>
          {onPick ? (
            <button
              type="button"
              className="tag-chip"
              title={`Show only the calls tagged ${tagText(tag)}`}
              onClick={() => onPick(tag)}
            >
              <TagLabel tag={tag} />
            </button>
          ) : linked ? (
            <Link
              className="tag-chip"
              href={`/logs?${tagSearch({ tag: [tagText(tag)], hasTag: [] })}`}
              title={`The calls tagged ${tagText(tag)}`}
            >
              <TagLabel tag={tag} />
            </Link>
          ) : (
            <span className="tag-chip">
              <TagLabel tag={tag} />
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

function TagLabel({ tag }: { tag: Tag }) {
  return (
    <>
      <span className="tag-key">{tag.key}</span>
      {tag.value === null ? (
        <span className="tag-any"> (any value)</span>
      ) : (
        <>
          {': '}
          <span className="tag-value">{tag.value}</span>
        </>
      )}
    </>
  );
}

/** The tag filters of a view, each a chip with its own remove button. */
export function TagFilterChips({ tags, onRemove }: { tags: Tag[]; onRemove: (tag: Tag) => void }) {
  if (tags.length === 0) return null;
  return (
    <ul className="tag-chips tag-filters" aria-label="Tag filters">
      {tags.map((tag) => (
        <li key={tagText(tag)} className="tag-chip">
          <TagLabel tag={tag} />
          <button
            type="button"
            className="tag-remove"
            aria-label={`Remove the tag filter ${tagText(tag)}`}
            title="Remove this filter"
            onClick={() => onRemove(tag)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A tag filter typed by hand: `key:value`, or a key alone for any value. */
export function AddTagFilter({ onAdd }: { onAdd: (tag: Tag) => void }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function add(event: FormEvent) {
    event.preventDefault();
    const parsed = parseTagFilter(text);
    if ('problem' in parsed) return setProblem(parsed.problem);
    setProblem(null);
    setText('');
    onAdd(parsed.tag);
  }

  return (
    <form className="inline tag-filter-form" aria-label="Add a tag filter" onSubmit={add}>
      <Field label="Tag" hint="key:value, or a key alone for any value" error={problem}>
        {(id) => (
          <input
            id={id}
            className="mono"
            value={text}
            placeholder="team:support"
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => {
              setText(event.target.value);
              setProblem(null);
            }}
          />
        )}
      </Field>
      <Button type="submit" disabled={text.trim() === ''}>
        Add tag filter
      </Button>
    </form>
  );
}
