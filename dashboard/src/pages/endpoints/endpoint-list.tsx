import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrapPage } from '../../api/client';
import { navigate, useQuery } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, Field, Loading, PageHeader, Pager, Problems } from '../../ui/controls';
import { useLoad } from '../../ui/use-load';
import {
  CommandBlock,
  curlFor,
  type Endpoint,
  useCategories,
  type Visibility,
  VISIBILITY_HINT,
  VISIBILITY_LABEL,
  VisibilityBadge,
} from './endpoint-common';
import './endpoints.css';

/** Rows per page of the list. */
const PAGE_SIZE = 25;

const isVisibility = (value: string | null): value is Visibility => value === 'Public' || value === 'Private';

/**
 * The tenant's endpoints, filtered by name, visibility and category, paged as the API pages them. The filters and the
 * page live in the route's query, so a filtered view is a link to share.
 */
export function EndpointList() {
  const [query, setQuery] = useQuery();
  const search = query.get('search') ?? '';
  const visibilityParam = query.get('visibility');
  const visibility = isVisibility(visibilityParam) ? visibilityParam : undefined;
  const category = query.get('category') ?? '';
  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
  const filtered = search !== '' || visibility !== undefined || category !== '';
  const blocked = useWriteBlock();
  const categories = useCategories();

  // The search box updates the route once typing pauses.
  const [typed, setTyped] = useState(search);
  useEffect(() => setTyped(search), [search]);
  useEffect(() => {
    if (typed === search) return;
    const timer = setTimeout(() => setQuery({ search: typed, visibility, category, page: undefined }), 300);
    return () => clearTimeout(timer);
    // Only typing and the filters start the pause; a route change (search) resets the box above instead.
  }, [typed, visibility, category]);

  const endpoints = useLoad(
    () =>
      unwrapPage(
        api.GET('/admin/v1/endpoints', {
          params: {
            query: {
              search: search || undefined,
              visibility,
              category: category || undefined,
              page,
              pageSize: PAGE_SIZE,
            },
          },
        }),
      ),
    [search, visibility, category, page],
  );

  const categoryOptions = category && !categories.includes(category) ? [...categories, category] : categories;

  return (
    <section className="endpoint-list">
      <PageHeader title="Endpoints">
        <Link href="/endpoints/deleted" className="button plain">
          Deleted endpoints
        </Link>
        <Button kind="primary" blocked={blocked} onClick={() => navigate('/endpoints/new')}>
          New endpoint
        </Button>
      </PageHeader>

      <form
        className="filters"
        role="search"
        aria-label="Filter endpoints"
        onSubmit={(event) => event.preventDefault()}
      >
        <Field label="Search by name">
          {(id) => (
            <input
              id={id}
              type="search"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
            />
          )}
        </Field>
        <Field label="Visibility">
          {(id) => (
            <select
              id={id}
              value={visibility ?? ''}
              onChange={(event) => setQuery({ search, visibility: event.target.value, category, page: undefined })}
            >
              <option value="">All</option>
              <option value="Public">{VISIBILITY_LABEL.Public}</option>
              <option value="Private">{VISIBILITY_LABEL.Private}</option>
            </select>
          )}
        </Field>
        <Field label="Category">
          {(id) => (
            <select
              id={id}
              value={category}
              onChange={(event) => setQuery({ search, visibility, category: event.target.value, page: undefined })}
            >
              <option value="">All</option>
              {categoryOptions.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {filtered && (
          <Button
            onClick={() => {
              setTyped('');
              setQuery({});
            }}
          >
            Clear filters
          </Button>
        )}
      </form>
      {visibility === 'Private' && (
        <p className="muted">
          {VISIBILITY_LABEL.Private}: {VISIBILITY_HINT.Private}.
        </p>
      )}

      <Problems error={endpoints.error} />
      {!endpoints.data ? (
        !endpoints.error && <Loading what="endpoints" />
      ) : endpoints.data.items.length === 0 ? (
        filtered || page > 1 ? (
          <p className="empty">
            No endpoint matches these filters.{' '}
            <Link href="/endpoints" onClick={() => setTyped('')}>
              Show every endpoint
            </Link>
          </p>
        ) : (
          <FirstSteps blocked={blocked} />
        )
      ) : (
        <>
          <EndpointTable endpoints={endpoints.data.items} busy={endpoints.loading} />
          <Pager
            page={page}
            hasNextPage={endpoints.data.hasNextPage}
            onPage={(next) => setQuery({ search, visibility, category, page: next })}
          />
        </>
      )}
    </section>
  );
}

function EndpointTable({ endpoints, busy }: { endpoints: Endpoint[]; busy: boolean }) {
  return (
    <div className="table-wrap">
      <table aria-busy={busy}>
        <caption className="visually-hidden">Endpoints</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Path</th>
            <th scope="col">Visibility</th>
            <th scope="col">Category</th>
            <th scope="col">Fields</th>
            <th scope="col">Default prompt</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id}>
              <td>
                <Link href={`/endpoints/${endpoint.id}`} className="endpoint-name">
                  {endpoint.name}
                </Link>
                {endpoint.description && <div className="muted small clamp">{endpoint.description}</div>}
              </td>
              <td>
                <code>POST {endpoint.path}</code>
              </td>
              <td>
                <VisibilityBadge visibility={endpoint.visibility} />
              </td>
              <td>{endpoint.category ?? <span className="muted">—</span>}</td>
              <td className="small">
                {endpoint.inputFields.length} in, {endpoint.outputFields.length} out
              </td>
              <td>
                {endpoint.defaultPromptId ? (
                  <span className="badge default">Has a default</span>
                ) : (
                  <span className="badge error">None: not callable yet</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The first visit: what an endpoint is and the three steps to a working one. */
function FirstSteps({ blocked }: { blocked: string | null }) {
  return (
    <div className="panel first-steps">
      <h2>Create your first endpoint</h2>
      <p>An endpoint turns a prompt into an HTTP API your applications call with JSON. Three steps:</p>
      <ol>
        <li>
          <strong>Create an endpoint</strong>: its name, its path (<code>/api/v1/summarize</code>) and its input fields
          (the JSON your application sends) and, optionally, output fields (the JSON it gets back).
        </li>
        <li>
          <strong>Write a prompt</strong> on the endpoint's page: a template reading <code>{'{{ inputs.text }}'}</code>,
          a model; try it in the test runner, then promote it to Live and set it as the default.
        </li>
        <li>
          <strong>Create an endpoint key</strong> on the <Link href="/keys">Keys</Link> page for the application that
          calls it.
        </li>
      </ol>
      <p>Then your application calls it:</p>
      <CommandBlock
        label="Calling an endpoint"
        command={curlFor('/api/v1/summarize', { text: 'Promptgate turns prompts into HTTP endpoints.' })}
      />
      <Button kind="primary" blocked={blocked} onClick={() => navigate('/endpoints/new')}>
        Create an endpoint
      </Button>
    </div>
  );
}
