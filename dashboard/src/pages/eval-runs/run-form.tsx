import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { bounds } from '../../api/bounds';
import { navigate } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, Field, Loading, Problems } from '../../ui/controls';
import { useAction } from '../../ui/use-action';
import { useLoad } from '../../ui/use-load';
import { FormProblems, problemsByField } from '../endpoints/endpoint-common';
import type { Dataset } from '../datasets/rules';
import { DatasetSelect } from '../datasets/dataset-select';
import type { Prompt } from '../runner/test-run';
import { runBodyOf, runHref } from './rules';

const LIMITS = bounds.CreateEvalRunDto;
const FIELDS = ['promptId', 'versionNumber', 'baseline', 'concurrency', 'repeats', 'fresh'] as const;

/**
 * Starts an evaluation run and opens its page. On a dataset's page the dataset is given and the prompt and version are
 * chosen (the version defaults to the prompt's current one); on a prompt's page the prompt is given, the dataset is
 * chosen among the endpoint's, and the baseline is the endpoint's default.
 */
export function RunForm({
  endpointId,
  dataset,
  prompt,
  onCancel,
}: {
  endpointId: string;
  dataset?: Dataset;
  prompt?: Prompt;
  onCancel: () => void;
}) {
  const blocked = useWriteBlock();
  const choices = useLoad(async () => {
    const [prompts, datasets] = await Promise.all([
      prompt ? [prompt] : unwrap(api.GET('/admin/v1/prompts', { params: { query: { endpointId } } })),
      dataset
        ? [dataset]
        : unwrap(api.GET('/admin/v1/endpoints/{id}/datasets', { params: { path: { id: endpointId } } })),
    ]);
    return { prompts, datasets };
  }, [endpointId, prompt?.id, dataset?.id]);
  const [promptId, setPromptId] = useState(prompt?.id ?? '');
  const [datasetId, setDatasetId] = useState(dataset?.id ?? '');
  const [versionNumber, setVersionNumber] = useState<number | null>(null);
  const [baseline, setBaseline] = useState<'default' | 'none'>('default');
  const [concurrency, setConcurrency] = useState('4');
  const [repeats, setRepeats] = useState('1');
  const [fresh, setFresh] = useState(false);
  const starting = useAction();

  const prompts = choices.data?.prompts ?? [];
  const datasets = choices.data?.datasets ?? [];
  // Until one is picked, the first prompt that is not the default (the baseline) and the first dataset are the choice.
  const chosenPrompt =
    prompts.find((one) => one.id === promptId) ?? prompts.find((one) => !one.isDefault) ?? prompts[0];
  const chosenDataset = datasets.find((one) => one.id === datasetId) ?? datasets[0];
  const versions = useLoad(
    () =>
      chosenPrompt
        ? unwrap(api.GET('/admin/v1/prompts/{id}/versions', { params: { path: { id: chosenPrompt.id } } }))
        : Promise.resolve([]),
    [chosenPrompt?.id],
  );
  const version = versionNumber ?? chosenPrompt?.currentVersion ?? null;
  const { byField, others } = problemsByField(starting.error, FIELDS);

  async function start(event: FormEvent) {
    event.preventDefault();
    if (!chosenPrompt || !chosenDataset) return;
    const body = runBodyOf({
      promptId: chosenPrompt.id,
      versionNumber: version,
      baseline,
      concurrency: Number(concurrency),
      repeats: Number(repeats),
      fresh,
    });
    const run = await starting.run(() =>
      unwrap(api.POST('/admin/v1/datasets/{id}/runs', { params: { path: { id: chosenDataset.id } }, body })),
    );
    if (run) navigate(runHref(run));
  }

  const title = prompt ? 'Run against the default' : 'Run the dataset';
  if (!choices.data)
    return (
      <div className="dataset-form">
        <Problems error={choices.error} />
        {!choices.error && <Loading what="the prompts and datasets" />}
      </div>
    );
  return (
    <form className="dataset-form run-form" aria-label={title} onSubmit={start} noValidate>
      <h3>{title}</h3>
      {prompt ? (
        <p className="muted">
          Runs every item of a dataset with this prompt and with the endpoint's default prompt, and compares them item
          by item.
        </p>
      ) : (
        <p className="muted">
          Runs every item of this dataset with a prompt version and, to compare with, the endpoint's default prompt.
        </p>
      )}
      {!dataset &&
        (datasets.length === 0 ? (
          <p className="empty">This endpoint has no datasets yet: create one on its Evaluate tab.</p>
        ) : (
          <Field label="Dataset">
            {(id) => (
              <DatasetSelect id={id} datasets={datasets} value={chosenDataset?.id ?? ''} onChange={setDatasetId} />
            )}
          </Field>
        ))}
      <div className="inline">
        {!prompt && (
          <Field label="Prompt" error={byField.promptId}>
            {(id) => (
              <select
                id={id}
                value={chosenPrompt?.id ?? ''}
                onChange={(event) => {
                  setPromptId(event.target.value);
                  setVersionNumber(null);
                }}
              >
                {prompts.map((one) => (
                  <option key={one.id} value={one.id}>
                    {one.name} ({one.status}
                    {one.isDefault ? ', default' : ''})
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field label="Version" error={byField.versionNumber}>
          {(id) => (
            <select id={id} value={version ?? ''} onChange={(event) => setVersionNumber(Number(event.target.value))}>
              {(versions.data && versions.data.length > 0
                ? versions.data.map((one) => one.versionNumber)
                : version !== null
                  ? [version]
                  : []
              ).map((number) => (
                <option key={number} value={number}>
                  Version {number}
                  {number === chosenPrompt?.currentVersion ? ' (current)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        {!prompt && (
          <Field label="Baseline" error={byField.baseline}>
            {(id) => (
              <select
                id={id}
                value={baseline}
                onChange={(event) => setBaseline(event.target.value === 'none' ? 'none' : 'default')}
              >
                <option value="default">The endpoint's default prompt</option>
                <option value="none">None</option>
              </select>
            )}
          </Field>
        )}
        <Field
          label="Concurrency"
          hint={`Calls at once, ${LIMITS.concurrency.minimum}–${LIMITS.concurrency.maximum}`}
          error={byField.concurrency}
        >
          {(id) => (
            <input
              id={id}
              type="number"
              min={LIMITS.concurrency.minimum}
              max={LIMITS.concurrency.maximum}
              value={concurrency}
              onChange={(event) => setConcurrency(event.target.value)}
            />
          )}
        </Field>
        <Field
          label="Repeats"
          hint={`Runs of each item, ${LIMITS.repeats.minimum}–${LIMITS.repeats.maximum}`}
          error={byField.repeats}
        >
          {(id) => (
            <input
              id={id}
              type="number"
              min={LIMITS.repeats.minimum}
              max={LIMITS.repeats.maximum}
              value={repeats}
              onChange={(event) => setRepeats(event.target.value)}
            />
          )}
        </Field>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={fresh} onChange={(event) => setFresh(event.target.checked)} />
        Call the models again, even for answers kept from an earlier run
      </label>
      <Problems error={versions.error} />
      <FormProblems messages={others} />
      <div className="form-actions start">
        <Button
          type="submit"
          kind="primary"
          blocked={blocked ?? (chosenDataset ? null : 'Choose a dataset first.')}
          disabled={starting.busy || !chosenPrompt}
        >
          Start run
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
