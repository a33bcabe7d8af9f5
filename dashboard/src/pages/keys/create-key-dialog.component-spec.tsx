/** @jest-environment jsdom */
import { screen, within } from '@testing-library/react';
import { fakeApi } from '../../testing/fake-api';
import { renderForUser, signInAs } from '../../testing/dom';
import { CreateKeyDialog } from './create-key-dialog';

jest.mock('../../api/client', () =>
  jest.requireActual<typeof import('../../testing/fake-api')>('../../testing/fake-api').fakeClientModule(),
);

const ENDPOINTS = [
  { id: 'e-summarize', name: 'Summarize', path: '/api/v1/summarize' },
  { id: 'e-translate', name: 'Translate', path: '/api/v1/translate' },
];
const CREATED = { id: 'k1', name: 'CI caller', key: 'ep_test_secret' };

function renderDialog({ moreEndpoints = false } = {}) {
  const onCreated = jest.fn();
  const onCancel = jest.fn();
  const rendered = renderForUser(
    <CreateKeyDialog
      open
      endpoints={ENDPOINTS}
      moreEndpoints={moreEndpoints}
      onCancel={onCancel}
      onCreated={onCreated}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Create a key' });
  return { ...rendered, dialog, onCreated, onCancel };
}

beforeEach(() => (signInAs('ReadWrite'), fakeApi().reset()));

describe('Create a key', () => {
  it('offers Create key once the key has a name', async () => {
    const { user, dialog } = renderDialog();
    const create = within(dialog).getByRole('button', { name: 'Create key' });
    expect(create).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Name'), '   ');
    expect(create).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Name'), 'CI caller');
    expect(create).toBeEnabled();
  });

  it('creates a test endpoint key restricted to the endpoints picked, with its own limit per minute', async () => {
    const server = fakeApi().on('POST', '/admin/v1/keys', { status: 201, data: CREATED });
    const { user, dialog, onCreated } = renderDialog();
    await user.type(within(dialog).getByLabelText('Name'), ' CI caller ');
    expect(within(dialog).getByRole('radio', { name: /^Endpoint key/ })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: /^test/ }));
    await user.click(within(dialog).getByRole('radio', { name: 'Only the endpoints picked below' }));
    const choices = within(dialog).getByRole('list', { name: 'Endpoints' });
    expect(
      within(choices)
        .getAllByRole('checkbox')
        .map((box) => box.closest('label')?.textContent),
    ).toEqual(['Summarize /api/v1/summarize', 'Translate /api/v1/translate']);

    // Nothing picked: the form says what is missing instead of sending an empty restriction.
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Pick at least one endpoint, or allow every endpoint.');
    expect(server.calls).toEqual([]);

    await user.click(within(choices).getByRole('checkbox', { name: /^Summarize/ }));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Requests per minute'), '120');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));

    expect(onCreated).toHaveBeenCalledWith(CREATED);
    expect(server.calls.map((call) => call.body)).toEqual([
      {
        name: 'CI caller',
        type: 'endpoint',
        environment: 'test',
        endpointIds: ['e-summarize'],
        rateLimitPerMinute: 120,
      },
    ]);
  });

  it('creates a live key for every endpoint by default', async () => {
    const server = fakeApi().on('POST', '/admin/v1/keys', { status: 201, data: CREATED });
    const { user, dialog } = renderDialog();
    await user.type(within(dialog).getByLabelText('Name'), 'Checkout');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(server.calls.map((call) => call.body)).toEqual([
      { name: 'Checkout', type: 'endpoint', environment: 'live', endpointIds: null },
    ]);
  });

  it('asks an admin key for a permission instead of an environment and endpoints', async () => {
    const server = fakeApi().on('POST', '/admin/v1/keys', { status: 201, data: CREATED });
    const { user, dialog } = renderDialog();
    await user.type(within(dialog).getByLabelText('Name'), 'Auditor');
    await user.click(within(dialog).getByRole('radio', { name: /^Admin key/ }));
    expect(within(dialog).queryByRole('group', { name: 'Environment' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('group', { name: 'Endpoints it may call' })).not.toBeInTheDocument();
    const permission = within(dialog).getByRole('group', { name: 'Permission' });
    expect(within(permission).getByRole('radio', { name: /^ReadWrite/ })).toBeChecked();
    await user.click(within(permission).getByRole('radio', { name: /^ReadOnly/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(server.calls.map((call) => call.body)).toEqual([{ name: 'Auditor', type: 'admin', permission: 'ReadOnly' }]);
  });

  it('names a rate limit out of bounds beside its box and sends nothing', async () => {
    const server = fakeApi();
    const { user, dialog } = renderDialog();
    await user.type(within(dialog).getByLabelText('Name'), 'Greedy');
    const perHour = within(dialog).getByLabelText('Requests per hour');
    expect(perHour).toHaveAttribute('placeholder', '1000');
    await user.type(perHour, '0');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/^A whole number from 1 to [\d,]+\.$/);
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(server.calls).toEqual([]);
    await user.clear(perHour);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says that only the first endpoints are listed when the tenant has more', async () => {
    const { user, dialog } = renderDialog({ moreEndpoints: true });
    await user.click(within(dialog).getByRole('radio', { name: 'Only the endpoints picked below' }));
    expect(within(dialog).getByText('Only the first 2 endpoints are listed.')).toBeVisible();
  });

  it("shows the service's refusal, says Creating… while it waits, and lets the user try again", async () => {
    const server = fakeApi().on('POST', '/admin/v1/keys', {
      status: 403,
      messages: ['This key may not create keys: it is ReadOnly'],
    });
    const held = server.hold('POST', '/admin/v1/keys');
    const { user, dialog, onCreated } = renderDialog();
    await user.type(within(dialog).getByLabelText('Name'), 'Denied');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(within(dialog).getByRole('button', { name: 'Creating…' })).toBeDisabled();
    held.release();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This key may not create keys: it is ReadOnly');
    expect(within(dialog).getByRole('button', { name: 'Create key' })).toBeEnabled();
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('closes on Cancel', async () => {
    const { user, dialog, onCancel } = renderDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
