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
  const truncated = new Set(log.truncatedFields);
  return (
    <DatasetCopy
      endpointId={log.endpointId}
      heading="h2"
      className="log-section"
      inputsReason={
        truncated.has('inputs')
          ? 'The inputs were cut by the log size limit, so this call cannot become an item.'
          : null
      }
      outputReason={
        log.status !== 'success'
          ? 'The call failed, so it has no output to copy.'
          : truncated.has('parsedOutput')
            ? 'The log kept only the start of the output, so it cannot be copied.'
            : null
      }
      add={(datasetId, withOutput) =>
        unwrap(
          api.POST('/admin/v1/datasets/{id}/items/from-logs', {
            params: { path: { id: datasetId } },
            body: { logIds: [log.id], withOutput },
          }),
        )
      }
    />
  );
}

/**
 * A test run's inputs added to a dataset of its endpoint as an item, with its output as the expected output when
 * wanted: the inputs as the runner sent them, so nothing waits for the run's log row to be written.
 */
export function AddRunToDataset({
  endpointId,
  inputs,
  output,
}: {
  endpointId: string;
  inputs: Record<string, unknown>;
  output: unknown;
}) {
  return (
    <DatasetCopy
      endpointId={endpointId}
      heading="h4"
      className="run-dataset-copy"
      inputsReason={null}
      outputReason={null}
      add={(datasetId, withOutput) =>
        unwrap(
          api.POST('/admin/v1/datasets/{id}/items', {
            params: { path: { id: datasetId } },
            body: { items: [{ inputs, expectedOutput: withOutput ? output : null }] },
          }),
        )
      }
    />
  );
}

/**
 * The form both copies share: the endpoint's datasets to choose from, whether the output becomes the expected output,
 * and the answer. `inputsReason` says why nothing can be copied, `outputReason` why the output cannot.
 */
function DatasetCopy({
  endpointId,
  heading: Heading,
  className,
  inputsReason,
  outputReason,
  add: addItem,
}: {
  endpointId: string;
  heading: 'h2' | 'h4';
  className: string;
  inputsReason: string | null;
  outputReason: string | null;
  add: (datasetId: string, withOutput: boolean) => Promise<{ itemCount: number }>;
}) {
  const blocked = useWriteBlock();
  const titleId = useId();
  const inputsCut = inputsReason !== null;
  const datasets = useLoad(
    () =>
      inputsCut
        ? Promise.resolve<Dataset[]>([])
        : unwrap(api.GET('/admin/v1/endpoints/{id}/datasets', { params: { path: { id: endpointId } } })),
    [endpointId, inputsCut],
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
    const answer = await adding.run(() => addItem(chosen.id, withOutput && outputReason === null));
    if (!answer) return;
    setAdded({ dataset: chosen, itemCount: answer.itemCount });
    // The list says how many items each dataset holds.
    datasets.reload();
  }

  let body;
  if (inputsCut) {
    body = <p className="muted">{inputsReason}</p>;
  } else if (!datasets.data) {
    body = datasets.error ? <Problems error={datasets.error} /> : <Loading what="the endpoint's datasets" />;
  } else if (datasets.data.length === 0) {
    body = (
      <p className="muted">
        This endpoint has no datasets yet: create one on its{' '}
        <Link href={`/endpoints/${endpointId}/evaluate`}>Evaluate</Link> tab.
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
    <section className={className} aria-labelledby={titleId}>
      <Heading id={titleId}>Add to a dataset</Heading>
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
