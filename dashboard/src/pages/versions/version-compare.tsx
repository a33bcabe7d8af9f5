import { Link, useParams } from 'wouter';
import { api, type Schemas, unwrap } from '../../api/client';
import { useQuery } from '../../router';
import { Button, Field, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatDate } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { formatSettingValue, loadPrompt, loadVersions, settingLabel, versionsPath } from './version-shared';
import './versions.css';

type Comparison = Schemas['VersionComparisonResponse'];
type DiffLine = Schemas['TemplateDiffLineResponse'];
type View = 'split' | 'unified';

/**
 * Two versions side by side or as one unified diff of the template, with the settings that differ. The versions and
 * the view live in the route's query (`?from=1&to=2&view=unified`), so a comparison can be shared as a link.
 */
export default function VersionCompare() {
  const { id: endpointId, promptId } = useParams<{ id: string; promptId: string }>();
  const [query, setQuery] = useQuery();
  const loaded = useLoad(async () => {
    const [prompt, versions] = await Promise.all([loadPrompt(promptId), loadVersions(promptId)]);
    return { prompt, versions };
  }, [promptId]);
  // Another prompt's data stays on screen while this one loads: use only this prompt's.
  const current = loaded.data?.prompt.id === promptId ? loaded.data : undefined;
  const versions = current?.versions ?? [];
  const latest = versions.length > 0 ? versions[versions.length - 1].versionNumber : undefined;
  const from = positive(query.get('from')) ?? (latest !== undefined ? Math.max(1, latest - 1) : undefined);
  const to = positive(query.get('to')) ?? latest;
  const view: View = query.get('view') === 'unified' ? 'unified' : 'split';

  const comparison = useLoad(
    () =>
      from !== undefined && to !== undefined
        ? unwrap(
            api.GET('/admin/v1/prompts/{id}/versions/compare', {
              params: { path: { id: promptId }, query: { from, to } },
            }),
          )
        : Promise.resolve(undefined),
    [promptId, from, to],
  );
  const change = (next: { from?: number; to?: number; view?: View }) =>
    setQuery({
      from: next.from ?? from,
      to: next.to ?? to,
      view: (next.view ?? view) === 'unified' ? 'unified' : undefined,
    });

  const prompt = current?.prompt;
  const shown = comparison.data && comparison.data.promptId === promptId ? comparison.data : undefined;
  return (
    <section>
      <PageHeader
        title={prompt ? `Compare versions of ${prompt.name}` : 'Compare versions'}
        back={<Link href={versionsPath(endpointId, promptId)}>← All versions{prompt ? ` of ${prompt.name}` : ''}</Link>}
      />
      <Problems error={loaded.error} />
      <div className="filters compare-controls">
        <Field label="From version">
          {(id) => (
            <select id={id} value={from ?? ''} onChange={(event) => change({ from: Number(event.target.value) })}>
              {versions.map((version) => (
                <option key={version.versionNumber} value={version.versionNumber}>
                  Version {version.versionNumber}
                  {version.archived ? ' (archived)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="To version">
          {(id) => (
            <select id={id} value={to ?? ''} onChange={(event) => change({ to: Number(event.target.value) })}>
              {versions.map((version) => (
                <option key={version.versionNumber} value={version.versionNumber}>
                  Version {version.versionNumber}
                  {version.archived ? ' (archived)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="view-toggle" role="group" aria-labelledby="diff-view-label">
          <span id="diff-view-label" className="view-toggle-label">
            Diff view
          </span>
          <div className="view-toggle-buttons">
            <Button aria-pressed={view === 'split'} onClick={() => change({ view: 'split' })}>
              Side by side
            </Button>
            <Button aria-pressed={view === 'unified'} onClick={() => change({ view: 'unified' })}>
              Unified
            </Button>
          </div>
        </div>
      </div>
      <Problems error={comparison.error} />
      {!shown ? (
        !comparison.error && !loaded.error && <Loading what="the comparison" />
      ) : (
        <ComparisonView comparison={shown} view={view} />
      )}
    </section>
  );
}

function positive(text: string | null): number | undefined {
  const value = Number(text);
  return text && Number.isInteger(value) && value >= 1 ? value : undefined;
}

function ComparisonView({ comparison, view }: { comparison: Comparison; view: View }) {
  const fromName = `Version ${comparison.from.versionNumber}`;
  const toName = `Version ${comparison.to.versionNumber}`;
  const added = comparison.templateDiff.filter((line) => line.type === 'added').length;
  const removed = comparison.templateDiff.filter((line) => line.type === 'removed').length;
  return (
    <>
      <p className="compare-summary">
        <strong>{fromName}</strong> (saved {formatDate(comparison.from.createdAt)} as {comparison.from.status}) →{' '}
        <strong>{toName}</strong> (saved {formatDate(comparison.to.createdAt)} as {comparison.to.status})
      </p>
      <h2>Template</h2>
      {!comparison.templateChanged ? (
        <p className="empty">The template is the same in both versions.</p>
      ) : (
        <>
          <p className="muted" role="status">
            {plural(removed, 'line')} removed, {plural(added, 'line')} added. Removed lines are marked −, added lines +.
          </p>
          {view === 'split' ? (
            <SplitDiff lines={comparison.templateDiff} fromName={fromName} toName={toName} />
          ) : (
            <UnifiedDiff lines={comparison.templateDiff} fromName={fromName} toName={toName} />
          )}
        </>
      )}
      <h2>Changed settings</h2>
      {comparison.changedSettings.length === 0 ? (
        <p className="empty">No setting differs between these versions.</p>
      ) : (
        <div className="table-wrap">
          <table className="settings-changes">
            <caption className="visually-hidden">
              Settings that differ between {fromName} and {toName}
            </caption>
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">From ({fromName})</th>
                <th scope="col">To ({toName})</th>
              </tr>
            </thead>
            <tbody>
              {comparison.changedSettings.map((change) => (
                <tr key={change.setting}>
                  <th scope="row">{settingLabel(change.setting)}</th>
                  <td className="mono">{formatSettingValue(change.from)}</td>
                  <td className="mono">{formatSettingValue(change.to)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The +/− marker (hidden from screen readers) and the words they read instead. */
function Marker({ type }: { type: DiffLine['type'] }) {
  if (type === 'unchanged') return <span className="diff-marker" aria-hidden="true" />;
  return (
    <>
      <span className="diff-marker" aria-hidden="true">
        {type === 'added' ? '+' : '−'}
      </span>
      <span className="visually-hidden">{type === 'added' ? 'Added: ' : 'Removed: '}</span>
    </>
  );
}

/** A line-number column's heading: short on screen, "Line in Version N" when read aloud. */
function LineHeader({ short, name }: { short: string; name: string }) {
  return (
    <>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">Line in {name}</span>
    </>
  );
}

/**
 * A unified diff of `what` (the template unless said otherwise), from `fromName`'s text to `toName`'s; `short` names
 * the line-number columns on screen (by default `v1`, `v2` from `Version 1`, `Version 2`).
 */
export function UnifiedDiff({
  lines,
  fromName,
  toName,
  what = 'the template',
  short = { from: fromName.replace('Version ', 'v'), to: toName.replace('Version ', 'v') },
}: {
  lines: DiffLine[];
  fromName: string;
  toName: string;
  what?: string;
  short?: { from: string; to: string };
}) {
  return (
    <table className="diff unified">
      <caption className="visually-hidden">
        Unified diff of {what} from {fromName} to {toName}
      </caption>
      <thead>
        <tr>
          <th scope="col" className="line-number">
            <LineHeader short={short.from} name={fromName} />
          </th>
          <th scope="col" className="line-number">
            <LineHeader short={short.to} name={toName} />
          </th>
          <th scope="col">Line</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => (
          <tr key={index} className={`diff-${line.type}`}>
            <td className="line-number">{line.fromLine ?? ''}</td>
            <td className="line-number">{line.toLine ?? ''}</td>
            <td className="diff-text">
              <Marker type={line.type} />
              <code>{line.text}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface SplitRow {
  left?: DiffLine;
  right?: DiffLine;
}

/** Removed lines face the added lines that replaced them; unchanged lines sit on both sides. */
function splitRows(lines: DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) rows.push({ left: removed[i], right: added[i] });
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.type === 'removed') removed.push(line);
    else if (line.type === 'added') added.push(line);
    else {
      flush();
      rows.push({ left: line, right: line });
    }
  }
  flush();
  return rows;
}

function SplitDiff({ lines, fromName, toName }: { lines: DiffLine[]; fromName: string; toName: string }) {
  return (
    <table className="diff split">
      <caption className="visually-hidden">
        Side-by-side diff of the template: {fromName} on the left, {toName} on the right
      </caption>
      <thead>
        <tr>
          <th scope="col" className="line-number">
            <LineHeader short="#" name={fromName} />
          </th>
          <th scope="col">{fromName}</th>
          <th scope="col" className="line-number">
            <LineHeader short="#" name={toName} />
          </th>
          <th scope="col">{toName}</th>
        </tr>
      </thead>
      <tbody>
        {splitRows(lines).map((row, index) => (
          <tr key={index}>
            <SplitCells line={row.left} number={row.left?.fromLine} />
            <SplitCells line={row.right} number={row.right?.toLine} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SplitCells({ line, number }: { line: DiffLine | undefined; number: number | null | undefined }) {
  if (!line) {
    return (
      <>
        <td className="line-number diff-none" />
        <td className="diff-text diff-none" />
      </>
    );
  }
  return (
    <>
      <td className={`line-number diff-${line.type}`}>{number ?? ''}</td>
      <td className={`diff-text diff-${line.type}`}>
        <Marker type={line.type} />
        <code>{line.text}</code>
      </td>
    </>
  );
}
