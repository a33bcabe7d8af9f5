import { type ChangeEvent, type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useQuery } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, Field, Loading, Pager, Problems } from '../../ui/controls';
import { formatNumber } from '../../ui/format';
import { useAction } from '../../ui/use-action';
import { useLoad } from '../../ui/use-load';
import { type Endpoint, FormProblems } from '../endpoints/endpoint-common';
import { initialValues, type InputValues, inputsOf, RunnerInputs } from '../runner/runner-inputs';
import { sortedTags } from '../tags/rules';
import { TagChips } from '../tags/tag-chips';
import { messagesOf } from './api-messages';
import {
  BATCH_SIZE,
  batchesOf,
  type Dataset,
  type DatasetItem,
  describeLineProblem,
  expectedOutputOf,
  itemProblemsOf,
  jsonPreview,
  type LineProblem,
  lineProblemsOf,
  parseJsonl,
  tagsOf,
} from './rules';

const PAGE_SIZE = 20;

/**
 * A dataset's items at its current version, a page at a time, in the order they were added; an item added by hand
 * (the test runner's input form, the expected output as JSON, tags) or many imported as JSONL; an item deleted.
 * Each change is a new version of the dataset, so `onChanged` reads the dataset again.
 */
export function DatasetItems({
  dataset,
  endpoint,
  onChanged,
}: {
  dataset: Dataset;
  endpoint: Endpoint;
  onChanged: () => void;
}) {
  const blocked = useWriteBlock();
  const [query, setQuery] = useQuery();
  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
  // Read again at each version: an addition or deletion changes the pages.
  const items = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/datasets/{id}/items', {
          params: { path: { id: dataset.id }, query: { page, pageSize: PAGE_SIZE } },
        }),
      ),
    [dataset.id, dataset.version, page],
  );
  const [open, setOpen] = useState<'add' | 'import' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const removal = useAction();

  const changed = (message: string) => {
    setNotice(message);
    onChanged();
  };

  async function remove(item: DatasetItem, position: number) {
    setNotice(null);
    const done = await removal.run(() =>
      unwrap(
        api.DELETE('/admin/v1/datasets/{id}/items/{itemId}', { params: { path: { id: dataset.id, itemId: item.id } } }),
      ),
    );
    if (done !== undefined) changed(`Deleted item ${position}.`);
  }

  const total = items.data?.total ?? dataset.itemCount;
  return (
    <section className="panel" aria-labelledby="items-title">
      <div className="section-header">
        <h2 id="items-title">Items</h2>
        <div className="actions">
          <Button
            kind="primary"
            blocked={blocked}
            disabled={open === 'add'}
            onClick={() => (setNotice(null), setOpen('add'))}
          >
            Add item
          </Button>
          <Button blocked={blocked} disabled={open === 'import'} onClick={() => (setNotice(null), setOpen('import'))}>
            Import JSONL
          </Button>
        </div>
      </div>
      <p role="status" className={notice ? 'notice' : 'visually-hidden'}>
        {notice}
      </p>
      {open === 'add' && (
        <AddItemForm
          dataset={dataset}
          endpoint={endpoint}
          onCancel={() => setOpen(null)}
          onAdded={(itemCount) => {
            setOpen(null);
            changed(`Added an item: the dataset holds ${formatNumber(itemCount)}.`);
          }}
        />
      )}
      {open === 'import' && (
        <ImportJsonl
          dataset={dataset}
          onClose={() => setOpen(null)}
          onImported={(count, itemCount) => {
            setOpen(null);
            changed(`Imported ${formatNumber(count)} items: the dataset holds ${formatNumber(itemCount)}.`);
          }}
          onPartlyImported={onChanged}
        />
      )}
      <Problems error={items.error ?? removal.error} />
      {!items.data ? (
        !items.error && <Loading what="the items" />
      ) : items.data.items.length === 0 ? (
        <p className="empty">
          {page > 1 ? 'No items on this page.' : 'No items yet: add one, import a JSONL file, or copy calls from Logs.'}
        </p>
      ) : (
        <>
          <p className="muted">
            {total === 1 ? '1 item' : `${formatNumber(total)} items`} at version {dataset.version}, in the order they
            were added.
          </p>
          <div className="table-wrap">
            <table className="dataset-items">
              <caption className="visually-hidden">Items of the dataset, in the order they were added</caption>
              <thead>
                <tr>
                  <th scope="col" className="number">
                    #
                  </th>
                  <th scope="col">Inputs</th>
                  <th scope="col">Expected output</th>
                  <th scope="col">Tags</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.data.items.map((item, index) => {
                  const position = (page - 1) * PAGE_SIZE + index + 1;
                  return (
                    <tr key={item.id} data-item={position}>
                      <td className="number">{position}</td>
                      <td>
                        <code className="json-cell" title={JSON.stringify(item.inputs, null, 2)}>
                          {jsonPreview(item.inputs)}
                        </code>
                      </td>
                      <td>
                        {item.expectedOutput === null ? (
                          <span className="muted">None</span>
                        ) : (
                          <code className="json-cell" title={JSON.stringify(item.expectedOutput, null, 2)}>
                            {jsonPreview(item.expectedOutput)}
                          </code>
                        )}
                      </td>
                      <td>
                        <TagChips tags={sortedTags(item.tags)} empty="—" />
                      </td>
                      <td className="actions">
                        <Button
                          kind="danger"
                          blocked={blocked}
                          disabled={removal.busy}
                          onClick={() => remove(item, position)}
                        >
                          Delete<span className="visually-hidden"> item {position}</span>
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
      {items.data && (
        <Pager
          page={page}
          hasNextPage={page * PAGE_SIZE < items.data.total}
          onPage={(next) => setQuery({ page: next === 1 ? undefined : next })}
        />
      )}
    </section>
  );
}

/**
 * One item: its inputs in the test runner's form (the endpoint's input fields), the expected output as JSON and tags.
 * What the service refuses of an input is shown at that input.
 */
function AddItemForm({
  dataset,
  endpoint,
  onAdded,
  onCancel,
}: {
  dataset: Dataset;
  endpoint: Endpoint;
  onAdded: (itemCount: number) => void;
  onCancel: () => void;
}) {
  const fields = endpoint.inputFields;
  const [values, setValues] = useState<InputValues>(() => initialValues(fields));
  const [inputErrors, setInputErrors] = useState<Record<string, string>>({});
  const [expected, setExpected] = useState('');
  const [tags, setTags] = useState('');
  const [local, setLocal] = useState<{ expected?: string; tags?: string }>({});
  const saving = useAction();
  const refused = itemProblemsOf(messagesOf(saving.error));

  async function add(event: FormEvent) {
    event.preventDefault();
    const { inputs, errors } = inputsOf(fields, values);
    const expectedOutput = expectedOutputOf(expected);
    const itemTags = tagsOf(tags);
    setInputErrors(errors);
    setLocal({
      expected: 'problem' in expectedOutput ? expectedOutput.problem : undefined,
      tags: 'problem' in itemTags ? itemTags.problem : undefined,
    });
    saving.setError(null);
    if (Object.keys(errors).length > 0 || 'problem' in expectedOutput || 'problem' in itemTags) return;
    const added = await saving.run(() =>
      unwrap(
        api.POST('/admin/v1/datasets/{id}/items', {
          params: { path: { id: dataset.id } },
          body: { items: [{ inputs, expectedOutput: expectedOutput.value, tags: itemTags.tags }] },
        }),
      ),
    );
    if (added) onAdded(added.itemCount);
  }

  return (
    <form className="dataset-form" aria-label="New item" onSubmit={add} noValidate>
      <h3>New item</h3>
      <fieldset>
        <legend>Inputs</legend>
        <RunnerInputs
          fields={fields}
          values={values}
          errors={{ ...refused.inputs, ...inputErrors }}
          onChange={(name, value) => {
            setValues((previous) => ({ ...previous, [name]: value }));
            setInputErrors((previous) => ({ ...previous, [name]: '' }));
          }}
        />
      </fieldset>
      <Field
        label="Expected output"
        hint="JSON (a text in double quotes), compared with the output by equals and field checks. Empty: none."
        error={local.expected}
      >
        {(id) => (
          <textarea
            id={id}
            className="mono"
            rows={4}
            spellCheck={false}
            value={expected}
            onChange={(event) => setExpected(event.target.value)}
          />
        )}
      </Field>
      <Field label="Tags" hint="key=value, comma-separated. Optional." error={local.tags ?? refused.tags}>
        {(id) => (
          <input
            id={id}
            value={tags}
            onChange={(event) => setTags(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </Field>
      <FormProblems messages={refused.others} />
      <div className="form-actions start">
        <Button type="submit" kind="primary" disabled={saving.busy}>
          {saving.busy ? 'Adding…' : 'Add item'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}

/**
 * Items as JSONL, from a file or pasted: one `{inputs, expectedOutput?, tags?}` per line. Every line is read first,
 * and nothing is sent while one is wrong; then the items go in batches of at most 500, each added whole or not at
 * all. A batch the service refuses stops the import, its problems named by line; the batches before it stay added.
 */
function ImportJsonl({
  dataset,
  onImported,
  onPartlyImported,
  onClose,
}: {
  dataset: Dataset;
  onImported: (count: number, itemCount: number) => void;
  onPartlyImported: () => void;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [problems, setProblems] = useState<LineProblem[]>([]);
  const [summary, setSummary] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function read(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    file.text().then(
      (content) => {
        setText(content);
        setFileName(file.name);
        setProblems([]);
        setSummary(null);
      },
      () => setSummary(`${file.name} could not be read.`),
    );
  }

  async function send(event: FormEvent) {
    event.preventDefault();
    const parsed = parseJsonl(text);
    setSummary(null);
    if (parsed.problems.length > 0) {
      setProblems(parsed.problems);
      setSummary(
        `Nothing was imported: ${parsed.problems.length === 1 ? 'a line is' : `${parsed.problems.length} lines are`} not an item.`,
      );
      return;
    }
    if (parsed.lines.length === 0) {
      setProblems([]);
      setSummary('Nothing to import: give one item per line.');
      return;
    }
    setProblems([]);
    setBusy(true);
    const batches = batchesOf(parsed.lines, BATCH_SIZE);
    let added = 0;
    let itemCount = dataset.itemCount;
    try {
      for (const [index, batch] of batches.entries()) {
        if (batches.length > 1) setProgress(`Sending batch ${index + 1} of ${batches.length}…`);
        try {
          const answer = await unwrap(
            api.POST('/admin/v1/datasets/{id}/items', {
              params: { path: { id: dataset.id } },
              body: { items: batch.map((line) => line.item) },
            }),
          );
          added += batch.length;
          itemCount = answer.itemCount;
        } catch (error) {
          setProblems(lineProblemsOf(messagesOf(error), batch));
          const first = batch[0].line;
          setSummary(
            added === 0
              ? 'Nothing was imported: the service refused the items below.'
              : `Imported ${formatNumber(added)} items, the lines before line ${first}; nothing from line ${first} on was added. Fix the lines below and import those from line ${first} on again.`,
          );
          if (added > 0) onPartlyImported();
          return;
        }
      }
      onImported(added, itemCount);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <form className="dataset-form" aria-label="Import JSONL" onSubmit={send} noValidate>
      <h3>Import JSONL</h3>
      <p className="muted">
        One item per line: <code>{'{"inputs": {…}, "expectedOutput": …, "tags": {…}}'}</code>, expected output and tags
        optional. Up to {BATCH_SIZE} lines go in one request, all of them or none.
      </p>
      <Field label="JSONL file" hint={fileName ? `Read ${fileName} into the box below.` : 'Or paste the lines below.'}>
        {(id) => <input id={id} type="file" accept=".jsonl,.ndjson,.json,.txt,application/jsonl" onChange={read} />}
      </Field>
      <Field label="Lines">
        {(id) => (
          <textarea
            id={id}
            className="mono"
            rows={8}
            spellCheck={false}
            wrap="off"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </Field>
      {summary && (
        <div className="problems" role="alert">
          <p className="problems-title">{summary}</p>
          {problems.length > 0 && (
            <ul>
              {problems.map((problem, index) => (
                <li key={index}>{describeLineProblem(problem)}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <p role="status" className={progress ? 'muted' : 'visually-hidden'}>
        {progress}
      </p>
      <div className="form-actions start">
        <Button type="submit" kind="primary" disabled={busy || text.trim() === ''}>
          {busy ? 'Importing…' : 'Import'}
        </Button>
        <Button onClick={onClose}>Close</Button>
      </div>
    </form>
  );
}
