/** @jest-environment jsdom */
import { act, screen, within } from '@testing-library/react';
import type { Schemas } from '../../api/client';
import { fakeApi } from '../../testing/fake-api';
import { renderForUser, signInAs } from '../../testing/dom';
import type { Endpoint } from './endpoint-common';
import { TrafficSplitSection } from './traffic-split';

jest.mock('../../api/client', () =>
  jest.requireActual<typeof import('../../testing/fake-api')>('../../testing/fake-api').fakeClientModule(),
);

type Prompt = Schemas['PromptResponse'];
const ENDPOINT = '/admin/v1/endpoints/{id}';
const STATS = '/admin/v1/stats';

const prompt = (id: string, name: string, status: Prompt['status'], isDefault = false) =>
  ({ id, name, status, isDefault }) as Prompt;
const FRIENDLY = prompt('p-friendly', 'Friendly', 'Live', true);
const CONCISE = prompt('p-concise', 'Concise', 'Live');
const FORMAL = prompt('p-formal', 'Formal', 'Live');
const UNFINISHED = prompt('p-unfinished', 'Unfinished', 'Draft');

const endpoint = (trafficSplit: Endpoint['trafficSplit'] = null): Endpoint =>
  ({ id: 'e1', defaultPromptId: FRIENDLY.id, updatedAt: '2026-01-01T00:00:00Z', trafficSplit }) as Endpoint;
const totals = (calls: number, errors: number, p95: number, costUsd: number) => ({
  totals: { calls, errors, errorRate: calls ? errors / calls : null, latencyMs: { p95 }, costUsd },
});

/** Renders the section once its figures have loaded. */
async function renderSection(split: Endpoint['trafficSplit'], prompts: Prompt[] = [FRIENDLY, CONCISE, UNFINISHED]) {
  const onChanged = jest.fn();
  const rendered = renderForUser(
    <TrafficSplitSection endpoint={endpoint(split)} prompts={prompts} onChanged={onChanged} />,
  );
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  return { ...rendered, onChanged, panel: screen.getByRole('region', { name: 'Traffic split' }) };
}

beforeEach(() => {
  signInAs('ReadWrite');
  fakeApi()
    .reset()
    .on('GET', '/admin/v1/score-configs', { data: [] })
    .on('GET', STATS, {
      data: {
        groups: [
          { promptId: FRIENDLY.id, ...totals(36, 0, 120, 0.5) },
          { promptId: CONCISE.id, ...totals(4, 1, 80, 0.004) },
        ],
      },
    });
});

describe('Traffic split', () => {
  it('starts a new split at 90/10 between the default and another Live prompt, and saves it sticky by a header', async () => {
    const server = fakeApi().on('PUT', ENDPOINT, { data: {} });
    const { user, panel, onChanged } = await renderSection(null);
    expect(panel).toHaveTextContent('No split: the default prompt answers every call');
    await user.click(within(panel).getByRole('button', { name: 'Split traffic' }));

    const form = within(panel).getByRole('form', { name: 'Traffic split' });
    const first = within(form).getByLabelText('Prompt of variant 1');
    expect(first).toHaveDisplayValue('Friendly (default)');
    // The other variant's prompt and Drafts are not offered.
    expect(
      within(first)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Friendly (default)']);
    expect(within(form).getByLabelText('Prompt of variant 2')).toHaveDisplayValue('Concise');
    expect(within(form).getByLabelText('Weight of variant 1')).toHaveValue(90);
    expect(within(form).getByLabelText('Weight of variant 2')).toHaveValue(10);
    // Two variants are the fewest, and no other Live prompt is left to add.
    expect(within(form).getByRole('button', { name: 'Remove variant 1' })).toBeDisabled();
    expect(within(form).getByRole('button', { name: 'Add a prompt' })).toBeDisabled();

    const second = within(form).getByLabelText('Weight of variant 2');
    await user.clear(second);
    await user.type(second, '30');
    expect(within(form).getByText('Total: 120 % (the weights must sum to 100)')).toBeVisible();
    expect(within(form).getByRole('button', { name: 'Save split' })).toBeDisabled();
    await user.clear(second);
    await user.type(second, '10');
    expect(within(form).getByText(/^Total: 100 %/)).toBeVisible();

    expect(within(form).getByRole('radio', { name: 'the calling key' })).toBeChecked();
    await user.click(within(form).getByRole('radio', { name: 'a request header' }));
    const headerName = within(form).getByRole('textbox', { name: 'Header name' });
    expect(headerName).toHaveValue('x-user-id');
    await user.clear(headerName);
    await user.type(headerName, 'X-Customer');
    await user.click(within(form).getByRole('button', { name: 'Save split' }));

    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(within(panel).queryByRole('form')).not.toBeInTheDocument();
    expect(server.callsTo('PUT', ENDPOINT)).toEqual([
      {
        method: 'PUT',
        path: ENDPOINT,
        params: { path: { id: 'e1' } },
        body: {
          trafficSplit: {
            variants: [
              { promptId: FRIENDLY.id, weight: 90 },
              { promptId: CONCISE.id, weight: 10 },
            ],
            stickyBy: 'header:X-Customer',
          },
        },
      },
    ]);
  });

  it('adds a third prompt at weight 0 and removes one again', async () => {
    const { user, panel } = await renderSection(null, [FRIENDLY, CONCISE, FORMAL]);
    await user.click(within(panel).getByRole('button', { name: 'Split traffic' }));
    const form = within(panel).getByRole('form', { name: 'Traffic split' });
    await user.click(within(form).getByRole('button', { name: 'Add a prompt' }));
    expect(within(form).getByLabelText('Prompt of variant 3')).toHaveDisplayValue('Formal');
    expect(within(form).getByLabelText('Weight of variant 3')).toHaveValue(0);
    expect(within(form).getByRole('button', { name: 'Add a prompt' })).toBeDisabled();
    await user.click(within(form).getByRole('button', { name: 'Remove variant 1' }));
    expect(
      within(form)
        .getAllByRole('combobox')
        .map((select) => (select as HTMLSelectElement).value),
    ).toEqual([CONCISE.id, FORMAL.id]);
    expect(within(form).getByText('Total: 10 % (the weights must sum to 100)')).toBeVisible();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(within(panel).queryByRole('form')).not.toBeInTheDocument();
  });

  it("shows a split's prompts with their weights beside their figures, and removes the split", async () => {
    const server = fakeApi().on('PUT', ENDPOINT, { data: {} });
    const { user, panel, onChanged } = await renderSection({
      variants: [
        { promptId: FRIENDLY.id, weight: 90 },
        { promptId: CONCISE.id, weight: 10 },
      ],
      stickyBy: 'key',
    });
    expect(panel).toHaveTextContent('Each key stays on one prompt.');
    const table = within(panel).getByRole('table', { name: 'Traffic split and figures per prompt' });
    await within(table).findByText('$0.5000');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Friendly', '90 %', '36', '0.0 %', '120 ms', '$0.5000'],
      ['Concise', '10 %', '4', '25.0 %', '80 ms', '$0.0040'],
    ]);
    expect(within(rows[0]).getByRole('link', { name: 'Friendly' })).toHaveAttribute(
      'href',
      `/endpoints/e1/prompts/${FRIENDLY.id}`,
    );
    expect(server.callsTo('GET', STATS)[0].params).toEqual({
      query: { endpointId: 'e1', groupBy: 'prompt', source: 'Api' },
    });

    await user.click(within(panel).getByRole('button', { name: 'Remove split' }));
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(server.callsTo('PUT', ENDPOINT).map((call) => call.body)).toEqual([{ trafficSplit: null }]);
  });

  it('edits a split sticky by a header from its stored values', async () => {
    const { user, panel } = await renderSection({
      variants: [
        { promptId: CONCISE.id, weight: 50 },
        { promptId: FRIENDLY.id, weight: 50 },
      ],
      stickyBy: 'header:x-tenant',
    });
    expect(panel).toHaveTextContent('Each value of the x-tenant header stays on one prompt');
    await user.click(within(panel).getByRole('button', { name: 'Edit split' }));
    const form = within(panel).getByRole('form', { name: 'Traffic split' });
    expect(within(form).getByLabelText('Prompt of variant 1')).toHaveDisplayValue('Concise');
    expect(within(form).getByLabelText('Weight of variant 2')).toHaveValue(50);
    expect(within(form).getByRole('radio', { name: 'a request header' })).toBeChecked();
    expect(within(form).getByRole('textbox', { name: 'Header name' })).toHaveValue('x-tenant');
  });

  it("shows the service's refusal and keeps the form open", async () => {
    fakeApi().on('PUT', ENDPOINT, { status: 400, messages: ['trafficSplit.variants must reference Live prompts'] });
    const { user, panel, onChanged } = await renderSection(null);
    await user.click(within(panel).getByRole('button', { name: 'Split traffic' }));
    const form = within(panel).getByRole('form', { name: 'Traffic split' });
    await user.click(within(form).getByRole('button', { name: 'Save split' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'trafficSplit.variants must reference Live prompts',
    );
    expect(within(form).getByRole('button', { name: 'Save split' })).toBeEnabled();
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('says why a split cannot start with fewer than two Live prompts, and why a ReadOnly key cannot change one', async () => {
    const { unmount } = await renderSection(null, [FRIENDLY, UNFINISHED]);
    const split = screen.getByRole('button', { name: 'Split traffic' });
    expect(split).toBeDisabled();
    expect(split).toHaveAccessibleDescription('A split needs at least two Live prompts');
    unmount();

    signInAs('ReadOnly');
    await renderSection({ variants: [{ promptId: FRIENDLY.id, weight: 100 }], stickyBy: 'none' });
    for (const name of ['Edit split', 'Remove split']) {
      expect(screen.getByRole('button', { name })).toBeDisabled();
      expect(screen.getByRole('button', { name })).toHaveAccessibleDescription(
        'Your key is ReadOnly: it can look at everything but change nothing.',
      );
    }
  });
});
