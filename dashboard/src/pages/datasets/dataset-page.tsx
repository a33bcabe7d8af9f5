import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { api, ApiError, unwrap } from '../../api/client';
import { navigate } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, ConfirmDialog, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatDate, formatNumber } from '../../ui/format';
import { useAction } from '../../ui/use-action';
import { useLoad } from '../../ui/use-load';
import { ChecksEditor } from './checks-editor';
import { DatasetItems } from './dataset-items';
import { DatasetRuns } from '../eval-runs/runs-list';
import { DatasetForm } from './evaluate-tab';
import type { Dataset } from './rules';
import type { Endpoint } from '../endpoints/endpoint-common';
import '../endpoints/endpoints.css';
import './datasets.css';

/** A dataset of an endpoint: its runs (and a new one started), its items, its checks, its name and description changed, and deleting it. */
export default function DatasetPage() {
  const { id = '', datasetId = '' } = useParams<{ id: string; datasetId: string }>();
  const loaded = useLoad(async () => {
    const [endpoint, dataset] = await Promise.all([
      unwrap(api.GET('/admin/v1/endpoints/{id}', { params: { path: { id } } })),
      unwrap(api.GET('/admin/v1/datasets/{id}', { params: { path: { id: datasetId } } })),
    ]);
    return { endpoint, dataset };
  }, [id, datasetId]);
  const evaluate = `/endpoints/${id}/evaluate`;
  const data = loaded.data?.dataset.id === datasetId && loaded.data.dataset.endpointId === id ? loaded.data : null;

  if (!data) {
    const missing =
      (loaded.error instanceof ApiError && [400, 404].includes(loaded.error.status)) ||
      (loaded.data !== undefined && loaded.data.dataset.endpointId !== id && !loaded.loading);
    return (
      <section>
        <PageHeader title={missing ? 'Dataset not found' : 'Dataset'} back={<Link href={evaluate}>← Evaluate</Link>} />
        {missing ? (
          <p>No dataset of this endpoint has this address: it may have been deleted.</p>
        ) : (
          <>
            <Problems error={loaded.error} />
            {!loaded.error && <Loading what="the dataset" />}
          </>
        )}
      </section>
    );
  }
  return <DatasetView endpoint={data.endpoint} dataset={data.dataset} reload={loaded.reload} />;
}

function DatasetView({ endpoint, dataset, reload }: { endpoint: Endpoint; dataset: Dataset; reload: () => void }) {
  const blocked = useWriteBlock();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const removal = useAction();
  const evaluate = `/endpoints/${endpoint.id}/evaluate`;

  async function remove() {
    const done = await removal.run(() =>
      unwrap(api.DELETE('/admin/v1/datasets/{id}', { params: { path: { id: dataset.id } } })),
    );
    if (done !== undefined) navigate(evaluate);
  }

  return (
    <section className="dataset-page">
      <PageHeader title={dataset.name} back={<Link href={evaluate}>← {endpoint.name}: Evaluate</Link>}>
        <Button blocked={blocked} disabled={editing} onClick={() => setEditing(true)}>
          Edit
        </Button>
        <Button
          kind="danger"
          blocked={blocked}
          onClick={() => {
            removal.setError(null);
            setDeleting(true);
          }}
        >
          Delete
        </Button>
      </PageHeader>
      {editing ? (
        <div className="panel">
          <DatasetForm
            endpointId={endpoint.id}
            dataset={dataset}
            onCancel={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              reload();
            }}
          />
        </div>
      ) : (
        dataset.description && <p className="lead">{dataset.description}</p>
      )}
      <dl className="dataset-facts">
        <div>
          <dt>Endpoint</dt>
          <dd>
            <Link href={`/endpoints/${endpoint.id}`}>{endpoint.name}</Link> <code>{endpoint.path}</code>
          </dd>
        </div>
        <div>
          <dt>Items</dt>
          <dd>{formatNumber(dataset.itemCount)}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>v{dataset.version}</dd>
        </div>
        <div>
          <dt>Checks</dt>
          <dd>{dataset.checks.length}</dd>
        </div>
        <div>
          <dt>Changed</dt>
          <dd>{formatDate(dataset.updatedAt)}</dd>
        </div>
      </dl>

      <DatasetRuns endpoint={endpoint} dataset={dataset} />
      <DatasetItems dataset={dataset} endpoint={endpoint} onChanged={reload} />
      <ChecksEditor key={dataset.id} dataset={dataset} onSaved={reload} />

      <ConfirmDialog
        open={deleting}
        title={`Delete the dataset “${dataset.name}”?`}
        actionLabel="Delete dataset"
        busy={removal.busy}
        error={removal.error}
        onCancel={() => setDeleting(false)}
        onConfirm={remove}
      >
        <p>
          Its {dataset.itemCount === 1 ? 'item' : `${formatNumber(dataset.itemCount)} items`} and checks are deleted
          with it. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
