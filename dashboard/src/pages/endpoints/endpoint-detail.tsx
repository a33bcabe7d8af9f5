import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { api, ApiError, type Schemas, unwrap } from '../../api/client';
import { navigate } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, ConfirmDialog, JsonView, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatDate } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { useAction } from '../../ui/use-action';
import {
  CommandBlock,
  type Endpoint,
  serviceBase,
  VISIBILITY_HINT,
  VISIBILITY_LABEL,
  VisibilityBadge,
} from './endpoint-common';
import { EndpointForm } from './endpoint-form';
import { InputFieldsSection, OutputFieldsSection } from './fields-editor';
import { PermanentDeleteDialog } from './permanent-delete';
import { TrafficSplitSection } from './traffic-split';
import './endpoints.css';
import { allPromptsOf } from '../runner/test-run';
import { EvaluateTab } from '../datasets/evaluate-tab';

type Prompt = Schemas['PromptResponse'];

/** The endpoint page's views: its overview (`/endpoints/:id`) and its evaluation datasets (`/endpoints/:id/evaluate`). */
export type EndpointView = 'overview' | 'evaluate';

/**
 * An endpoint's page: how to call it, its settings, its fields, its prompts, and deleting it; its datasets on the
 * Evaluate tab.
 */
export default function EndpointDetail({ view = 'overview' }: { view?: EndpointView }) {
  const { id = '' } = useParams<{ id: string }>();
  const loaded = useLoad(() => unwrap(api.GET('/admin/v1/endpoints/{id}', { params: { path: { id } } })), [id]);
  const endpoint = loaded.data?.id === id ? loaded.data : undefined;

  if (!endpoint) {
    if (loaded.error instanceof ApiError && (loaded.error.status === 404 || loaded.error.status === 400))
      return <Missing />;
    return (
      <section>
        <PageHeader title="Endpoint" back={<Link href="/endpoints">← Endpoints</Link>} />
        <Problems error={loaded.error} />
        {!loaded.error && <Loading what="the endpoint" />}
      </section>
    );
  }
  return <EndpointPage endpoint={endpoint} reload={loaded.reload} view={view} />;
}

const VIEWS: { view: EndpointView; label: string; href: (id: string) => string }[] = [
  { view: 'overview', label: 'Overview', href: (id) => `/endpoints/${id}` },
  { view: 'evaluate', label: 'Evaluate', href: (id) => `/endpoints/${id}/evaluate` },
];

/** The endpoint page's views as tabs, each a link of its own (so a view can be shared and reloaded). */
function ViewTabs({ endpointId, view }: { endpointId: string; view: EndpointView }) {
  return (
    <nav className="view-tabs" aria-label="Endpoint views">
      <ul>
        {VIEWS.map((item) => (
          <li key={item.view}>
            <Link href={item.href(endpointId)} aria-current={item.view === view ? 'page' : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Missing() {
  return (
    <section>
      <PageHeader title="Endpoint not found" back={<Link href="/endpoints">← Endpoints</Link>} />
      <p>
        No endpoint of your tenant has this address. It may have been deleted: soft-deleted endpoints are listed under{' '}
        <Link href="/endpoints/deleted">Deleted endpoints</Link>, where they can be restored.
      </p>
    </section>
  );
}

function EndpointPage({ endpoint, reload, view }: { endpoint: Endpoint; reload: () => void; view: EndpointView }) {
  const blocked = useWriteBlock();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState<'soft' | 'permanent' | null>(null);
  // Draft and Live prompts in the table, archived ones apart, where they can be opened and unarchived.
  const prompts = useLoad(() => allPromptsOf(endpoint.id), [endpoint.id]);
  const active = prompts.data?.filter((prompt) => prompt.status !== 'Archived');
  const archived = prompts.data?.filter((prompt) => prompt.status === 'Archived');
  const softDelete = useAction();

  async function confirmSoftDelete() {
    const done = await softDelete.run(() =>
      unwrap(api.DELETE('/admin/v1/endpoints/{id}', { params: { path: { id: endpoint.id } } })),
    );
    if (done !== undefined) navigate('/endpoints');
  }

  return (
    <section className="endpoint-detail">
      <PageHeader title={endpoint.name} back={<Link href="/endpoints">← Endpoints</Link>}>
        <Link href={`/endpoints/${endpoint.id}/run`} className="button plain">
          Test runner
        </Link>
        <Button kind="danger" blocked={blocked} onClick={() => setDeleting('soft')}>
          Delete
        </Button>
      </PageHeader>
      <p className="endpoint-summary">
        <code className="endpoint-path">POST {endpoint.path}</code> <VisibilityBadge visibility={endpoint.visibility} />{' '}
        {endpoint.category && <span className="badge">{endpoint.category}</span>}
      </p>
      {endpoint.description && <p className="lead">{endpoint.description}</p>}
      <ViewTabs endpointId={endpoint.id} view={view} />

      {view === 'evaluate' ? (
        <EvaluateTab endpoint={endpoint} onChanged={reload} />
      ) : (
        <div className="endpoint-columns">
          <div className="endpoint-main">
            {editing && (
              <section className="panel" aria-labelledby="settings-title">
                <h2 id="settings-title">Settings</h2>
                <EndpointForm
                  endpoint={endpoint}
                  onCancel={() => setEditing(false)}
                  onSaved={() => {
                    setEditing(false);
                    reload();
                  }}
                />
              </section>
            )}
            <InputFieldsSection endpoint={endpoint} onChanged={reload} />
            <OutputFieldsSection endpoint={endpoint} onChanged={reload} />
            <PromptsSection endpoint={endpoint} prompts={active} archived={archived} error={prompts.error} />
            <TrafficSplitSection
              endpoint={endpoint}
              prompts={prompts.data}
              onChanged={() => {
                reload();
                prompts.reload();
              }}
            />
          </div>

          <div className="endpoint-aside">
            <CallIt endpoint={endpoint} />
            {!editing && (
              <section className="panel" aria-labelledby="settings-title">
                <div className="section-header">
                  <h2 id="settings-title">Settings</h2>
                  <div className="actions">
                    <Button blocked={blocked} onClick={() => setEditing(true)}>
                      Edit settings
                    </Button>
                  </div>
                </div>
                <Settings endpoint={endpoint} />
              </section>
            )}
            <section className="panel danger-zone" aria-labelledby="danger-title">
              <h2 id="danger-title">Delete</h2>
              <p>
                <strong>Delete</strong> takes the endpoint out of service and out of the list, and frees its path; its
                prompts and logs are kept, and it can be restored from{' '}
                <Link href="/endpoints/deleted">Deleted endpoints</Link>.
              </p>
              <p>
                <strong>Delete for good</strong> removes it with its prompts, their versions, its execution logs and its
                cached responses. This cannot be undone.
              </p>
              <div className="form-actions start">
                <Button kind="danger" blocked={blocked} onClick={() => setDeleting('soft')}>
                  Delete
                </Button>
                <Button kind="danger" blocked={blocked} onClick={() => setDeleting('permanent')}>
                  Delete for good…
                </Button>
              </div>
            </section>
          </div>
        </div>
      )}

      <ConfirmDialog
        open={deleting === 'soft'}
        title={`Delete ${endpoint.name}?`}
        actionLabel="Delete endpoint"
        busy={softDelete.busy}
        error={softDelete.error}
        onConfirm={confirmSoftDelete}
        onCancel={() => (setDeleting(null), softDelete.setError(null))}
      >
        <p>
          <code>POST {endpoint.path}</code> stops answering at once and the path becomes free. Its prompts, versions and
          logs are kept: restore it from Deleted endpoints, unless another endpoint has taken the path by then.
        </p>
      </ConfirmDialog>
      <PermanentDeleteDialog
        open={deleting === 'permanent'}
        endpoint={endpoint}
        promptCount={active?.length}
        onCancel={() => setDeleting(null)}
        onDeleted={() => navigate('/endpoints')}
      />
    </section>
  );
}

/**
 * How to call the endpoint, from its operation in the tenant's OpenAPI document: its URL on the tenant's host, a curl
 * command and a TypeScript program (types generated from the document) with a sample body built from its input
 * fields, the operation itself, and where the whole document and its Swagger UI are.
 */
function CallIt({ endpoint }: { endpoint: Endpoint }) {
  const internal = endpoint.visibility === 'Private';
  // Loaded again whenever the endpoint is (a changed field changes the operation and the sample body).
  const loaded = useLoad(
    () => unwrap(api.GET('/admin/v1/endpoints/{id}/openapi', { params: { path: { id: endpoint.id } } })),
    [endpoint],
  );
  const openApi = loaded.data;
  const [showOperation, setShowOperation] = useState(false);
  return (
    <section className="panel" aria-labelledby="call-title">
      <h2 id="call-title">Call it</h2>
      <p>
        <span className="muted">URL</span> <code className="endpoint-url">POST {openApi?.url ?? endpoint.path}</code>
      </p>
      {internal ? (
        <p className="muted">
          {VISIBILITY_LABEL.Private}: endpoint keys are refused, so these calls use an admin key in{' '}
          <code>ADMIN_KEY</code>.
        </p>
      ) : (
        <p className="muted">
          With an endpoint key of your tenant (create one on the <Link href="/keys">Keys</Link> page) in{' '}
          <code>ENDPOINT_KEY</code>. The body holds the input fields
          {endpoint.inputFields.length > 0 ? ', here with their defaults or example values' : ''}.
        </p>
      )}
      <Problems error={loaded.error} />
      {openApi ? (
        <>
          <CommandBlock label="curl" command={openApi.snippets.curl} />
          <CommandBlock label="TypeScript" command={openApi.snippets.typescript} copyLabel="Copy code" wrap={false} />
          <details className="openapi-operation" onToggle={(event) => setShowOperation(event.currentTarget.open)}>
            <summary>
              OpenAPI operation <code>{openApi.operationId}</code>
            </summary>
            {/* Rendered once opened: a closed disclosure's controls take no focus. */}
            {showOperation && <JsonView value={openApi.document} label="OpenAPI 3.1" />}
          </details>
          <p className="muted">
            Every endpoint a key may call: <code>GET /api/v1/openapi.json</code> with the key, and its{' '}
            <a href={`${serviceBase()}/api/v1/docs`}>API documentation</a> (Swagger UI).
          </p>
        </>
      ) : (
        !loaded.error && <Loading what="how to call it" />
      )}
      {!endpoint.defaultPromptId && !endpoint.trafficSplit && (
        <p className="notice" role="note">
          It answers once it has a default prompt: see Prompts.
        </p>
      )}
    </section>
  );
}

function Settings({ endpoint }: { endpoint: Endpoint }) {
  const limit = (value: number | null) => (value === null ? 'No limit' : value.toLocaleString());
  return (
    <dl className="settings">
      <dt>Name</dt>
      <dd>{endpoint.name}</dd>
      <dt>Path</dt>
      <dd>
        <code>{endpoint.path}</code>
      </dd>
      <dt>Description</dt>
      <dd>{endpoint.description || <span className="muted">None</span>}</dd>
      <dt>Category</dt>
      <dd>{endpoint.category ?? <span className="muted">None</span>}</dd>
      <dt>Visibility</dt>
      <dd>
        {VISIBILITY_LABEL[endpoint.visibility]} <span className="muted">— {VISIBILITY_HINT[endpoint.visibility]}</span>
      </dd>
      <dt>Cache</dt>
      <dd>
        {endpoint.cacheEnabled
          ? `On: identical requests are answered from the cache for ${endpoint.cacheDurationSeconds.toLocaleString()} seconds`
          : 'Off'}
      </dd>
      <dt>Rate limits per key</dt>
      <dd>
        {limit(endpoint.rateLimitPerMinute)} per minute, {limit(endpoint.rateLimitPerHour)} per hour,{' '}
        {limit(endpoint.rateLimitPerDay)} per day
      </dd>
      <dt>Timeout</dt>
      <dd>{endpoint.timeoutSeconds} seconds</dd>
      <dt>Created</dt>
      <dd>{formatDate(endpoint.createdAt)}</dd>
      <dt>Last changed</dt>
      <dd>{formatDate(endpoint.updatedAt)}</dd>
    </dl>
  );
}

const STATUS_CLASS: Record<Prompt['status'], string> = { Draft: 'draft', Live: 'live', Archived: 'archived' };

/** The endpoint's prompts at a glance, and whether it has the default it needs to answer. */
function PromptsSection({
  endpoint,
  prompts,
  archived,
  error,
}: {
  endpoint: Endpoint;
  prompts: Prompt[] | undefined;
  archived: Prompt[] | undefined;
  error: unknown;
}) {
  const blocked = useWriteBlock();
  const hasLive = prompts?.some((prompt) => prompt.status === 'Live') ?? false;
  return (
    <section className="panel" aria-labelledby="prompts-title">
      <div className="section-header">
        <h2 id="prompts-title">Prompts</h2>
        <div className="actions">
          <Link href={`/endpoints/${endpoint.id}/run`} className="button plain">
            Test runner
          </Link>
          {blocked ? (
            <Button blocked={blocked}>New prompt</Button>
          ) : (
            <Link href={`/endpoints/${endpoint.id}/prompts/new`} className="button primary">
              New prompt
            </Link>
          )}
        </div>
      </div>
      {!endpoint.defaultPromptId && !endpoint.trafficSplit && prompts !== undefined && (
        <div className="notice no-default" role="note">
          <strong>No default prompt: calls to this endpoint are refused.</strong>{' '}
          {prompts.length === 0
            ? 'Create a prompt, try it in the test runner, promote it to Live, then set it as the default.'
            : hasLive
              ? 'Open a Live prompt and set it as the default.'
              : 'Open a prompt, promote it to Live, then set it as the default.'}
        </div>
      )}
      <Problems error={error} />
      {prompts === undefined ? (
        !error && <Loading what="prompts" />
      ) : prompts.length === 0 ? (
        <p className="empty">{archived?.length ? 'No Draft or Live prompt.' : 'No prompts yet.'}</p>
      ) : (
        <PromptTable endpoint={endpoint} prompts={prompts} caption="Prompts" />
      )}
      {archived !== undefined && archived.length > 0 && (
        <details className="archived-prompts">
          <summary>Archived prompts ({archived.length})</summary>
          <p className="muted">
            Out of use and kept with their history: open one to read it, compare its versions or unarchive it.
          </p>
          <PromptTable endpoint={endpoint} prompts={archived} caption="Archived prompts" />
        </details>
      )}
    </section>
  );
}

function PromptTable({ endpoint, prompts, caption }: { endpoint: Endpoint; prompts: Prompt[]; caption: string }) {
  const endpointId = endpoint.id;
  const weightOf = (promptId: string) =>
    endpoint.trafficSplit?.variants.find((variant) => variant.promptId === promptId)?.weight;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Version</th>
            <th scope="col">Model</th>
            <th scope="col">Changed</th>
          </tr>
        </thead>
        <tbody>
          {prompts.map((prompt) => (
            <tr key={prompt.id}>
              <td>
                <Link href={`/endpoints/${endpointId}/prompts/${prompt.id}`}>{prompt.name}</Link>{' '}
                {prompt.isDefault && <span className="badge default">Default</span>}{' '}
                {weightOf(prompt.id) !== undefined && (
                  <span className="badge split">Split {weightOf(prompt.id)} %</span>
                )}
              </td>
              <td>
                <span className={`badge ${STATUS_CLASS[prompt.status]}`}>{prompt.status}</span>
              </td>
              <td>v{prompt.currentVersion}</td>
              <td>
                <code>{prompt.llmModel}</code>
              </td>
              <td>{formatDate(prompt.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
