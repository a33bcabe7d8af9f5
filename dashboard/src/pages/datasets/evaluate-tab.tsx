import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { navigate } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, Field, Loading, Problems } from '../../ui/controls';
import { formatDate, formatNumber } from '../../ui/format';
import { useAction } from '../../ui/use-action';
import { type Loaded, useLoad } from '../../ui/use-load';
import { type Endpoint, FormProblems, problemsByField } from '../endpoints/endpoint-common';
import { PromotionGateForm } from '../eval-runs/promotion-gate';
import { type Dataset, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from './rules';
import './datasets.css';

/** Where a dataset's page is. */
export const datasetHref = (dataset: Pick<Dataset, 'id' | 'endpointId'>) =>
  `/endpoints/${dataset.endpointId}/datasets/${dataset.id}`;

/**
 * The endpoint's Evaluate tab: its datasets (named sets of inputs, each with what the output should be and the checks
 * run on every output), a new one created by name, each opened on its own page, and the endpoint's promotion gate.
 */
export function EvaluateTab({ endpoint, onChanged }: { endpoint: Endpoint; onChanged?: () => void }) {
  const datasets = useLoad(
    () => unwrap(api.GET('/admin/v1/endpoints/{id}/datasets', { params: { path: { id: endpoint.id } } })),
    [endpoint.id],
  );
  const [creating, setCreating] = useState(false);
  return (
    <>
      <DatasetList endpoint={endpoint} datasets={datasets} creating={creating} setCreating={setCreating} />
      {datasets.data && (
        <PromotionGateForm endpoint={endpoint} datasets={datasets.data} onSaved={() => onChanged?.()} />
      )}
    </>
  );
}

/** The endpoint's datasets, and the form that creates one. */
function DatasetList({
  endpoint,
  datasets,
  creating,
  setCreating,
}: {
  endpoint: Endpoint;
  datasets: Loaded<Dataset[]>;
  creating: boolean;
  setCreating: (creating: boolean) => void;
}) {
  const blocked = useWriteBlock();
  return (
    <section className="panel" aria-labelledby="datasets-title">
      <div className="section-header">
        <h2 id="datasets-title">Datasets</h2>
        <div className="actions">
          <Button kind="primary" blocked={blocked} disabled={creating} onClick={() => setCreating(true)}>
            New dataset
          </Button>
        </div>
      </div>
      <p className="muted">
        A dataset holds inputs of this endpoint, each with the output expected of it, and the checks every output must
        pass: the cases a prompt is evaluated on before it goes live. Add items by hand, import them as JSONL, or copy
        calls from their page in Logs.
      </p>
      {creating && (
        <DatasetForm
          endpointId={endpoint.id}
          onCancel={() => setCreating(false)}
          onSaved={(dataset) => navigate(datasetHref(dataset))}
        />
      )}
      <Problems error={datasets.error} />
      {!datasets.data ? (
        !datasets.error && <Loading what="the datasets" />
      ) : datasets.data.length === 0 ? (
        <p className="empty">No datasets yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="datasets">
            <caption className="visually-hidden">Datasets of this endpoint, by name</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="number">
                  Items
                </th>
                <th scope="col" className="number">
                  Version
                </th>
                <th scope="col" className="number">
                  Checks
                </th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody>
              {datasets.data.map((dataset) => (
                <tr key={dataset.id} data-dataset={dataset.name}>
                  <td>
                    <Link href={datasetHref(dataset)}>{dataset.name}</Link>
                    {dataset.description && <div className="muted dataset-description">{dataset.description}</div>}
                  </td>
                  <td className="number">{formatNumber(dataset.itemCount)}</td>
                  <td className="number">v{dataset.version}</td>
                  <td className="number">{dataset.checks.length}</td>
                  <td>{formatDate(dataset.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Creates a dataset of the endpoint, or edits `dataset`'s name and description. */
export function DatasetForm({
  endpointId,
  dataset,
  onSaved,
  onCancel,
}: {
  endpointId: string;
  dataset?: Dataset;
  onSaved: (saved: Dataset) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(dataset?.name ?? '');
  const [description, setDescription] = useState(dataset?.description ?? '');
  const [missing, setMissing] = useState(false);
  const saving = useAction();
  const { byField, others } = problemsByField(saving.error, ['name', 'description'] as const, 'name');

  async function save(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') return setMissing(true);
    const body = { name: name.trim(), description };
    const saved = await saving.run(() =>
      dataset
        ? unwrap(api.PUT('/admin/v1/datasets/{id}', { params: { path: { id: dataset.id } }, body }))
        : unwrap(api.POST('/admin/v1/endpoints/{id}/datasets', { params: { path: { id: endpointId } }, body })),
    );
    if (saved) onSaved(saved);
  }

  const title = dataset ? `Edit the dataset ${dataset.name}` : 'New dataset';
  return (
    <form className="dataset-form" aria-label={title} onSubmit={save} noValidate>
      <h3>{title}</h3>
      <Field
        label="Name"
        hint={`Unique in the endpoint, at most ${MAX_NAME_LENGTH} characters`}
        error={missing && name.trim() === '' ? 'A dataset needs a name.' : byField.name}
      >
        {(id) => (
          <input
            id={id}
            value={name}
            maxLength={MAX_NAME_LENGTH}
            onChange={(event) => setName(event.target.value)}
            autoComplete="off"
            required
          />
        )}
      </Field>
      <Field
        label="Description"
        hint={`Optional, at most ${MAX_DESCRIPTION_LENGTH} characters`}
        error={byField.description}
      >
        {(id) => (
          <textarea
            id={id}
            rows={2}
            maxLength={MAX_DESCRIPTION_LENGTH}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </Field>
      <FormProblems messages={others} />
      <div className="form-actions start">
        <Button type="submit" kind="primary" disabled={saving.busy}>
          {dataset ? 'Save changes' : 'Create dataset'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
