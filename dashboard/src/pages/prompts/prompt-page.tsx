import { useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'wouter';
import { api, unwrap } from '../../api/client';
import { navigate, useLeaveGuard } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, Field, Loading, messageOf, PageHeader, Problems } from '../../ui/controls';
import { useLoad } from '../../ui/use-load';
import { type Endpoint, endpointOf } from '../runner/test-run';
import type { UnsavedPrompt } from '../runner/test-run';
import { TestRunner } from '../runner/test-runner';
import { DraftDiff } from './draft-diff';
import { forgetDraft, keepDraft, keptDraftOf } from './kept-draft';
import { liveSaveWarning, liveShareOf } from './live-save';
import { PromptActions } from './prompt-actions';
import { RunAgainstDefault } from '../eval-runs/run-against-default';
import {
  changesOf,
  contentOf,
  draftOf,
  draftProblems,
  type Model,
  type Prompt,
  type PromptDraft,
  updateOf,
} from './prompt-draft';
import { PromptFields, splitServiceMessages } from './prompt-form';
import { bounds } from '../../api/bounds';

/** The prompt's page, the playground: the editor and its settings beside the test runner. */
export default function PromptPage() {
  const { id, promptId } = useParams<{ id: string; promptId: string }>();
  const loaded = useLoad(async () => {
    const [prompt, endpoint, models] = await Promise.all([
      unwrap(api.GET('/admin/v1/prompts/{id}', { params: { path: { id: promptId } } })),
      endpointOf(id),
      unwrap(api.GET('/admin/v1/prompts/models')),
    ]);
    return { prompt, endpoint, models };
  }, [id, promptId]);
  // Until another prompt's data arrives, the previous one is not shown as this one.
  if (!loaded.data || loaded.data.prompt.id !== promptId) {
    return (
      <section>
        <PageHeader title="Prompt" back={<Link href={`/endpoints/${id}`}>← Endpoint</Link>} />
        <Problems error={loaded.error} />
        {!loaded.error && <Loading what="the prompt" />}
      </section>
    );
  }
  return (
    <Playground
      key={loaded.data.prompt.id}
      endpoint={loaded.data.endpoint}
      models={loaded.data.models}
      initial={loaded.data.prompt}
    />
  );
}

export function StatusBadges({ prompt }: { prompt: Prompt }) {
  return (
    <>
      <span className={`badge ${prompt.status.toLowerCase()}`}>{prompt.status}</span>
      {prompt.isDefault && <span className="badge default">Default</span>}
    </>
  );
}

function Playground({ endpoint, models, initial }: { endpoint: Endpoint; models: Model[]; initial: Prompt }) {
  const writeBlock = useWriteBlock();
  const [saved, setSaved] = useState(initial);
  // Changes left unsaved on an earlier visit come back, until saved or discarded.
  const [kept] = useState(() => keptDraftOf(initial.id));
  const [draft, setDraft] = useState<PromptDraft>(() => kept?.draft ?? draftOf(initial));
  const [reviewing, setReviewing] = useState(false);
  const [changeNotes, setChangeNotes] = useState('');
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [savedMessage, setSavedMessage] = useState<string | null>(null);
  const changesTitle = useId();
  const changesHeading = useRef<HTMLHeadingElement>(null);
  const [jump, setJump] = useState(0);
  const dirty = changesOf(saved, draft).any;
  // Unsaved changes are kept in the browser, and leaving the page with them asks first.
  useEffect(() => {
    if (dirty) keepDraft(saved.id, { baseVersion: saved.currentVersion, draft });
    else forgetDraft(saved.id);
  }, [saved, draft, dirty]);
  useLeaveGuard(dirty ? 'This prompt has unsaved changes. Leave the page? They stay kept in this browser.' : null);
  const restoredNote =
    kept && dirty
      ? kept.baseVersion === saved.currentVersion
        ? 'Your unsaved changes from an earlier visit were restored.'
        : `Your unsaved changes, made on version ${kept.baseVersion}, were restored; the prompt is at version ${saved.currentVersion} now, so review them before saving.`
      : null;
  useEffect(() => {
    if (jump === 0) return;
    changesHeading.current?.scrollIntoView({ block: 'start' });
    changesHeading.current?.focus();
  }, [jump]);
  const changes = changesOf(saved, draft);
  const problems = Object.values(draftProblems(draft));
  const { bySetting, rest } = splitServiceMessages(saveError);
  const base = `/endpoints/${endpoint.id}/prompts/${saved.id}`;

  function edit(patch: Partial<PromptDraft>) {
    setDraft((previous) => ({ ...previous, ...patch }));
    setSavedMessage(null);
  }

  async function save() {
    setSaving(true);
    setSaveError(null);
    try {
      const before = saved.currentVersion;
      const updated = await unwrap(
        api.PUT('/admin/v1/prompts/{id}', {
          params: { path: { id: saved.id } },
          body: updateOf(saved, draft, changeNotes),
        }),
      );
      setSaved(updated);
      setDraft(draftOf(updated));
      setReviewing(false);
      setChangeNotes('');
      setSavedMessage(
        updated.currentVersion > before
          ? `Saved as version ${updated.currentVersion}.`
          : `Saved. The content is unchanged, so it stays version ${updated.currentVersion}.`,
      );
    } catch (error) {
      setSaveError(error);
    } finally {
      setSaving(false);
    }
  }

  /**
   * The changes saved as a new Draft instead: a duplicate of the prompt (a Draft named `<name> (copy)`) that gets them
   * as its version 2, then its page. The name stays the copy's, so it cannot clash with this prompt's.
   */
  async function saveAsDraft() {
    setSaving(true);
    setSaveError(null);
    try {
      const copy = await unwrap(api.POST('/admin/v1/prompts/{id}/duplicate', { params: { path: { id: saved.id } } }));
      const { name: _name, ...content } = updateOf(saved, draft, changeNotes);
      try {
        await unwrap(api.PUT('/admin/v1/prompts/{id}', { params: { path: { id: copy.id } }, body: content }));
      } catch (error) {
        throw new Error(
          `The Draft "${copy.name}" was created, but the changes could not be saved to it: ${messageOf(error)}`,
        );
      }
      forgetDraft(saved.id);
      navigate(`/endpoints/${copy.endpointId}/prompts/${copy.id}`, { force: true });
    } catch (error) {
      setSaveError(error);
      setSaving(false);
    }
  }

  const liveWarning =
    saved.status === 'Live' && changes.newVersion ? liveSaveWarning(liveShareOf(endpoint, saved.id), saved.slug) : null;
  const saveBlock = writeBlock ?? (problems.length > 0 ? `Fix the settings first: ${problems.join('; ')}.` : null);
  return (
    <section className="prompt-page">
      <PageHeader
        title={saved.name}
        back={
          <Link href={`/endpoints/${endpoint.id}`}>
            ← {endpoint.name} <span className="muted">({endpoint.path})</span>
          </Link>
        }
      >
        <Link className="button plain" href={`${base}/versions`}>
          Versions
        </Link>
        <Link className="button plain" href={`/endpoints/${endpoint.id}/run?prompt=${saved.id}`}>
          Open in the test runner
        </Link>
      </PageHeader>
      <div className="prompt-status">
        <StatusBadges prompt={saved} />
        <span className="badge">Version {saved.currentVersion}</span>
        <span className="muted mono">slug {saved.slug}</span>
        {changes.any && (
          <>
            <span className="badge unsaved">Unsaved changes</span>
            <Button
              onClick={() => {
                setReviewing(true);
                setJump((n) => n + 1);
              }}
            >
              Review and save
            </Button>
          </>
        )}
      </div>
      <PromptActions prompt={saved} writeBlock={writeBlock} onChanged={setSaved} gate={endpoint.promotionGate} />
      <RunAgainstDefault key={`${saved.id}:${saved.currentVersion}`} prompt={saved} />

      <div className="playground">
        <div className="playground-editor">
          <PromptFields
            endpoint={endpoint}
            models={models}
            draft={draft}
            onChange={edit}
            serviceMessages={bySetting}
            showProblems
          />
          <section aria-labelledby={changesTitle} className="prompt-save panel">
            <h2 id={changesTitle} ref={changesHeading} tabIndex={-1}>
              Changes
            </h2>
            {restoredNote && (
              <p className="notice" role="note">
                {restoredNote}
              </p>
            )}
            {!changes.any ? (
              <p className="muted">{savedMessage ?? `No unsaved changes: this is version ${saved.currentVersion}.`}</p>
            ) : (
              <>
                <p>
                  <strong>Unsaved changes</strong>
                  {changes.newVersion
                    ? ` — saving creates version ${saved.currentVersion + 1}.`
                    : ' — only the name changed, so saving keeps the version number.'}
                </p>
                {!reviewing ? (
                  <Button kind="primary" onClick={() => setReviewing(true)}>
                    Review changes
                  </Button>
                ) : (
                  <>
                    <DraftDiff saved={saved.template} draft={draft.template} changes={changes} />
                    <Field label="Change note" hint="Optional; recorded on the new version.">
                      {(id) => (
                        <input
                          id={id}
                          value={changeNotes}
                          maxLength={bounds.CreatePromptDto.changeNotes.maxLength}
                          onChange={(event) => setChangeNotes(event.target.value)}
                        />
                      )}
                    </Field>
                    {changes.name && (
                      <p className="notice rename" role="note">
                        Renaming changes the slug (now <code>{saved.slug}</code>) along with the name. Calls that select
                        this prompt with <code>?prompt=</code> by its old name or slug keep reaching it, until another
                        prompt of the endpoint takes that name or slug.
                      </p>
                    )}
                    {liveWarning && (
                      <p className="notice live-save" role="note">
                        {liveWarning} To try the change first, save it as a new Draft instead: a copy of this prompt
                        that serves nothing until you promote it.
                      </p>
                    )}
                    <div className="inline">
                      <Button kind="primary" blocked={saveBlock} disabled={saving} onClick={save}>
                        {saving
                          ? 'Saving…'
                          : changes.newVersion
                            ? `Save as version ${saved.currentVersion + 1}${liveWarning ? ' (live now)' : ''}`
                            : 'Save the name'}
                      </Button>
                      {liveWarning && (
                        <Button blocked={saveBlock} disabled={saving} onClick={saveAsDraft}>
                          Save as a new Draft
                        </Button>
                      )}
                      <Button onClick={() => setReviewing(false)}>Hide changes</Button>
                      <Button
                        onClick={() => {
                          setDraft(draftOf(saved));
                          setReviewing(false);
                          setSaveError(null);
                        }}
                      >
                        Discard changes
                      </Button>
                    </div>
                    {saveBlock && <p className="muted fine-print">{saveBlock}</p>}
                  </>
                )}
              </>
            )}
            <p role="status" className="visually-hidden">
              {savedMessage}
            </p>
            <Problems error={rest} />
          </section>
        </div>
        <div className="playground-runner panel">
          <TestRunner
            endpoint={endpoint}
            prompts={[saved]}
            fixedPromptId={saved.id}
            unsaved={changes.newVersion ? unsavedRunOf(draft) : null}
            note={
              <p className="muted fine-print">
                {changes.newVersion
                  ? `Run runs the saved version ${saved.currentVersion} (${saved.status}); Run unsaved changes runs the editor's text and settings as they stand, without saving them.`
                  : `Runs the saved version ${saved.currentVersion} (${saved.status}).`}
              </p>
            }
          />
        </div>
      </div>
    </section>
  );
}

/** The editor's content as a test run of unsaved text takes it, or the first reason it cannot run as typed. */
function unsavedRunOf(
  draft: PromptDraft,
): { prompt: UnsavedPrompt; problem: null } | { prompt: null; problem: string } {
  const { name: _name, ...problems } = draftProblems(draft);
  const problem = Object.values(problems)[0];
  if (problem) return { prompt: null, problem: `Fix the editor first: ${problem}` };
  const { name: _unused, ...content } = contentOf(draft);
  return { prompt: content, problem: null };
}
