import { Link, useParams } from 'wouter';
import { useQuery } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, Loading, PageHeader, Problems } from '../../ui/controls';
import { useLoad } from '../../ui/use-load';
import { RunnerTabs } from './runner-tabs';
import { allPromptsOf, endpointOf, isRecord } from './test-run';
import { TestRunner } from './test-runner';

/**
 * The test runner on its own page. `?prompt=<id>` preselects a prompt and `?inputs=<json>` fills the form (a log row's
 * "Run again"); the selected prompt is kept in the link so a run can be shared.
 */
export default function TestRunnerPage() {
  const { id } = useParams<{ id: string }>();
  const [query, setQuery] = useQuery();
  const writeBlock = useWriteBlock();
  const loaded = useLoad(async () => {
    const [endpoint, prompts] = await Promise.all([endpointOf(id), allPromptsOf(id)]);
    return { endpoint, prompts };
  }, [id]);
  const inputsParam = query.get('inputs');
  const initialInputs = parseInputs(inputsParam);

  // Until another endpoint's data arrives, the previous one is not shown as this one.
  if (!loaded.data || loaded.data.endpoint.id !== id) {
    return (
      <section>
        <PageHeader title="Test runner" back={<Link href={`/endpoints/${id}`}>← Endpoint</Link>} />
        <Problems error={loaded.error} />
        {!loaded.error && <Loading what="the endpoint" />}
      </section>
    );
  }
  const { endpoint, prompts } = loaded.data;
  return (
    <section className="runner-page">
      <PageHeader
        title={`Test runner: ${endpoint.name}`}
        back={<Link href={`/endpoints/${id}`}>← {endpoint.name}</Link>}
      >
        {writeBlock ? (
          <Button blocked={writeBlock}>New prompt</Button>
        ) : (
          <Link className="button plain" href={`/endpoints/${id}/prompts/new`}>
            New prompt
          </Link>
        )}
      </PageHeader>
      <RunnerTabs endpointId={id} view="single" promptId={query.get('prompt')} />
      <p className="muted">
        Runs a prompt of <code>{endpoint.path}</code> with the inputs below, Draft prompts included (archived ones must
        be unarchived first). Each run calls the model, is never answered from the cache, and is logged with source
        TestPage.
      </p>
      {inputsParam !== null && initialInputs === null && (
        <p className="problems" role="alert">
          The inputs in the link are not a JSON object: the form starts from the fields' defaults.
        </p>
      )}
      {prompts.length === 0 ? (
        <div className="empty panel">
          <p>This endpoint has no prompt yet: create one to run it.</p>
          {writeBlock ? (
            <p className="muted">{writeBlock}</p>
          ) : (
            <Link href={`/endpoints/${id}/prompts/new`}>Create a prompt</Link>
          )}
        </div>
      ) : (
        <div className="panel">
          <TestRunner
            key={`${endpoint.id} ${inputsParam ?? ''}`}
            endpoint={endpoint}
            prompts={prompts}
            promptId={query.get('prompt')}
            initialInputs={initialInputs}
            onPromptChange={(prompt) => setQuery({ prompt, inputs: inputsParam })}
            wide
          />
        </div>
      )}
    </section>
  );
}

function parseInputs(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
