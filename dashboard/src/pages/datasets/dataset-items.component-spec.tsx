/** @jest-environment jsdom */
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { Schemas } from '../../api/client';
import { fakeApi } from '../../testing/fake-api';
import { renderForUser, signInAs } from '../../testing/dom';
import type { Endpoint } from '../endpoints/endpoint-common';
import { AddToDataset } from './add-to-dataset';
import { DatasetItems } from './dataset-items';
import type { Dataset, ItemBody } from './rules';

jest.mock('../../api/client', () =>
  jest.requireActual<typeof import('../../testing/fake-api')>('../../testing/fake-api').fakeClientModule(),
);

const ITEMS = '/admin/v1/datasets/{id}/items';
const DATASET = {
  id: 'd1',
  endpointId: 'e1',
  name: 'Capitals',
  version: 0,
  itemCount: 0,
  checks: [],
} as unknown as Dataset;
const ENDPOINT = { id: 'e1', inputFields: [] } as unknown as Endpoint;

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

async function openImport() {
  const onChanged = jest.fn();
  const rendered = renderForUser(<DatasetItems dataset={DATASET} endpoint={ENDPOINT} onChanged={onChanged} />);
  await settle();
  await rendered.user.click(screen.getByRole('button', { name: 'Import JSONL' }));
  const form = screen.getByRole('form', { name: 'Import JSONL' });
  /** Puts `text` in the box (at once: typing 500 lines would take a while) and imports it. */
  const importText = async (text: string) => {
    fireEvent.change(within(form).getByLabelText('Lines'), { target: { value: text } });
    await rendered.user.click(within(form).getByRole('button', { name: 'Import' }));
    await settle();
  };
  return { ...rendered, onChanged, form, importText };
}

const line = (country: string) => JSON.stringify({ inputs: { country } });

beforeEach(() => {
  signInAs('ReadWrite');
  fakeApi()
    .reset()
    .on('GET', ITEMS, { data: { items: [], page: 1, pageSize: 20, total: 0, totalIsExact: true } });
});

describe('Import JSONL', () => {
  it('sends the items in batches of 500 and says how many were imported', async () => {
    let itemCount = 0;
    const server = fakeApi().on('POST', ITEMS, (call) => {
      itemCount += (call.body as { items: ItemBody[] }).items.length;
      return { data: { itemIds: [], version: 1, itemCount }, status: 201 };
    });
    const { importText, onChanged } = await openImport();
    await importText(Array.from({ length: 1001 }, (_, index) => line(`c${index}`)).join('\n'));
    const batches = server.callsTo('POST', ITEMS).map((call) => (call.body as { items: ItemBody[] }).items);
    expect(batches.map((batch) => batch.length)).toEqual([500, 500, 1]);
    expect(batches[2][0]).toEqual({ inputs: { country: 'c1000' } });
    expect(screen.getByText('Imported 1,001 items: the dataset holds 1,001.')).toBeInTheDocument();
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('stops at a refused batch, naming its lines, and says which lines went in before it', async () => {
    const server = fakeApi().on('POST', ITEMS, (call) =>
      (call.body as { items: ItemBody[] }).items.length === 500
        ? { data: { itemIds: [], version: 1, itemCount: 500 }, status: 201 }
        : { status: 400, messages: ["items.1.inputs.country: Field 'country' is required"] },
    );
    const { importText, onChanged, form } = await openImport();
    const lines = Array.from({ length: 502 }, (_, index) => line(`c${index}`));
    lines[501] = '{"inputs": {}}';
    await importText(lines.join('\n'));
    expect(server.callsTo('POST', ITEMS)).toHaveLength(2);
    const alert = within(form).getByRole('alert');
    expect(alert).toHaveTextContent(
      'Imported 500 items, the lines before line 501; nothing from line 501 on was added. Fix the lines below and import those from line 501 on again.',
    );
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(["Line 502: inputs.country: Field 'country' is required"]);
    // The dataset changed: its page reads it again, and the form stays open for the fix.
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('sends nothing while a line is not an item', async () => {
    const server = fakeApi().on('POST', ITEMS, { status: 500, messages: ['not called'] });
    const { importText, form } = await openImport();
    await importText([line('Peru'), '{"inputs": [1]}', '', 'nope'].join('\n'));
    expect(server.callsTo('POST', ITEMS)).toHaveLength(0);
    const alert = within(form).getByRole('alert');
    expect(alert).toHaveTextContent('Nothing was imported: 2 lines are not an item.');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Line 2: inputs must be an object', expect.stringMatching(/^Line 4: not valid JSON/)]);
  });
});

type Log = Schemas['ExecutionLogDetailResponse'];
const log = (values: Partial<Log>) =>
  ({ id: 'l1', endpointId: 'e1', status: 'success', truncatedFields: [], ...values }) as Log;

describe('Add to a dataset', () => {
  beforeEach(() => {
    fakeApi().on('GET', '/admin/v1/endpoints/{id}/datasets', { data: [{ ...DATASET, itemCount: 2 }] });
  });

  it('copies the call with its output by default', async () => {
    const server = fakeApi().on('POST', '/admin/v1/datasets/{id}/items/from-logs', {
      data: { itemIds: ['i1'], version: 3, itemCount: 3 },
      status: 201,
    });
    const { user } = renderForUser(<AddToDataset log={log({})} />);
    await settle();
    expect(screen.getByLabelText('Use its output as the expected output')).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Add to dataset' }));
    await settle();
    expect(server.callsTo('POST', '/admin/v1/datasets/{id}/items/from-logs')[0]).toMatchObject({
      params: { path: { id: 'd1' } },
      body: { logIds: ['l1'], withOutput: true },
    });
    expect(screen.getByRole('status')).toHaveTextContent('Added to Capitals: it holds 3 items.');
  });

  it('offers no output of a failed call, and nothing of a call whose inputs the log cut', async () => {
    renderForUser(<AddToDataset log={log({ status: 'error' })} />);
    await settle();
    const output = screen.getByLabelText('Use its output as the expected output');
    expect(output).toBeDisabled();
    expect(output).not.toBeChecked();
    expect(screen.getByText('The call failed, so it has no output to copy.')).toBeInTheDocument();

    const cut = renderForUser(<AddToDataset log={log({ id: 'l2', truncatedFields: ['inputs'] })} />);
    await settle();
    expect(cut.container).toHaveTextContent('The inputs were cut by the log size limit');
    expect(within(cut.container).queryByRole('button', { name: 'Add to dataset' })).toBeNull();
  });
});
