import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'wouter';
import { api, unwrap } from '../../api/client';
import { navigate, useLeaveGuard } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, Field, Loading, PageHeader, Problems } from '../../ui/controls';
import { useLoad } from '../../ui/use-load';
import { type Endpoint, endpointOf } from '../runner/test-run';
import { needsOf } from './model-choice';
import { defaultModel } from './model-picker';
import { contentOf, draftProblems, type Model, type PromptDraft } from './prompt-draft';
import { PromptFields, splitServiceMessages } from './prompt-form';
import { bounds } from '../../api/bounds';

/** A new prompt for the endpoint: name, template, model and settings; it is created as a Draft (version 1). */
export default function PromptCreate() {
  const { id } = useParams<{ id: string }>();
  const loaded = useLoad(async () => {
    const [endpoint, models] = await Promise.all([endpointOf(id), unwrap(api.GET('/admin/v1/prompts/models'))]);
    return { endpoint, models };
  }, [id]);
  if (!loaded.data || loaded.data.endpoint.id !== id) {
    return (
      <section>
        <PageHeader title="New prompt" back={<Link href={`/endpoints/${id}`}>← Endpoint</Link>} />
        <Problems error={loaded.error} />
        {!loaded.error && <Loading what="the endpoint" />}
      </section>
    );
  }
  return <CreateForm endpoint={loaded.data.endpoint} models={loaded.data.models} />;
}

function CreateForm({ endpoint, models }: { endpoint: Endpoint; models: Model[] }) {
  const writeBlock = useWriteBlock();
  const [draft, setDraft] = useState<PromptDraft>(() => ({
    name: '',
    template: '',
    llmModel: defaultModel(models, needsOf(endpoint)),
    temperature: 0.7,
    maxTokens: '1024',
    customParameters: '{}',
    retries: 0,
    fallbackModels: [],
  }));
  const [changeNotes, setChangeNotes] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const { bySetting, rest } = splitServiceMessages(error);
  useLeaveGuard(
    draft.name.trim() || draft.template.trim()
      ? 'This new prompt is not created yet. Leave the page and lose it?'
      : null,
  );

  async function create(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    if (Object.keys(draftProblems(draft)).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const prompt = await unwrap(
        api.POST('/admin/v1/prompts', {
          body: {
            endpointId: endpoint.id,
            ...contentOf(draft),
            ...(changeNotes.trim() ? { changeNotes: changeNotes.trim() } : {}),
          },
        }),
      );
      navigate(`/endpoints/${endpoint.id}/prompts/${prompt.id}`, { force: true });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <section className="prompt-create">
      <PageHeader
        title="New prompt"
        back={
          <Link href={`/endpoints/${endpoint.id}`}>
            ← {endpoint.name} <span className="muted">({endpoint.path})</span>
          </Link>
        }
      />
      <p className="muted">
        A new prompt starts as a Draft at version 1: try it in the test runner, then promote it to Live and make it the
        endpoint's default.
      </p>
      <form onSubmit={create} noValidate className="prompt-create-form">
        <PromptFields
          endpoint={endpoint}
          models={models}
          draft={draft}
          onChange={(patch) => setDraft((previous) => ({ ...previous, ...patch }))}
          serviceMessages={bySetting}
          showProblems={attempted}
        />
        <Field label="Change note" hint="Optional; recorded on version 1.">
          {(id) => (
            <input
              id={id}
              value={changeNotes}
              maxLength={bounds.CreatePromptDto.changeNotes.maxLength}
              onChange={(event) => setChangeNotes(event.target.value)}
            />
          )}
        </Field>
        <Problems error={rest} />
        <div className="inline">
          <Button type="submit" kind="primary" blocked={writeBlock} disabled={busy}>
            {busy ? 'Creating…' : 'Create prompt'}
          </Button>
          <Link href={`/endpoints/${endpoint.id}`}>Cancel</Link>
        </div>
      </form>
    </section>
  );
}
