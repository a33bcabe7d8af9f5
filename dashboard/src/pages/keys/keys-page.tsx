import { useRef, useState } from 'react';
import { api, type Schemas, unwrap, unwrapPage } from '../../api/client';
import { useQuery } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, ConfirmDialog, Loading, PageHeader, Pager, Problems } from '../../ui/controls';
import { formatNumber } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { CreateKeyDialog } from './create-key-dialog';
import { NewKeyDialog } from './new-key-dialog';
import './keys.css';

export type Key = Schemas['KeyResponse'];
export type CreatedKey = Schemas['CreatedKeyResponse'];
export type EndpointChoice = Pick<Schemas['EndpointResponse'], 'id' | 'name' | 'path'>;

/** Endpoints offered for a key's restriction: the API's largest page. */
const ENDPOINT_CHOICES = 500;

/**
 * The tenant's keys, paged like the API (oldest first), with create and revoke. A new key's full value lives only in
 * this component's state while the shown-once dialog is open: never in a URL or storage, and gone once it closes.
 */
export default function KeysPage() {
  const blocked = useWriteBlock();
  const [query, setQuery] = useQuery();
  const page = Math.max(1, Number(query.get('page')) || 1);
  const keys = useLoad(() => unwrapPage(api.GET('/admin/v1/keys', { params: { query: { page } } })), [page]);
  const endpoints = useLoad(
    () => unwrapPage(api.GET('/admin/v1/endpoints', { params: { query: { pageSize: ENDPOINT_CHOICES } } })),
    [],
  );
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [revokeError, setRevokeError] = useState<unknown>(null);
  const createButton = useRef<HTMLSpanElement>(null);

  const endpointNames = new Map((endpoints.data?.items ?? []).map((endpoint) => [endpoint.id, endpoint.name]));

  async function revoke() {
    if (!revoking) return;
    setRevokeBusy(true);
    setRevokeError(null);
    try {
      await unwrap(api.POST('/admin/v1/keys/{id}/revoke', { params: { path: { id: revoking.id } } }));
      setRevoking(null);
      keys.reload();
    } catch (failure) {
      setRevokeError(failure);
    } finally {
      setRevokeBusy(false);
    }
  }

  return (
    <section>
      <PageHeader title="Keys">
        <span ref={createButton}>
          <Button kind="primary" blocked={blocked} onClick={() => setCreating(true)}>
            Create key
          </Button>
        </span>
      </PageHeader>
      <p className="muted">
        Endpoint keys (<code>ep_live_…</code>, <code>ep_test_…</code>) call your endpoints; admin keys (
        <code>epa_…</code>) manage them through this dashboard and the admin API. A key's full value is shown once, when
        it is created.
      </p>
      <Problems error={keys.error} />
      {!keys.data ? (
        !keys.error && <Loading what="the keys" />
      ) : keys.data.items.length === 0 ? (
        <p className="empty">No keys on this page.</p>
      ) : (
        <div className="table-wrap">
          <table className="keys-table">
            <caption className="visually-hidden">API keys of this tenant, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Permission or environment</th>
                <th scope="col">Key</th>
                <th scope="col">Status</th>
                <th scope="col">Endpoints</th>
                <th scope="col">Rate limits</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.items.map((key) => (
                <tr key={key.id} className={key.status === 'Revoked' ? 'revoked-row' : undefined}>
                  <th scope="row" className="key-name">
                    {key.name}
                  </th>
                  <td>{key.type === 'admin' ? 'Admin' : 'Endpoint'}</td>
                  <td>{key.type === 'admin' ? key.permission : key.environment === 'test' ? 'test' : 'live'}</td>
                  <td className="mono last4">
                    <span className="visually-hidden">ends in </span>…{key.last4}
                  </td>
                  <td>
                    <span className={`badge ${key.status === 'Active' ? 'active' : 'revoked'}`}>{key.status}</span>
                  </td>
                  <td>{restriction(key, endpointNames)}</td>
                  <td className="limits">
                    <span>{formatNumber(key.rateLimitPerMinute)}/min</span>{' '}
                    <span>{formatNumber(key.rateLimitPerHour)}/h</span>{' '}
                    <span>{formatNumber(key.rateLimitPerDay)}/day</span>
                  </td>
                  <td className="date">
                    <DateTime value={key.createdAt} />
                  </td>
                  <td className="date">
                    {key.lastUsedAt ? <DateTime value={key.lastUsedAt} /> : <span className="muted">Never</span>}
                  </td>
                  <td>
                    {key.status === 'Active' && (
                      <Button
                        kind="danger"
                        blocked={blocked}
                        onClick={() => {
                          setRevokeError(null);
                          setRevoking(key);
                        }}
                      >
                        Revoke<span className="visually-hidden"> {key.name}</span>
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {keys.data && (
        <Pager
          page={page}
          hasNextPage={keys.data.hasNextPage}
          onPage={(next) => setQuery({ page: next === 1 ? undefined : next })}
        />
      )}

      <CreateKeyDialog
        open={creating}
        endpoints={endpoints.data?.items ?? []}
        moreEndpoints={endpoints.data?.hasNextPage ?? false}
        onCancel={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
          keys.reload();
        }}
      />
      <NewKeyDialog
        created={created}
        onClose={() => {
          setCreated(null);
          createButton.current?.querySelector('button')?.focus();
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke the key “${revoking?.name ?? ''}”?`}
        actionLabel="Revoke key"
        busy={revokeBusy}
        error={revokeError}
        onCancel={() => setRevoking(null)}
        onConfirm={revoke}
      >
        <p>
          Every request made with the key ending in <code>…{revoking?.last4}</code> is refused with{' '}
          <strong>401 Unauthorized</strong> immediately, on every instance of the service.
        </p>
        <p>Revoking cannot be undone: whoever uses this key needs a new one.</p>
      </ConfirmDialog>
    </section>
  );
}

/** A date on one line and its time on the next, so the table stays narrow. */
function DateTime({ value }: { value: string }) {
  const date = new Date(value);
  return (
    <time dateTime={value}>
      <span>{date.toLocaleDateString(undefined, { dateStyle: 'medium' })}</span>{' '}
      <span>{date.toLocaleTimeString(undefined, { timeStyle: 'short' })}</span>
    </time>
  );
}

function restriction(key: Key, names: Map<string, string>) {
  if (key.type === 'admin') {
    return (
      <span className="muted" title="Admin keys are not restricted to endpoints">
        <span aria-hidden="true">—</span> <span className="visually-hidden">Not applicable</span>
      </span>
    );
  }
  if (!key.endpointIds) return 'Every endpoint';
  if (key.endpointIds.length === 0) return <span className="muted">None</span>;
  return (
    <ul className="endpoint-names">
      {key.endpointIds.map((id) => (
        <li key={id}>{names.get(id) ?? <span className="mono">{id}</span>}</li>
      ))}
    </ul>
  );
}
