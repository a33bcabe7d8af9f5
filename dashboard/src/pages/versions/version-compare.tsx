import { Link, useParams } from 'wouter';
import { useQuery } from '../../router';
import { Button, Field, Loading, PageHeader, Problems } from '../../ui/controls';
import { DiffText } from '../../ui/diff-text';
import { formatDate } from '../../ui/format';
import { type DiffLine, lineDiff, replacedLines, segmentsOf } from '../../ui/text-diff';
import { useLoad } from '../../ui/use-load';
import { allPromptsOf } from '../runner/test-run';
import {
  formatSettingValue,
  loadPrompt,
  loadVersions,
  type Prompt,
  sameValue,
  settingLabel,
  VERSIONED_SETTINGS,
  type Version,
  versionsPath,
} from './version-shared';
import './versions.css';

type View = 'split' | 'unified';

/** One side of a comparison: a version, and how the page names it. */
interface Side {
  version: Version;
  /** "Version 2", or "Summary version 2" when the two sides are versions of different prompts. */
  name: string;
  /** The line-number column's heading on screen. */
  short: string;
}

/**
 * Two versions side by side or as one unified diff of the template (the words that changed marked within each changed
 * line), with the settings that differ. The other side may be a version of another prompt of the endpoint. The
 * versions, the other prompt and the view live in the route's query (`?from=1&to=2&toPrompt=<id>&view=unified`), so a
 * comparison can be shared as a link.
 */
export default function VersionCompare() {
  const { id: endpointId, promptId } = useParams<{ id: string; promptId: string }>();
  const [query, setQuery] = useQuery();
  const otherId = query.get('toPrompt') || promptId;
  const loaded = useLoad(async () => {
    const [prompt, versions, prompts, otherVersions] = await Promise.all([
      loadPrompt(promptId),
      loadVersions(promptId),
      allPromptsOf(endpointId),
      otherId === promptId ? undefined : loadVersions(otherId),
    ]);
    return { key: `${promptId}/${otherId}`, prompt, versions, prompts, otherVersions: otherVersions ?? versions };
  }, [endpointId, promptId, otherId]);
  // Other prompts' data stays on screen while these load: use only these.
  const current = loaded.data?.key === `${promptId}/${otherId}` ? loaded.data : undefined;
  const samePrompt = otherId === promptId;
  const fromVersions = current?.versions ?? [];
  const toVersions = current?.otherVersions ?? [];
  const latestOf = (versions: Version[]) =>
    versions.length > 0 ? versions[versions.length - 1].versionNumber : undefined;
  const latest = latestOf(fromVersions);
  const from = positive(query.get('from')) ?? (latest !== undefined && samePrompt ? Math.max(1, latest - 1) : latest);
  const to = positive(query.get('to')) ?? latestOf(toVersions);
  const view: View = query.get('view') === 'unified' ? 'unified' : 'split';
  const change = (next: { from?: number; to?: number | null; toPrompt?: string; view?: View }) => {
    const toPrompt = next.toPrompt ?? otherId;
    setQuery({
      from: next.from ?? from,
      // Another prompt starts at its latest version.
      to: next.to === null ? undefined : (next.to ?? to),
      toPrompt: toPrompt === promptId ? undefined : toPrompt,
      view: (next.view ?? view) === 'unified' ? 'unified' : undefined,
    });
  };

  const prompt = current?.prompt;
  const otherPrompt =
    current?.prompts.find((candidate) => candidate.id === otherId) ?? (samePrompt ? prompt : undefined);
  const fromVersion = fromVersions.find((version) => version.versionNumber === from);
  const toVersion = toVersions.find((version) => version.versionNumber === to);
  const missing =
    current && (!fromVersion || !toVersion)
      ? `${!fromVersion ? `${prompt?.name} has no version ${from}` : `${otherPrompt?.name ?? 'The other prompt'} has no version ${to}`}: pick another.`
      : null;
  const sides =
    fromVersion && toVersion && prompt && otherPrompt
      ? {
          from: sideOf(fromVersion, samePrompt ? null : prompt, 'from'),
          to: sideOf(toVersion, samePrompt ? null : otherPrompt, 'to'),
        }
      : undefined;
  return (
    <section>
      <PageHeader
        title={
          !prompt
            ? 'Compare versions'
            : samePrompt
              ? `Compare versions of ${prompt.name}`
              : `Compare ${prompt.name} with ${otherPrompt?.name ?? 'another prompt'}`
        }
        back={<Link href={versionsPath(endpointId, promptId)}>← All versions{prompt ? ` of ${prompt.name}` : ''}</Link>}
      />
      <Problems error={loaded.error} />
      <div className="filters compare-controls">
        <Field label="From version">
          {(id) => (
            <select id={id} value={from ?? ''} onChange={(event) => change({ from: Number(event.target.value) })}>
              <VersionOptions versions={fromVersions} />
            </select>
          )}
        </Field>
        <Field label="To prompt">
          {(id) => (
            <select
              id={id}
              value={otherId}
              onChange={(event) => change({ toPrompt: event.target.value, to: null })}
              disabled={!current}
            >
              {(current?.prompts ?? (prompt ? [prompt] : [])).map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {candidate.name}
                  {candidate.id === promptId ? ' (this prompt)' : ` (${candidate.status})`}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="To version">
          {(id) => (
            <select id={id} value={to ?? ''} onChange={(event) => change({ to: Number(event.target.value) })}>
              <VersionOptions versions={toVersions} />
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
      <Problems error={missing} />
      {!sides ? (
        !loaded.error && !missing && <Loading what="the comparison" />
      ) : (
        <ComparisonView from={sides.from} to={sides.to} view={view} />
      )}
    </section>
  );
}

function VersionOptions({ versions }: { versions: Version[] }) {
  return versions.map((version) => (
    <option key={version.versionNumber} value={version.versionNumber}>
      Version {version.versionNumber}
      {version.archived ? ' (archived)' : ''}
    </option>
  ));
}

/** A side named by its version alone, or by its prompt's name too when the sides are of different prompts. */
function sideOf(version: Version, prompt: Prompt | null, end: 'from' | 'to'): Side {
  if (!prompt) return { version, name: `Version ${version.versionNumber}`, short: `v${version.versionNumber}` };
  return { version, name: `${prompt.name} version ${version.versionNumber}`, short: end };
}

function positive(text: string | null): number | undefined {
  const value = Number(text);
  return text && Number.isInteger(value) && value >= 1 ? value : undefined;
}

function ComparisonView({ from, to, view }: { from: Side; to: Side; view: View }) {
  const templateChanged = from.version.template !== to.version.template;
  const lines = templateChanged ? lineDiff(from.version.template, to.version.template) : [];
  const changedSettings = VERSIONED_SETTINGS.filter(
    ({ setting }) => !sameValue(from.version[setting], to.version[setting]),
  );
  const added = lines.filter((line) => line.type === 'added').length;
  const removed = lines.filter((line) => line.type === 'removed').length;
  return (
    <>
      <p className="compare-summary">
        <strong>{from.name}</strong> (saved {formatDate(from.version.createdAt)} as {from.version.status}) →{' '}
        <strong>{to.name}</strong> (saved {formatDate(to.version.createdAt)} as {to.version.status})
      </p>
      <h2>Template</h2>
      {!templateChanged ? (
        <p className="empty">The template is the same in both versions.</p>
      ) : (
        <>
          <p className="muted" role="status">
            {plural(removed, 'line')} removed, {plural(added, 'line')} added. Removed lines are marked −, added lines +;
            within a changed line, the words removed are struck through and the words added underlined.
          </p>
          {view === 'split' ? (
            <SplitDiff lines={lines} fromName={from.name} toName={to.name} />
          ) : (
            <UnifiedDiff
              lines={lines}
              fromName={from.name}
              toName={to.name}
              short={{ from: from.short, to: to.short }}
            />
          )}
        </>
      )}
      <h2>Changed settings</h2>
      {changedSettings.length === 0 ? (
        <p className="empty">No setting differs between these versions.</p>
      ) : (
        <div className="table-wrap">
          <table className="settings-changes">
            <caption className="visually-hidden">
              Settings that differ between {from.name} and {to.name}
            </caption>
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">From ({from.name})</th>
                <th scope="col">To ({to.name})</th>
              </tr>
            </thead>
            <tbody>
              {changedSettings.map(({ setting }) => (
                <tr key={setting}>
                  <th scope="row">{settingLabel(setting)}</th>
                  <td className="mono">{formatSettingValue(from.version[setting])}</td>
                  <td className="mono">{formatSettingValue(to.version[setting])}</td>
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
 * A unified diff of `what` (the template unless said otherwise), from `fromName`'s text to `toName`'s, the changed
 * words marked within each changed line; `short` names the line-number columns on screen (by default `v1`, `v2` from
 * `Version 1`, `Version 2`).
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
  const pairs = replacedLines(lines);
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
              <DiffText line={line} segments={segmentsOf(lines, pairs, index)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface SplitRow {
  left?: number;
  right?: number;
}

/** Removed lines face the added lines that replaced them; unchanged lines sit on both sides (indexes into `lines`). */
function splitRows(lines: DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) rows.push({ left: removed[i], right: added[i] });
    removed = [];
    added = [];
  };
  lines.forEach((line, index) => {
    if (line.type === 'removed') {
      if (added.length > 0) flush();
      removed.push(index);
    } else if (line.type === 'added') added.push(index);
    else {
      flush();
      rows.push({ left: index, right: index });
    }
  });
  flush();
  return rows;
}

function SplitDiff({ lines, fromName, toName }: { lines: DiffLine[]; fromName: string; toName: string }) {
  const pairs = replacedLines(lines);
  const cells = (index: number | undefined, end: 'fromLine' | 'toLine') =>
    index === undefined ? (
      <SplitCells />
    ) : (
      <SplitCells line={lines[index]} number={lines[index][end]} segments={segmentsOf(lines, pairs, index)} />
    );
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
            {cells(row.left, 'fromLine')}
            {cells(row.right, 'toLine')}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SplitCells({
  line,
  number,
  segments = null,
}: {
  line?: DiffLine;
  number?: number | null;
  segments?: ReturnType<typeof segmentsOf>;
}) {
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
        <DiffText line={line} segments={segments} />
      </td>
    </>
  );
}
