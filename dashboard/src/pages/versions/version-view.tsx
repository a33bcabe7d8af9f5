import { Link, useParams } from 'wouter';
import { api, unwrap } from '../../api/client';
import { JsonView, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatDate } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { comparePath, loadPrompt, RestoreButton, VersionBadges, versionsPath } from './version-shared';
import './versions.css';

/** One version as it was saved, read-only: template, model, temperature, max tokens and custom parameters. */
export default function VersionView() {
  const {
    id: endpointId,
    promptId,
    versionNumber: versionText,
  } = useParams<{ id: string; promptId: string; versionNumber: string }>();
  const versionNumber = Number(versionText);
  const loaded = useLoad(async () => {
    const [prompt, version] = await Promise.all([
      loadPrompt(promptId),
      unwrap(
        api.GET('/admin/v1/prompts/{id}/versions/{versionNumber}', {
          params: { path: { id: promptId, versionNumber } },
        }),
      ),
    ]);
    return { prompt, version };
  }, [promptId, versionNumber]);
  // Another version's data stays on screen while this one loads: show only this one.
  const shown =
    loaded.data?.version.promptId === promptId && loaded.data.version.versionNumber === versionNumber
      ? loaded.data
      : undefined;
  const prompt = shown?.prompt;
  const version = shown?.version;
  const current = prompt && version && prompt.currentVersion === version.versionNumber;

  return (
    <section>
      <PageHeader
        title={`Version ${versionText}${prompt ? ` of ${prompt.name}` : ''}`}
        back={<Link href={versionsPath(endpointId, promptId)}>← All versions{prompt ? ` of ${prompt.name}` : ''}</Link>}
      >
        {version && version.versionNumber > 1 && (
          <Link
            className="button plain"
            href={comparePath(endpointId, promptId, version.versionNumber - 1, version.versionNumber)}
          >
            Compare with version {version.versionNumber - 1}
          </Link>
        )}
        {prompt && version && !current && (
          <Link
            className="button plain"
            href={comparePath(endpointId, promptId, version.versionNumber, prompt.currentVersion)}
          >
            Compare with the current version ({prompt.currentVersion})
          </Link>
        )}
        {version && <RestoreButton promptId={promptId} versionNumber={version.versionNumber} kind="primary" />}
      </PageHeader>
      <Problems error={loaded.error} />
      {!version ? (
        !loaded.error && <Loading what="the version" />
      ) : (
        <>
          <p>
            <VersionBadges version={version} current={Boolean(current)} />
          </p>
          {version.archived && (
            <p className="muted">
              This version was archived by the plan's history limit: it is kept, and can still be viewed, compared and
              restored.
            </p>
          )}
          <dl className="version-facts">
            <div>
              <dt>Saved</dt>
              <dd>
                <time dateTime={version.createdAt}>{formatDate(version.createdAt)}</time>
              </dd>
            </div>
            <div>
              <dt>Model</dt>
              <dd>
                <code>{version.llmModel}</code>
              </dd>
            </div>
            <div>
              <dt>Temperature</dt>
              <dd>{version.temperature}</dd>
            </div>
            <div>
              <dt>Max tokens</dt>
              <dd>{version.maxTokens.toLocaleString()}</dd>
            </div>
            <div>
              <dt>Change notes</dt>
              <dd>{version.changeNotes ?? <span className="muted">None</span>}</dd>
            </div>
            {version.gate && (
              <div>
                <dt>Promotion gate</dt>
                <dd>
                  {version.gate.forced ? `Promoted anyway: ${version.gate.reason ?? ''}` : 'Passed by'}
                  {version.gate.runId && (
                    <>
                      {' '}
                      <Link href={`/endpoints/${endpointId}/eval-runs/${version.gate.runId}`}>
                        {version.gate.forced ? '(the newest run)' : 'its evaluation run'}
                      </Link>
                    </>
                  )}
                </dd>
              </div>
            )}
          </dl>
          <h2>Template</h2>
          <JsonView value={version.template} label="Liquid template (read-only)" />
          <h2>Custom parameters</h2>
          {Object.keys(version.customParameters).length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <JsonView value={version.customParameters} label="JSON (read-only)" />
          )}
        </>
      )}
    </section>
  );
}
