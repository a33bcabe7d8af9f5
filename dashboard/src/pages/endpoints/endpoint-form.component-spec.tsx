/** @jest-environment jsdom */
import { act, screen, waitFor, within } from '@testing-library/react';
import { fakeApi } from '../../testing/fake-api';
import { renderForUser, signInAs } from '../../testing/dom';
import { type Endpoint, PATH_RULE } from './endpoint-common';
import { EndpointForm } from './endpoint-form';

jest.mock('../../api/client', () =>
  jest.requireActual<typeof import('../../testing/fake-api')>('../../testing/fake-api').fakeClientModule(),
);

const ENDPOINTS = '/admin/v1/endpoints';
const STORED = {
  id: 'e1',
  name: 'Translate',
  path: '/api/v1/translate',
  description: 'Translates a text',
  category: 'text',
  visibility: 'Public',
  cacheEnabled: false,
  cacheDurationSeconds: 300,
  rateLimitPerMinute: 20,
  rateLimitPerHour: null,
  rateLimitPerDay: null,
  timeoutSeconds: 60,
} as Endpoint;

/** The hint shown under a field's control. */
const hintOf = (control: HTMLElement) => control.closest('.field')?.querySelector('.hint');

/** Renders the form once the tenant's categories (read from its endpoints) have loaded. */
async function renderForm(endpoint?: Endpoint) {
  const onSaved = jest.fn();
  const onCancel = jest.fn();
  const rendered = renderForUser(<EndpointForm endpoint={endpoint} onSaved={onSaved} onCancel={onCancel} />);
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  const form = screen.getByRole('form', { name: endpoint ? `Edit ${endpoint.name}` : 'New endpoint' });
  return { ...rendered, form, onSaved, onCancel };
}

beforeEach(() => {
  signInAs('ReadWrite');
  fakeApi()
    .reset()
    .on('GET', ENDPOINTS, { data: [{ category: 'text' }, { category: 'support' }, { category: null }] });
});

describe('Endpoint form', () => {
  it("makes a new endpoint's path from its name until the path is edited", async () => {
    const { user, form } = await renderForm();
    const path = within(form).getByLabelText('Path');
    expect(path).toHaveValue('/api/v1/');
    await user.type(within(form).getByLabelText('Name'), 'Summarize Émails!');
    expect(path).toHaveValue('/api/v1/summarize-emails');
    expect(hintOf(path)).toHaveTextContent(/POST \/api\/v1\/summarize-emails.*it follows the name until you edit it\./);

    await user.type(path, '-v2');
    await user.type(within(form).getByLabelText('Name'), ' again');
    expect(path).toHaveValue('/api/v1/summarize-emails-v2');
    expect(hintOf(path)).not.toHaveTextContent(/follows the name/);
  });

  it("suggests the tenant's categories", async () => {
    const { form } = await renderForm();
    const category = within(form).getByLabelText('Category');
    expect(hintOf(category)).toHaveTextContent('Pick one of your categories, or type a new one. Empty for none.');
    const list = document.getElementById(category.getAttribute('list') ?? '');
    expect([...(list?.querySelectorAll('option') ?? [])].map((option) => option.value)).toEqual(['support', 'text']);
  });

  it('names each problem beside its field, focuses the first, and sends nothing', async () => {
    const { user, form } = await renderForm();
    const path = within(form).getByLabelText('Path');
    await user.clear(path);
    await user.type(path, '/summarize');
    const duration = within(form).getByLabelText('Cache duration (seconds)');
    await user.clear(duration);
    await user.type(duration, '0');
    await user.type(within(form).getByLabelText('Per hour'), '-5');
    const timeout = within(form).getByLabelText('Timeout (seconds)');
    await user.clear(timeout);
    await user.click(within(form).getByRole('button', { name: 'Create endpoint' }));

    const errors = within(form)
      .getAllByRole('alert')
      .map((alert) => alert.textContent);
    expect(errors).toEqual([
      'Required: give the endpoint a name',
      PATH_RULE,
      expect.stringMatching(/^Must be from 1 to [\d,]+$/),
      expect.stringMatching(/^Must be from 1 to [\d,]+$/),
      expect.stringMatching(/^Required: a whole number from 1 to \d+$/),
    ]);
    for (const label of ['Name', 'Path', 'Cache duration (seconds)', 'Per hour', 'Timeout (seconds)'])
      expect(within(form).getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(within(form).getByLabelText('Name')).toHaveFocus());
    expect(fakeApi().callsTo('POST', ENDPOINTS)).toEqual([]);

    // Typing in a field takes its problem away.
    await user.type(within(form).getByLabelText('Name'), 'Summarize');
    expect(within(form).getAllByRole('alert')).toHaveLength(4);
  });

  it('creates an Internal endpoint with its cache and limits, and hands over what the service answered', async () => {
    const created = { ...STORED, id: 'e-new' };
    const server = fakeApi().on('POST', ENDPOINTS, { status: 201, data: created });
    const { user, form, onSaved } = await renderForm();
    await user.type(within(form).getByLabelText('Name'), 'Summarize');
    await user.type(within(form).getByLabelText('Description'), 'Summarizes a text');
    await user.type(within(form).getByLabelText('Category'), ' text ');
    await user.click(within(form).getByRole('radio', { name: /^Internal/ }));
    await user.click(within(form).getByRole('checkbox', { name: 'Answer identical requests from the cache' }));
    const duration = within(form).getByLabelText('Cache duration (seconds)');
    await user.clear(duration);
    await user.type(duration, '600');
    await user.type(within(form).getByLabelText('Per minute'), '20');
    await user.click(within(form).getByRole('button', { name: 'Create endpoint' }));

    expect(onSaved).toHaveBeenCalledWith(created);
    expect(server.callsTo('POST', ENDPOINTS).map((call) => call.body)).toEqual([
      {
        name: 'Summarize',
        path: '/api/v1/summarize',
        description: 'Summarizes a text',
        category: 'text',
        visibility: 'Private',
        cacheEnabled: true,
        cacheDurationSeconds: 600,
        rateLimitPerMinute: 20,
        rateLimitPerHour: null,
        rateLimitPerDay: null,
        timeoutSeconds: 60,
      },
    ]);
  });

  it("puts the service's refusals beside the fields they name, and the others above the buttons", async () => {
    fakeApi().on('POST', ENDPOINTS, {
      status: 409,
      messages: ['path /api/v1/summarize is already used by another endpoint'],
    });
    const { user, form, onSaved } = await renderForm();
    await user.type(within(form).getByLabelText('Name'), 'Summarize');
    await user.click(within(form).getByRole('button', { name: 'Create endpoint' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'path /api/v1/summarize is already used by another endpoint',
    );
    expect(within(form).getByLabelText('Path')).toHaveAttribute('aria-invalid', 'true');

    fakeApi().on('POST', ENDPOINTS, {
      status: 400,
      messages: ['timeoutSeconds must not be greater than 300', 'The plan allows at most 10 endpoints'],
    });
    await user.click(within(form).getByRole('button', { name: 'Create endpoint' }));
    await within(form).findByText('The service refused this:');
    expect(
      within(form)
        .getAllByRole('alert')
        .map((alert) => alert.textContent),
    ).toEqual([
      'timeoutSeconds must not be greater than 300',
      'The service refused this:The plan allows at most 10 endpoints',
    ]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('changes an endpoint from its stored settings, its path no longer following the name', async () => {
    const server = fakeApi().on('PUT', '/admin/v1/endpoints/{id}', { data: { ...STORED, name: 'Translator' } });
    const { user, form, onSaved, onCancel } = await renderForm(STORED);
    expect(within(form).getByLabelText('Per minute')).toHaveValue(20);
    expect(within(form).getByLabelText('Per hour')).toHaveValue(null);
    expect(within(form).getByRole('radio', { name: /^Public/ })).toBeChecked();
    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), 'Translator');
    expect(within(form).getByLabelText('Path')).toHaveValue('/api/v1/translate');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(onSaved).toHaveBeenCalledWith({ ...STORED, name: 'Translator' });
    expect(server.callsTo('PUT', '/admin/v1/endpoints/{id}')).toEqual([
      expect.objectContaining({
        params: { path: { id: 'e1' } },
        body: expect.objectContaining({ name: 'Translator', path: '/api/v1/translate', rateLimitPerMinute: 20 }),
      }),
    ]);

    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('lets a ReadOnly key read the form but not send it, saying why', async () => {
    signInAs('ReadOnly');
    const { form } = await renderForm(STORED);
    const save = within(form).getByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription('Your key is ReadOnly: it can look at everything but change nothing.');
  });
});
