/** @jest-environment jsdom */
import { act, screen, waitFor, within } from '@testing-library/react';
import { Route, Router } from 'wouter';
import { useHashPath } from '../../router';
import { fakeApi } from '../../testing/fake-api';
import { renderForUser, signInAs } from '../../testing/dom';
import RunPage from './run-page';
import type { EvalRun, EvalRunItem, EvalSide } from './rules';

jest.mock('../../api/client', () =>
  jest.requireActual<typeof import('../../testing/fake-api')>('../../testing/fake-api').fakeClientModule(),
);

const RUN = '/admin/v1/eval-runs/{id}';
const ITEMS = '/admin/v1/eval-runs/{id}/items';

function runOf(status: EvalRun['status'], regressions = 0): EvalRun {
  return {
    id: 'r1',
    endpointId: 'e1',
    datasetId: 'd1',
    datasetVersion: 2,
    status,
    candidate: { promptId: 'p2', versionNumber: 1 },
    baseline: { promptId: 'p1', versionNumber: 3 },
    concurrency: 4,
    repeats: 1,
    fresh: false,
    summary: {
      items: 2,
      passed: 1,
      failed: 1,
      passRate: 0.5,
      baselinePassRate: 1,
      regressions,
      improvements: 0,
      costUsd: 0,
      durationMs: 1200,
    },
    errorMessage: null,
    createdAt: '2026-11-26T10:00:00Z',
    startedAt: '2026-11-26T10:00:00Z',
    finishedAt: null,
  };
}

function side(output: string, passed: boolean | null): EvalSide {
  return {
    passed,
    output,
    checks: passed === null ? [] : [{ type: 'contains', pass: passed, reason: passed ? null : 'No “Paris” in it' }],
    errorMessage: null,
    latencyMs: 12,
    costUsd: 0,
    cached: false,
    logId: 'l1',
    repeats: [],
  };
}

const regressed: EvalRunItem = {
  itemId: 'i1',
  position: 0,
  inputs: { country: 'France' },
  expectedOutput: null,
  verdict: 'regressed',
  candidate: side('The capital is Lyon', false),
  baseline: side('The capital is Paris', true),
};
const passing: EvalRunItem = {
  ...regressed,
  itemId: 'i2',
  position: 1,
  inputs: { country: 'Peru' },
  verdict: 'unchanged_pass',
  candidate: side('Lima', true),
  baseline: side('Lima', true),
};

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

function render() {
  location.hash = '#/endpoints/e1/eval-runs/r1';
  return renderForUser(
    <Router hook={useHashPath}>
      <Route path="/endpoints/:id/eval-runs/:runId" component={RunPage} />
    </Router>,
  );
}

beforeEach(() => {
  signInAs('ReadWrite');
  fakeApi()
    .reset()
    .on('GET', '/admin/v1/datasets/{id}', { data: { id: 'd1', endpointId: 'e1', name: 'Capitals' } })
    .on('GET', '/admin/v1/prompts', {
      data: [
        { id: 'p1', name: 'Plain' },
        { id: 'p2', name: 'Terse' },
      ],
    });
});

it('asks again while the run goes on, and no more once it has ended', async () => {
  let status: EvalRun['status'] = 'running';
  fakeApi()
    .on('GET', RUN, () => ({ data: runOf(status, status === 'completed' ? 1 : 0) }))
    .on('GET', ITEMS, () => ({
      data: status === 'completed' ? [regressed, passing] : [{ ...regressed, verdict: null }, passing],
    }));
  render();
  await screen.findByText(/1 of 2 items done/);
  expect(screen.getByRole('progressbar', { name: 'Items done' })).toBeInTheDocument();
  expect(fakeApi().callsTo('GET', RUN)).toHaveLength(1);

  status = 'completed';
  await waitFor(() => expect(fakeApi().callsTo('GET', RUN)).toHaveLength(2), { timeout: 5000 });
  await screen.findByText('Completed');
  expect(screen.queryByRole('progressbar')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull();

  // Well past the next poll's time: no further request.
  await act(() => new Promise((resolve) => setTimeout(resolve, 3000)));
  expect(fakeApi().callsTo('GET', RUN)).toHaveLength(2);
});

it('shows the regressions side by side with the outputs’ diff, and every item on request', async () => {
  fakeApi()
    .on('GET', RUN, { data: { ...runOf('completed', 1), finishedAt: '2026-11-26T10:00:02Z' } })
    .on('GET', ITEMS, { data: [regressed, passing] });
  const { user } = render();
  await screen.findByRole('heading', { level: 1, name: 'Run of Capitals' });
  await settle();
  expect(screen.getAllByRole('article').map((item) => item.getAttribute('aria-labelledby'))).toEqual(['item-i1']);
  const item = screen.getByRole('article', { name: 'Item 1' });
  expect(within(item).getByText('Regressed')).toBeInTheDocument();
  const candidate = within(item).getByRole('region', { name: 'Candidate' });
  expect(within(candidate).getByText('The capital is Lyon')).toBeInTheDocument();
  expect(within(candidate).getByText(/No “Paris” in it/)).toBeInTheDocument();
  expect(within(item).getByRole('region', { name: 'Baseline' })).toHaveTextContent('Passes');
  const diff = within(item).getByRole('table', { name: /Unified diff of item 1's output from Baseline to Candidate/ });
  expect(
    within(diff)
      .getAllByRole('row')
      .map((row) => row.textContent),
  ).toEqual([
    'BLine in BaselineCLine in CandidateLine',
    '1−Removed: The capital is Paris',
    '1+Added: The capital is Lyon',
  ]);

  await user.click(screen.getByRole('button', { name: 'All items (2)' }));
  expect(screen.getAllByRole('article')).toHaveLength(2);
  expect(screen.getByRole('article', { name: 'Item 2' })).toHaveTextContent(
    "The candidate's output is the same as the baseline's.",
  );
});

it('cancels a queued run and shows it cancelled', async () => {
  let status: EvalRun['status'] = 'queued';
  fakeApi()
    .on('GET', RUN, () => ({ data: runOf(status) }))
    .on('GET', ITEMS, { data: [] })
    .on('POST', '/admin/v1/eval-runs/{id}/cancel', () => {
      status = 'cancelled';
      return { data: runOf(status) };
    });
  const { user } = render();
  await user.click(await screen.findByRole('button', { name: 'Cancel run' }));
  await screen.findByText('Cancelled');
  expect(fakeApi().callsTo('POST', '/admin/v1/eval-runs/{id}/cancel')).toHaveLength(1);
});
