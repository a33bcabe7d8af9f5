import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import type { Schemas } from '../../api/client';
import { Button, Field, Loading } from '../../ui/controls';
import { formatCost, formatMs, formatNumber } from '../../ui/format';
import { callsHref, tagGroupLabel, tagKeyProblem, type TagFilters, tagText } from '../tags/rules';
import { formatRate } from './stats-format';

type TagGroup = Schemas['StatsTagGroupResponse'];

/** Chooses the tag key whose values the figures are broken down by, or stops the breakdown. */
export function GroupByTagForm({ tagKey, onChange }: { tagKey: string | undefined; onChange: (key?: string) => void }) {
  const [text, setText] = useState(tagKey ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  function group(event: FormEvent) {
    event.preventDefault();
    const key = text.trim();
    const keyProblem = tagKeyProblem(key);
    if (keyProblem) return setProblem(keyProblem);
    setProblem(null);
    onChange(key);
  }

  return (
    <form className="inline tag-filter-form" aria-label="Group by tag" onSubmit={group}>
      <Field label="Group by tag key" hint="The figures of each value of this tag" error={problem}>
        {(id) => (
          <input
            id={id}
            className="mono"
            value={text}
            placeholder="team"
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => {
              setText(event.target.value);
              setProblem(null);
            }}
          />
        )}
      </Field>
      <Button type="submit" disabled={text.trim() === '' || text.trim() === tagKey}>
        Group
      </Button>
      {tagKey && (
        <Button
          onClick={() => {
            setText('');
            onChange(undefined);
          }}
        >
          Stop grouping by tag
        </Button>
      )}
    </form>
  );
}

/**
 * The figures of each value of a tag key, most calls first, then the group of the other values and the calls without
 * the tag. Each value links to its calls in Logs, with the view's other tag filters kept.
 */
export function ByTag({
  tagKey,
  groups,
  filters,
  endpointId,
}: {
  tagKey: string;
  /** Undefined while the figures of another breakdown are still shown. */
  groups: TagGroup[] | undefined;
  filters: TagFilters;
  endpointId: string | undefined;
}) {
  const logsOf = (value: string) =>
    callsHref('/logs', endpointId, { ...filters, tag: [...filters.tag, tagText({ key: tagKey, value })] });
  return (
    <section className="panel stats-by-tag" aria-labelledby="stats-by-tag-title">
      <h2 id="stats-by-tag-title">
        By tag <code>{tagKey}</code>
      </h2>
      {!groups ? (
        <Loading what={`the figures by ${tagKey}`} />
      ) : groups.length === 0 ? (
        <p className="muted">No calls in this period.</p>
      ) : (
        <div className="table-wrap">
          <table className="by-tag">
            <caption className="visually-hidden">Totals of each value of the tag {tagKey}</caption>
            <thead>
              <tr>
                <th scope="col">Value</th>
                <th scope="col" className="number">
                  Calls
                </th>
                <th scope="col" className="number">
                  Errors
                </th>
                <th scope="col" className="number">
                  Error rate
                </th>
                <th scope="col" className="number">
                  Latency p50
                </th>
                <th scope="col" className="number">
                  Latency p95
                </th>
                <th scope="col" className="number">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {groups.map(({ tag, totals }) => (
                <tr key={tag.value ?? ''} data-tag-value={tag.value ?? ''}>
                  <th scope="row">
                    {tag.value === null ? (
                      <em className="muted">{tagGroupLabel(null)}</em>
                    ) : (
                      <Link href={logsOf(tag.value)}>{tagGroupLabel(tag.value)}</Link>
                    )}
                  </th>
                  <td className="number">{formatNumber(totals.calls)}</td>
                  <td className="number">{formatNumber(totals.errors)}</td>
                  <td className="number">{formatRate(totals.errorRate)}</td>
                  <td className="number">{formatMs(totals.latencyMs.p50)}</td>
                  <td className="number">{formatMs(totals.latencyMs.p95)}</td>
                  <td className="number">{formatCost(totals.costUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
