/** @jest-environment jsdom */
import { act, screen, within } from '@testing-library/react';
import { fakeApi } from '../../testing/fake-api';
import { renderForUser, signInAs } from '../../testing/dom';
import { PromptActions } from '../prompts/prompt-actions';
import type { Prompt } from '../prompts/prompt-draft';
import type { PromotionGate } from './promotion-gate';

jest.mock('../../api/client', () =>
  jest.requireActual<typeof import('../../testing/fake-api')>('../../testing/fake-api').fakeClientModule(),
);

const PROMOTE = '/admin/v1/prompts/{id}/promote';
const PROMPT = { id: 'p1', endpointId: 'e1', status: 'Draft', isDefault: false, currentVersion: 2 } as Prompt;
const GATE: PromotionGate = { datasetId: 'd1', minPassRate: 0.9, maxRegressions: 0 };
const REASONS = ['The pass rate 0.5 is below the required 0.9.', 'The run has 1 regression (at most 0 allowed).'];

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

beforeEach(() => {
  signInAs('ReadWrite');
  fakeApi()
    .reset()
    .on('GET', '/admin/v1/datasets/{id}', { data: { id: 'd1', endpointId: 'e1', name: 'Capitals' } })
    .on('GET', '/admin/v1/prompts/{id}/promotion-gate', {
      data: { gate: GATE, open: false, problems: REASONS, runId: 'r2' },
    })
    .on('GET', '/admin/v1/endpoints/{id}/eval-runs', {
      data: [
        {
          id: 'r2',
          endpointId: 'e1',
          datasetId: 'd1',
          status: 'completed',
          candidate: { promptId: 'p1', versionNumber: 2 },
          summary: { passRate: 0.5, regressions: 1 },
        },
      ],
    });
});

function render(gate: PromotionGate | null = GATE, writeBlock: string | null = null) {
  const onChanged = jest.fn();
  return {
    onChanged,
    ...renderForUser(<PromptActions prompt={PROMPT} writeBlock={writeBlock} gate={gate} onChanged={onChanged} />),
  };
}

it('says what the gate asks, that it is closed and why, and how the newest run of the version went', async () => {
  render();
  await settle();
  const note = screen.getByRole('note', { name: 'Promotion gate' });
  expect(note).toHaveTextContent(
    "Promoting a prompt needs a completed run of “Capitals”, at its current version, for the prompt's current " +
      'version against the current default, passing at least 90% of the items with no regressions.',
  );
  expect(note).toHaveTextContent('The gate is closed:');
  expect(
    within(note)
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(REASONS);
  expect(note).toHaveTextContent('Newest run of version 2: Completed, pass rate 50%, 1 regression.');
});

it('says when the gate is open', async () => {
  fakeApi().on('GET', '/admin/v1/prompts/{id}/promotion-gate', {
    data: { gate: GATE, open: true, problems: [], runId: 'r2' },
  });
  render();
  await settle();
  expect(screen.getByRole('note', { name: 'Promotion gate' })).toHaveTextContent(
    'The gate is open: promoting version 2 now passes it.',
  );
});

it('lists the gate’s reasons when it refuses, and promotes anyway only with a reason', async () => {
  fakeApi().on('POST', PROMOTE, (call) =>
    call.body ? { data: { ...PROMPT, status: 'Live' } } : { status: 409, messages: REASONS },
  );
  const { user, onChanged } = render();
  await settle();
  await user.click(screen.getByRole('button', { name: 'Promote to Live' }));
  const alert = await screen.findByText('The promotion gate is closed:');
  expect(
    within(alert.closest('[role=alert]') as HTMLElement)
      .getAllByRole('listitem')
      .map((li) => li.textContent),
  ).toEqual(REASONS);
  const force = screen.getByRole('form', { name: 'Promote anyway' });
  await user.click(within(force).getByRole('button', { name: 'Promote anyway' }));
  expect(within(force).getByText('Promoting past the gate needs a reason.')).toBeInTheDocument();
  expect(fakeApi().callsTo('POST', PROMOTE)).toHaveLength(1);

  await user.type(within(force).getByLabelText('Reason for promoting anyway'), 'Hotfix');
  await user.click(within(force).getByRole('button', { name: 'Promote anyway' }));
  await settle();
  expect(fakeApi().callsTo('POST', PROMOTE)[1].body).toEqual({ force: true, reason: 'Hotfix' });
  expect(onChanged).toHaveBeenCalledWith(expect.objectContaining({ status: 'Live' }));
  expect(screen.getByRole('status')).toHaveTextContent('Promoted past the promotion gate');
});

it('shows a refusal without a gate as the service’s message, with no way past it', async () => {
  fakeApi().on('POST', PROMOTE, { status: 409, messages: ['The prompt is not a Draft'] });
  const { user } = render(null);
  await user.click(screen.getByRole('button', { name: 'Promote to Live' }));
  await screen.findByText('The prompt is not a Draft');
  expect(screen.queryByRole('form', { name: 'Promote anyway' })).toBeNull();
  expect(screen.queryByRole('note', { name: 'Promotion gate' })).toBeNull();
});
