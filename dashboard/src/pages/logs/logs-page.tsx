import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, type Schemas, unwrap } from '../../api/client';
import { navigate, useQuery } from '../../router';
import { Button, Field, Loading, PageHeader, Pager, Problems } from '../../ui/controls';
import { formatCost, formatMs, formatNumber } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { SOURCES, sourceLabel, StatusBadge } from './log-format';
import { type EndpointName, endpointLabel, loadEndpointNames, loadPromptNames, type PromptName } from './tenant-names';
import { DateTimeField } from './date-time-field';
import { formatShortTimestamp, isoOrUndefined, oneOf } from './time-range';
import {
  callsHref,
  describeTagFilters,
  filterTags,
  hasTagFilters,
  sortedTags,
  type Tag,
  type TagFilters,
  tagFiltersOf,
  tagQuery,
  withoutTagFilter,
  withTagFilter,
} from '../tags/rules';
import { AddTagFilter, TagChips, TagFilterChips } from '../tags/tag-chips';
import './logs.css';

const STATUSES = ['success', 'error'] as const;
const PAGE_SIZES = [20, 50] as const;

type LogRow = Schemas['ExecutionLogResponse'];

/** The filters as the route's query holds them; they go to the API in one request. */
interface LogFilters {
  endpointId?: string;
  promptId?: string;
  source?: (typeof SOURCES)[number];
  status?: (typeof STATUSES)[number];
  from?: string;
  to?: string;
  /** `key:value` filters: the same key repeated means either value, different keys must all match. */
  tag?: string[];
  /** Tag keys that must be present, whatever their value. */
  hasTag?: string[];
}

function filtersOf(query: URLSearchParams): LogFilters {
  const endpointId = query.get('endpointId') || undefined;
  return {
    endpointId,
    // A prompt belongs to one endpoint: the prompt filter applies only with its endpoint chosen.
    promptId: (endpointId && query.get('promptId')) || undefined,
    source: oneOf(query.get('source'), SOURCES),
    status: oneOf(query.get('status'), STATUSES),
    from: isoOrUndefined(query.get('from')),
    to: isoOrUndefined(query.get('to')),
    ...tagQuery(tagFiltersOf(query)),
  };
}

const positive = (value: string | null, fallback: number) => {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? number : fallback;
};

export default function LogsPage() {
  const [query, setQuery] = useQuery();
  const filters = filtersOf(query);
  const page = positive(query.get('page'), 1);
  const pageSize = oneOf(query.get('pageSize'), PAGE_SIZES.map(String)) ? Number(query.get('pageSize')) : PAGE_SIZES[0];
  const key = JSON.stringify({ filters, page, pageSize });

  const endpoints = useLoad(loadEndpointNames, []);
  const prompts = useLoad(
    () => (filters.endpointId ? loadPromptNames(filters.endpointId) : Promise.resolve<PromptName[]>([])),
    [filters.endpointId],
  );
  const logs = useLoad(
    () => unwrap(api.GET('/admin/v1/logs', { params: { query: { ...filters, page, pageSize } } })),
    [key],
  );
  const promptNames = usePromptNames(logs.data?.items ?? []);

  /** Replaces the query: a filter change returns to the first page. */
  const apply = (next: Partial<LogFilters & { page: number; pageSize: number }>) =>
    setQuery({ ...filters, pageSize: pageSize === PAGE_SIZES[0] ? undefined : pageSize, page: undefined, ...next });

  const endpointById = new Map((endpoints.data ?? []).map((endpoint) => [endpoint.id, endpoint]));
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const tagFilters: TagFilters = { tag: filters.tag ?? [], hasTag: filters.hasTag ?? [] };
  const applyTags = (next: TagFilters) => apply(tagQuery(next));
  const pickTag = (tag: Tag) => applyTags(withTagFilter(tagFilters, tag));

  return (
    <section>
      <PageHeader title="Logs">
        <Link href={callsHref('/stats', filters.endpointId, tagFilters)}>Stats for these calls</Link>
      </PageHeader>

      <form className="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <Field label="Endpoint">
          {(id) => (
            <select
              id={id}
              value={filters.endpointId ?? ''}
              onChange={(event) => apply({ endpointId: event.target.value || undefined, promptId: undefined })}
            >
              <option value="">All endpoints</option>
              {filters.endpointId && !endpointById.has(filters.endpointId) && (
                <option value={filters.endpointId}>{filters.endpointId}</option>
              )}
              {(endpoints.data ?? []).map((endpoint) => (
                <option key={endpoint.id} value={endpoint.id}>
                  {endpointLabel(endpoint)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Prompt">
          {(id) => (
            <select
              id={id}
              value={filters.promptId ?? ''}
              disabled={!filters.endpointId}
              title={filters.endpointId ? undefined : 'Choose an endpoint first'}
              onChange={(event) => apply({ promptId: event.target.value || undefined })}
            >
              <option value="">{filters.endpointId ? 'All prompts' : 'Choose an endpoint first'}</option>
              {filters.promptId && !(prompts.data ?? []).some((prompt) => prompt.id === filters.promptId) && (
                <option value={filters.promptId}>{filters.promptId}</option>
              )}
              {(prompts.data ?? []).map((prompt) => (
                <option key={prompt.id} value={prompt.id}>
                  {prompt.name} ({prompt.status})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Source">
          {(id) => (
            <select
              id={id}
              value={filters.source ?? ''}
              onChange={(event) => apply({ source: oneOf(event.target.value, SOURCES) })}
            >
              <option value="">All sources</option>
              {SOURCES.map((source) => (
                <option key={source} value={source}>
                  {sourceLabel(source)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Status">
          {(id) => (
            <select
              id={id}
              value={filters.status ?? ''}
              onChange={(event) => apply({ status: oneOf(event.target.value, STATUSES) })}
            >
              <option value="">Any status</option>
              <option value="success">Success</option>
              <option value="error">Error</option>
            </select>
          )}
        </Field>
        <DateTimeField label="From" value={filters.from} onChange={(from) => apply({ from })} />
        <DateTimeField label="To" value={filters.to} onChange={(to) => apply({ to })} />
        <Field label="Rows per page">
          {(id) => (
            <select
              id={id}
              value={pageSize}
              onChange={(event) =>
                apply({
                  pageSize: Number(event.target.value) === PAGE_SIZES[0] ? undefined : Number(event.target.value),
                })
              }
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          )}
        </Field>
        {filtered && <Button onClick={() => setQuery({})}>Clear filters</Button>}
      </form>

      <AddTagFilter onAdd={pickTag} />
      <TagFilterChips tags={filterTags(tagFilters)} onRemove={(tag) => applyTags(withoutTagFilter(tagFilters, tag))} />

      <RequestIdSearch />

      <Problems error={endpoints.error ?? logs.error} />
      {!logs.data ? (
        !logs.error && <Loading what="the logs" />
      ) : (
        <>
          <p className="log-count" role="status" aria-live="polite">
            {countText(logs.data)}
            {logs.loading && <span className="muted"> · updating…</span>}
          </p>
          {logs.data.items.length === 0 ? (
            <p className="empty">
              {filtered
                ? `No call matches these filters${hasTagFilters(tagFilters) ? ` (tags: ${describeTagFilters(tagFilters)})` : ''}.`
                : 'No calls yet. Execute an endpoint with an endpoint key, or run a prompt in the test runner, and its calls appear here.'}
            </p>
          ) : (
            <LogTable rows={logs.data.items} endpoints={endpointById} prompts={promptNames} onPickTag={pickTag} />
          )}
          <Pager
            page={page}
            hasNextPage={
              page * pageSize < logs.data.total || (!logs.data.totalIsExact && logs.data.items.length === pageSize)
            }
            onPage={(next) => apply({ page: next === 1 ? undefined : next })}
          />
        </>
      )}
    </section>
  );
}

function countText(data: Schemas['ExecutionLogPageResponse']): string {
  if (!data.totalIsExact)
    return `More than ${formatNumber(data.total)} calls (the count stops at ${formatNumber(data.total)})`;
  return data.total === 1 ? '1 call' : `${formatNumber(data.total)} calls`;
}

function LogTable({
  rows,
  endpoints,
  prompts,
  onPickTag,
}: {
  rows: LogRow[];
  endpoints: Map<string, EndpointName>;
  prompts: Map<string, string>;
  onPickTag: (tag: Tag) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="log-table">
        <caption className="visually-hidden">Calls, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Prompt</th>
            <th scope="col">Source</th>
            <th scope="col">Status</th>
            <th scope="col">Error code</th>
            <th scope="col" className="number">
              Latency
            </th>
            <th scope="col" className="number">
              Tokens in/out
            </th>
            <th scope="col" className="number">
              Cost
            </th>
            <th scope="col">Cached</th>
            <th scope="col">Tags</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const endpoint = endpoints.get(row.endpointId);
            return (
              <tr key={row.id} data-request-id={row.requestId}>
                <td className="time">
                  <Link href={`/logs/${row.id}`}>
                    {formatShortTimestamp(row.createdAt)}
                    <span className="visually-hidden">, {row.status}: details</span>
                  </Link>
                </td>
                <td>{endpoint ? endpointLabel(endpoint) : <code>{row.endpointId.slice(0, 8)}</code>}</td>
                <td>{promptText(row, prompts)}</td>
                <td>{sourceLabel(row.source)}</td>
                <td>
                  <StatusBadge status={row.status} httpStatus={row.httpStatus} />
                </td>
                <td>{row.errorCode ? <code>{row.errorCode}</code> : <span className="muted">—</span>}</td>
                <td className="number">{formatMs(row.latencyMs)}</td>
                <td className="number">
                  {formatNumber(row.inputTokens)} / {formatNumber(row.outputTokens)}
                </td>
                <td className="number">{formatCost(row.costUsd)}</td>
                <td>{row.cached ? <span className="badge">cache hit</span> : <span className="muted">no</span>}</td>
                <td className="tags">
                  <TagChips tags={sortedTags(row.tags)} onPick={onPickTag} empty="—" />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function promptText(row: LogRow, prompts: Map<string, string>): string {
  if (!row.promptId) return '—';
  const name = prompts.get(row.promptId) ?? row.promptId.slice(0, 8);
  return row.promptVersion === null ? name : `${name} @ v${row.promptVersion}`;
}

/** The names of the prompts the rows name, loaded per endpoint (once each) as rows of new endpoints appear. */
function usePromptNames(rows: LogRow[]): Map<string, string> {
  const [names, setNames] = useState<Map<string, string>>(() => new Map());
  const [asked] = useState(() => new Set<string>());
  const endpointIds = [...new Set(rows.filter((row) => row.promptId).map((row) => row.endpointId))].filter(
    (id) => !asked.has(id),
  );
  useEffect(() => {
    for (const endpointId of endpointIds) {
      asked.add(endpointId);
      // A deleted endpoint's prompts cannot be listed: its rows keep the prompt's id.
      loadPromptNames(endpointId).then(
        (prompts) =>
          setNames(
            (previous) =>
              new Map([...previous, ...prompts.map((prompt): [string, string] => [prompt.id, prompt.name])]),
          ),
        () => undefined,
      );
    }
    // Keyed by the ids' text: a new array holding the same ids asks for nothing again.
  }, [endpointIds.join(',')]);
  return names;
}

/** Finds a call by the X-Request-Id its execution answered, among all the tenant's calls (whatever the filters). */
function RequestIdSearch() {
  const [requestId, setRequestId] = useState('');
  const [state, setState] = useState<{ busy: boolean; message: string | null; error: unknown }>({
    busy: false,
    message: null,
    error: null,
  });

  async function find(event: FormEvent) {
    event.preventDefault();
    const wanted = requestId.trim();
    if (!wanted) return;
    setState({ busy: true, message: null, error: null });
    try {
      const data = await unwrap(api.GET('/admin/v1/logs', { params: { query: { requestId: wanted, pageSize: 1 } } }));
      const found = data.items[0];
      if (found) {
        navigate(`/logs/${found.id}`);
        return;
      }
      setState({
        busy: false,
        message: `No call with request id ${wanted}: it may be older than the logs kept, or not an execution.`,
        error: null,
      });
    } catch (error) {
      setState({ busy: false, message: null, error });
    }
  }

  return (
    <form className="request-search inline" onSubmit={find} role="search" aria-label="Find a call">
      <Field label="Request id" hint="The X-Request-Id header of an execution's answer">
        {(id) => (
          <input
            id={id}
            className="mono"
            value={requestId}
            onChange={(event) => setRequestId(event.target.value)}
            spellCheck={false}
            autoComplete="off"
          />
        )}
      </Field>
      <Button type="submit" disabled={state.busy || requestId.trim() === ''}>
        {state.busy ? 'Searching…' : 'Find'}
      </Button>
      {state.message && (
        <p className="muted" role="status">
          {state.message}
        </p>
      )}
      <Problems error={state.error} />
    </form>
  );
}
