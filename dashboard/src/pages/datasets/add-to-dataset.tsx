import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { api, type Schemas, unwrap } from '../../api/client';
import { useWriteBlock } from '../../session';
import { Button, Field, Loading, Problems } from '../../ui/controls';
import { formatNumber } from '../../ui/format';
import { useAction } from '../../ui/use-action';
import { useLoad } from '../../ui/use-load';
import { datasetHref } from './evaluate-tab';
import type { Dataset } from './rules';
import './datasets.css';

type Log = Schemas['ExecutionLogDetailResponse'];

/**
 * A call copied into a dataset of its endpoint: its inputs as an item's, and, when wanted, its output as the item's
 * expected output. A call whose inputs the log cut cannot be copied, nor the output of a failed call or one the log
 * cut; the form says so rather than offering it.
 */
export function AddToDataset({ log }: { log: Log }) {
  const blocked = useWriteBlock();
  const titleId = useId();
  const truncated = new Set(log.truncatedFields);
  const inputsCut = truncated.has('inputs');
  const outputReason =
    log.status !== 'success'
      ? 'The call failed, so it has no output to copy.'
      : truncated.has('parsedOutput')
        ? 'The log kept only the start of the output, so it cannot be copied.'
        : null;
  const datasets = useLoad(
    () =>
      inputsCut
        ? Promise.resolve<Dataset[]>([])
        : unwrap(api.GET('/admin/v1/endpoints/{id}/datasets', { params: { path: { id: log.endpointId } } })),
    [log.endpointId, inputsCut],
  );
  const [datasetId, setDatasetId] = useState('');
  const [withOutput, setWithOutput] = useState(outputReason === null);
  const [added, setAdded] = useState<{ dataset: Dataset; itemCount: number } | null>(null);
  const adding = useAction();
  const chosen = datasets.data?.find((dataset) => dataset.id === datasetId) ?? datasets.data?.[0];

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!chosen) return;
    setAdded(null);
    const answer = await adding.run(() =>
      unwrap(
        api.POST('/admin/v1/datasets/{id}/items/from-logs', {
          params: { path: { id: chosen.id } },
          body: { logIds: [log.id], withOutput: withOutput && outputReason === null },
        }),
      ),
    );
    if (!answer) return;
    setAdded({ dataset: chosen, itemCount: answer.itemCount });
    // The list says how many items each dataset holds.
    datasets.reload();
  }

  let body;
  if (inputsCut) {
    body = <p className="muted">The inputs were cut by the log size limit, so this call cannot become an item.</p>;
  } else if (!datasets.data) {
    body = datasets.error ? <Problems error={datasets.error} /> : <Loading what="the endpoint's datasets" />;
  } else if (datasets.data.length === 0) {
    body = (
      <p className="muted">
        This endpoint has no datasets yet: create one on its{' '}
        <Link href={`/endpoints/${log.endpointId}/evaluate`}>Evaluate</Link> tab.
      </p>
    );
  } else {
    body = (
      <form className="add-to-dataset inline" aria-labelledby={titleId} onSubmit={add} noValidate>
        <Field label="Dataset">
          {(id) => (
            <select id={id} value={chosen?.id ?? ''} onChange={(event) => setDatasetId(event.target.value)}>
              {datasets.data?.map((dataset) => (
                <option key={dataset.id} value={dataset.id}>
                  {dataset.name} ({formatNumber(dataset.itemCount)} items)
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="checkbox" title={outputReason ?? undefined}>
          <input
            type="checkbox"
            checked={withOutput && outputReason === null}
            disabled={outputReason !== null}
            onChange={(event) => setWithOutput(event.target.checked)}
          />
          Use its output as the expected output
        </label>
        <Button type="submit" kind="primary" blocked={blocked} disabled={adding.busy}>
          {adding.busy ? 'Adding…' : 'Add to dataset'}
        </Button>
        {outputReason && <p className="muted">{outputReason}</p>}
      </form>
    );
  }

  return (
    <section className="log-section" aria-labelledby={titleId}>
      <h2 id={titleId}>Add to a dataset</h2>
      {body}
      <Problems error={adding.error} />
      <p role="status" className={added ? 'notice' : 'visually-hidden'}>
        {added && (
          <>
            Added to <Link href={datasetHref(added.dataset)}>{added.dataset.name}</Link>: it holds{' '}
            {formatNumber(added.itemCount)} {added.itemCount === 1 ? 'item' : 'items'}.
          </>
        )}
      </p>
    </section>
  );
}
