import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { navigate } from '../../router';
import { Button, Field, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatDate } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { PromptEvents } from './prompt-events';
import {
  BackToPrompt,
  changesFrom,
  comparePath,
  loadPrompt,
  loadVersions,
  RestoreButton,
  type Version,
  VersionBadges,
  versionsPath,
} from './version-shared';
import './versions.css';

/**
 * A prompt's history as a timeline, newest first: each version's changes, with view, compare and restore; then what
 * happened to the prompt: the times it served traffic and at what share, and its saves, promotions, defaults and
 * archiving, with when and by which key.
 */
export default function VersionsPage() {
  const { id: endpointId, promptId } = useParams<{ id: string; promptId: string }>();
  const loaded = useLoad(async () => {
    const [prompt, versions] = await Promise.all([loadPrompt(promptId), loadVersions(promptId)]);
    return { prompt, versions };
  }, [promptId]);
  // Another prompt's data stays on screen while this one loads: show only this prompt's.
  const current = loaded.data?.prompt.id === promptId ? loaded.data : undefined;
  const prompt = current?.prompt;
  const versions = current?.versions;

  return (
    <section>
      <PageHeader
        title={prompt ? `Versions of ${prompt.name}` : 'Versions'}
        back={<BackToPrompt endpointId={endpointId} prompt={prompt} />}
      />
      <Problems error={loaded.error} />
      {!versions || !prompt ? (
        !loaded.error && <Loading what="the versions" />
      ) : (
        <>
          <p className="prompt-state">
            <span>The prompt is</span>
            <span className={`badge ${prompt.status.toLowerCase()}`}>{prompt.status}</span>
            {prompt.isDefault && <span className="badge default">Default of its endpoint</span>}
            <span>at version {prompt.currentVersion}.</span>
          </p>
          <p className="muted">
            Every save that changes the template or a setting makes a version. Versions pushed out by the plan's history
            limit are marked archived and can still be viewed, compared and restored. Restoring creates a new Draft
            prompt; this prompt and its history stay as they are. Rolling back from what happened restores a past
            version and can promote it and make it the default in one step.
          </p>
          {versions.length > 1 && <ComparePicker endpointId={endpointId} promptId={promptId} versions={versions} />}
          <ol className="timeline" aria-label="Versions, newest first">
            {[...versions].reverse().map((version) => (
              <TimelineItem
                key={version.versionNumber}
                endpointId={endpointId}
                version={version}
                previous={versions.find((other) => other.versionNumber === version.versionNumber - 1)}
                current={version.versionNumber === prompt.currentVersion}
              />
            ))}
          </ol>
          <PromptEvents prompt={prompt} endpointId={endpointId} onRolledBack={loaded.reload} />
        </>
      )}
    </section>
  );
}

function TimelineItem({
  endpointId,
  version,
  previous,
  current,
}: {
  endpointId: string;
  version: Version;
  previous: Version | undefined;
  current: boolean;
}) {
  const headingId = `version-${version.versionNumber}`;
  const base = versionsPath(endpointId, version.promptId);
  return (
    <li className={`timeline-item ${current ? 'is-current' : ''} ${version.archived ? 'is-archived' : ''}`}>
      <article aria-labelledby={headingId}>
        <div className="timeline-head">
          <h2 id={headingId}>Version {version.versionNumber}</h2>
          <VersionBadges version={version} current={current} />
        </div>
        <p className="timeline-meta">
          <time dateTime={version.createdAt}>{formatDate(version.createdAt)}</time>
          <span aria-hidden="true"> · </span>
          <span>
            <span className="visually-hidden">Model </span>
            <code>{version.llmModel}</code>
          </span>
          <span aria-hidden="true"> · </span>
          <span>temperature {version.temperature}</span>
          <span aria-hidden="true"> · </span>
          <span>max tokens {version.maxTokens}</span>
        </p>
        <div className="timeline-changes">
          <span className="label">{previous ? `Changes from version ${previous.versionNumber}:` : 'Changes:'}</span>
          <ul>
            {changesFrom(previous, version).map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </div>
        {version.changeNotes && (
          <p className="change-notes">
            <span className="label">Note:</span> {version.changeNotes}
          </p>
        )}
        <div className="timeline-actions">
          <Link className="button plain" href={`${base}/${version.versionNumber}`}>
            View<span className="visually-hidden"> version {version.versionNumber}</span>
          </Link>
          {previous && (
            <Link
              className="button plain"
              href={comparePath(endpointId, version.promptId, previous.versionNumber, version.versionNumber)}
            >
              Compare with version {previous.versionNumber}
            </Link>
          )}
          <RestoreButton promptId={version.promptId} versionNumber={version.versionNumber} />
        </div>
      </article>
    </li>
  );
}

/** Two versions to compare, the previous and the latest by default. */
function ComparePicker({
  endpointId,
  promptId,
  versions,
}: {
  endpointId: string;
  promptId: string;
  versions: Version[];
}) {
  const latest = versions[versions.length - 1].versionNumber;
  const [from, setFrom] = useState(Math.max(1, latest - 1));
  const [to, setTo] = useState(latest);
  useEffect(() => {
    setFrom(Math.max(1, latest - 1));
    setTo(latest);
  }, [latest]);
  function submit(event: FormEvent) {
    event.preventDefault();
    navigate(comparePath(endpointId, promptId, from, to));
  }
  const options = [...versions].reverse().map((version) => (
    <option key={version.versionNumber} value={version.versionNumber}>
      Version {version.versionNumber}
      {version.archived ? ' (archived)' : ''}
    </option>
  ));
  return (
    <form className="panel compare-picker" onSubmit={submit} aria-labelledby="compare-picker-title">
      <h2 id="compare-picker-title">Compare two versions</h2>
      <div className="inline">
        <Field label="From version">
          {(id) => (
            <select id={id} value={from} onChange={(event) => setFrom(Number(event.target.value))}>
              {options}
            </select>
          )}
        </Field>
        <Field label="To version">
          {(id) => (
            <select id={id} value={to} onChange={(event) => setTo(Number(event.target.value))}>
              {options}
            </select>
          )}
        </Field>
        <Button
          type="submit"
          kind="primary"
          disabled={from === to}
          title={from === to ? 'Pick two different versions' : undefined}
        >
          Compare
        </Button>
      </div>
    </form>
  );
}
