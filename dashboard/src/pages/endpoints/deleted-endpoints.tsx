import { useState } from 'react';
import { Link } from 'wouter';
import { api, ApiError, unwrap, unwrapPage } from '../../api/client';
import { useQuery } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, Loading, PageHeader, Pager, Problems } from '../../ui/controls';
import { formatDate } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { useAction } from '../../ui/use-action';
import { type Endpoint, VisibilityBadge } from './endpoint-common';
import { PermanentDeleteDialog } from './permanent-delete';
import './endpoints.css';

const PAGE_SIZE = 25;

/** Soft-deleted endpoints: restored to service, or deleted for good. */
export default function DeletedEndpoints() {
  const [query, setQuery] = useQuery();
  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
  const blocked = useWriteBlock();
  const endpoints = useLoad(
    () =>
      unwrapPage(api.GET('/admin/v1/endpoints', { params: { query: { deleted: true, page, pageSize: PAGE_SIZE } } })),
    [page],
  );
  const [removing, setRemoving] = useState<Endpoint | null>(null);
  const [restored, setRestored] = useState<Endpoint | null>(null);
  const restore = useAction();

  async function restoreEndpoint(endpoint: Endpoint) {
    setRestored(null);
    const done = await restore.run(() =>
      unwrap(api.POST('/admin/v1/endpoints/{id}/restore', { params: { path: { id: endpoint.id } } })),
    );
    if (done) {
      setRestored(done);
      endpoints.reload();
    }
  }

  // A path taken meanwhile is the usual refusal: say how to get past it.
  const restoreError =
    restore.error instanceof ApiError &&
    restore.error.status === 409 &&
    restore.error.messages.some((message) => message.startsWith('path'))
      ? new ApiError(409, [
          ...restore.error.messages,
          "Change that endpoint's path, or delete it, then restore this one.",
        ])
      : restore.error;

  return (
    <section className="deleted-endpoints">
      <PageHeader title="Deleted endpoints" back={<Link href="/endpoints">← Endpoints</Link>} />
      <p className="muted lead">
        A deleted endpoint no longer answers and its path is free for another one. Its prompts, versions and logs are
        kept until it is deleted for good.
      </p>
      {restored && (
        <p className="notice" role="status">
          Restored <Link href={`/endpoints/${restored.id}`}>{restored.name}</Link>: it answers again at{' '}
          <code>POST {restored.path}</code>.
        </p>
      )}
      <Problems error={restoreError} />
      <Problems error={endpoints.error} />
      {!endpoints.data ? (
        !endpoints.error && <Loading what="deleted endpoints" />
      ) : endpoints.data.items.length === 0 ? (
        <p className="empty">No deleted endpoints.</p>
      ) : (
        <>
          <div className="table-wrap">
            <table aria-busy={endpoints.loading}>
              <caption className="visually-hidden">Deleted endpoints</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Path</th>
                  <th scope="col">Visibility</th>
                  <th scope="col">Category</th>
                  <th scope="col">Deleted</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {endpoints.data.items.map((endpoint) => (
                  <tr key={endpoint.id}>
                    <th scope="row">{endpoint.name}</th>
                    <td>
                      <code>POST {endpoint.path}</code>
                    </td>
                    <td>
                      <VisibilityBadge visibility={endpoint.visibility} />
                    </td>
                    <td>{endpoint.category ?? <span className="muted">—</span>}</td>
                    <td>{formatDate(endpoint.deletedAt)}</td>
                    <td className="row-actions">
                      <Button
                        blocked={blocked}
                        disabled={restore.busy}
                        onClick={() => restoreEndpoint(endpoint)}
                        aria-label={`Restore ${endpoint.name}`}
                      >
                        Restore
                      </Button>
                      <Button
                        kind="danger"
                        blocked={blocked}
                        onClick={() => setRemoving(endpoint)}
                        aria-label={`Delete for good: ${endpoint.name}`}
                      >
                        Delete for good
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} hasNextPage={endpoints.data.hasNextPage} onPage={(next) => setQuery({ page: next })} />
        </>
      )}
      {removing && (
        <PermanentDeleteDialog
          open
          endpoint={removing}
          onCancel={() => setRemoving(null)}
          onDeleted={() => {
            setRemoving(null);
            endpoints.reload();
          }}
        />
      )}
    </section>
  );
}
