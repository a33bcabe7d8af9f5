import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button, Field, JsonView } from '../../ui/controls';
import { initialNotes, initialValues, type InputValues, inputsOf, RunnerInputs } from './runner-inputs';
import {
  type Endpoint,
  type Prompt,
  type RunTarget,
  runTest,
  streamTestRun,
  type StreamedPiece,
  type TestRun,
  type UnsavedPrompt,
} from './test-run';
import { RunSnippets } from './run-snippets';
import { TestRunFailure } from './test-run-failure';
import { TestRunResult } from './test-run-result';
import './runner.css';

const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The test runner: a form built from the endpoint's input fields, the prompt to run (Draft or Live; an Archived prompt
 * is listed but must be unarchived first, as the service refuses to run it), Run (or Ctrl/Cmd+Enter), then the
 * answer. Test runs change nothing, so ReadOnly keys may run them too.
 *
 * With `fixedPromptId` it runs that prompt only (beside the editor); otherwise it offers every prompt of `prompts`.
 * With `unsaved` (the editor's changes, when there are any) it can also run the editor's text as it stands, unsaved.
 */
export function TestRunner({
  endpoint,
  prompts,
  promptId,
  fixedPromptId,
  initialInputs,
  onPromptChange,
  note,
  wide = false,
  unsaved = null,
}: {
  endpoint: Endpoint;
  prompts: Prompt[];
  promptId?: string | null;
  fixedPromptId?: string;
  initialInputs?: Record<string, unknown> | null;
  onPromptChange?: (promptId: string) => void;
  /** Shown above the Run button (e.g. that the saved version runs, not unsaved edits). */
  note?: ReactNode;
  /** The form and the answer side by side (a page of its own) rather than one under the other (beside the editor). */
  wide?: boolean;
  /** The editor's unsaved changes, ready to run, or why they cannot run as typed (`problem`). */
  unsaved?: { prompt: UnsavedPrompt; problem: null } | { prompt: null; problem: string } | null;
}) {
  const fields = endpoint.inputFields;
  const [values, setValues] = useState<InputValues>(() => initialValues(fields, initialInputs));
  const [notes] = useState(() => initialNotes(fields, initialInputs));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<string>(
    () => fixedPromptId ?? pickPrompt(prompts, promptId ?? null, endpoint.defaultPromptId),
  );
  const [running, setRunning] = useState(false);
  const [run, setRun] = useState<{ answer: TestRun; inputs: Record<string, unknown> } | null>(null);
  const [failure, setFailure] = useState<{ error: unknown; unsaved: boolean } | null>(null);
  /** What has come of the answer so far, while a run streams. */
  const [piece, setPiece] = useState<StreamedPiece | null>(null);
  const generation = useRef(0);
  const titleId = useId();

  // A prompt asked for from outside (a new link) replaces the selection.
  useEffect(() => {
    const wanted = fixedPromptId ?? promptId;
    if (wanted && prompts.some((prompt) => prompt.id === wanted)) setSelected(wanted);
  }, [fixedPromptId, promptId, prompts]);

  const current = prompts.find((prompt) => prompt.id === selected) ?? null;
  const archived = current?.status === 'Archived';

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (running || !selected || archived) return;
    await start({ promptId: selected });
  }

  async function runUnsaved() {
    if (running || !unsaved?.prompt) return;
    await start({ prompt: unsaved.prompt });
  }

  async function start(target: RunTarget) {
    const { inputs, errors: problems } = inputsOf(fields, values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const mine = ++generation.current;
    setRunning(true);
    setFailure(null);
    setPiece(null);
    setRun(null);
    try {
      // An image endpoint answers once its images are made: it cannot stream.
      const answer = endpoint.outputFields.some((field) => field.dataType === 'image')
        ? await runTest(endpoint.id, target, inputs)
        : await streamTestRun(endpoint.id, target, inputs, (next) => {
            if (mine === generation.current) setPiece(next);
          });
      if (mine === generation.current) setRun({ answer, inputs });
    } catch (error) {
      if (mine === generation.current) {
        setRun(null);
        setFailure({ error, unsaved: 'prompt' in target });
      }
    } finally {
      if (mine === generation.current) {
        setRunning(false);
        setPiece(null);
      }
    }
  }

  function shortcut(event: KeyboardEvent) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  }

  return (
    <section className={`test-runner ${wide ? 'wide' : ''}`} aria-labelledby={titleId}>
      <h2 id={titleId}>Test run</h2>
      <div className="runner-columns">
        <form onSubmit={submit} onKeyDown={shortcut} noValidate>
          {!fixedPromptId && (
            <Field label="Prompt" hint="Draft and Live prompts run here; an archived prompt must be unarchived first.">
              {(id) => (
                <select
                  id={id}
                  value={selected}
                  onChange={(event) => {
                    setSelected(event.target.value);
                    onPromptChange?.(event.target.value);
                  }}
                >
                  {prompts.map((prompt) => (
                    <option
                      key={prompt.id}
                      value={prompt.id}
                      disabled={prompt.status === 'Archived' && prompt.id !== selected}
                    >
                      {promptLabel(prompt)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <fieldset>
            <legend>Inputs</legend>
            <RunnerInputs
              fields={fields}
              values={values}
              errors={errors}
              notes={notes}
              onChange={(name, value) => setValues((previous) => ({ ...previous, [name]: value }))}
            />
          </fieldset>
          {note}
          {archived && (
            <p className="notice" role="note">
              <strong>{current.name}</strong> is Archived, so it cannot run: unarchive it on its page first.
            </p>
          )}
          <div className="run-bar">
            <Button
              type="submit"
              kind="primary"
              disabled={running || !selected || archived}
              aria-keyshortcuts={IS_MAC ? 'Meta+Enter' : 'Control+Enter'}
            >
              {running ? 'Running…' : 'Run'}
            </Button>
            {unsaved && (
              <Button onClick={() => void runUnsaved()} disabled={running} blocked={unsaved.problem}>
                Run unsaved changes
              </Button>
            )}
            <span className="muted">
              or <kbd>{IS_MAC ? '⌘' : 'Ctrl'}</kbd>+<kbd>Enter</kbd>
            </span>
            <span role="status" className="visually-hidden">
              {running ? 'Running the prompt…' : run ? 'The run finished.' : failure ? 'The run failed.' : ''}
            </span>
          </div>
        </form>
        <div className="runner-answer">
          {running && piece && <StreamingAnswer piece={piece} />}
          {failure && <TestRunFailure error={failure.error} unsaved={failure.unsaved} />}
          {run && (
            <TestRunResult
              run={run.answer}
              promptName={prompts.find((prompt) => prompt.id === run.answer.promptId)?.name ?? current?.name ?? null}
              endpointId={endpoint.id}
              inputs={run.inputs}
            />
          )}
          {run && (
            <RunSnippets
              endpoint={endpoint}
              prompt={prompts.find((prompt) => prompt.id === run.answer.promptId) ?? null}
              unsaved={run.answer.unsaved}
              inputs={run.inputs}
            />
          )}
          {wide && !run && !failure && !piece && (
            <p className="muted runner-waiting">
              The answer shows here: the output, the rendered prompt, tokens, cost, latency and its log row; for a
              failed run, the model's raw answer.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}

/** The answer as it streams in: the text so far, or the object so far (checked against the output fields at the end). */
function StreamingAnswer({ piece }: { piece: StreamedPiece }) {
  const titleId = useId();
  return (
    <section className="test-run-streaming" aria-labelledby={titleId} aria-busy="true">
      <h3 id={titleId}>Answering…</h3>
      {'text' in piece ? (
        <JsonView value={piece.text} label="Text so far" />
      ) : (
        <JsonView value={piece.output} label="The object so far (not yet checked)" />
      )}
    </section>
  );
}

/** The prompt asked for, else the endpoint's default, else the first one that can run, else the first one listed. */
function pickPrompt(prompts: Prompt[], wanted: string | null, defaultPromptId: string | null): string {
  if (wanted && prompts.some((prompt) => prompt.id === wanted)) return wanted;
  if (defaultPromptId && prompts.some((prompt) => prompt.id === defaultPromptId)) return defaultPromptId;
  return (prompts.find((prompt) => prompt.status !== 'Archived') ?? prompts[0])?.id ?? '';
}

export function promptLabel(prompt: Prompt): string {
  const archived = prompt.status === 'Archived' ? ' (unarchive it to run it)' : '';
  return `${prompt.name} — ${prompt.status}${prompt.isDefault ? ', default' : ''}, v${prompt.currentVersion}${archived}`;
}
