/** @jest-environment jsdom */
import { screen, waitFor, within } from '@testing-library/react';
import { fakeApi } from '../../../testing/fake-api';
import { renderForUser, signInAs } from '../../../testing/dom';
import type { Endpoint } from '../endpoint-common';
import { InputFieldsSection, OutputFieldsSection } from '.';

jest.mock('../../../api/client', () =>
  jest.requireActual<typeof import('../../../testing/fake-api')>('../../../testing/fake-api').fakeClientModule(),
);

const ENDPOINT_ID = '00000000-0000-4000-8000-000000000001';
const FIELDS = `/admin/v1/endpoints/{id}/input-fields`;
const FIELD = `/admin/v1/endpoints/{id}/input-fields/{fieldId}`;

const endpoint = (fields: Partial<Pick<Endpoint, 'inputFields' | 'outputFields'>> = {}): Endpoint =>
  ({ id: ENDPOINT_ID, inputFields: [], outputFields: [], ...fields }) as Endpoint;

const text = {
  id: 'f-text',
  name: 'text',
  dataType: 'string',
  isRequired: true,
  description: 'The text to summarize',
  maxLength: 2000,
  minimum: null,
  maximum: null,
  defaultValue: null,
} as const;
const sentences = {
  ...text,
  id: 'f-sentences',
  name: 'sentences',
  dataType: 'integer',
  isRequired: false,
  description: '',
  maxLength: null,
  minimum: 1,
  maximum: 5,
  defaultValue: 2,
} as const;

function renderInputs(inputFields: Endpoint['inputFields'] = []) {
  const onChanged = jest.fn();
  const rendered = renderForUser(<InputFieldsSection endpoint={endpoint({ inputFields })} onChanged={onChanged} />);
  return { ...rendered, onChanged };
}

beforeEach(() => (signInAs('ReadWrite'), fakeApi().reset()));

describe('Input fields', () => {
  it('lists each field with its type, rules, default and description', () => {
    renderInputs([text, sentences]);
    const table = screen.getByRole('table', { name: 'Input fields' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Text', 'at most 2,000 characters', '—', 'The text to summarize', 'EditDelete'],
      ['Integer', 'from 1 to 5', '2', '—', 'EditDelete'],
    ]);
    expect(within(rows[0]).getByRole('rowheader')).toHaveTextContent('text Required');
    expect(within(rows[1]).getByRole('rowheader')).toHaveTextContent('sentences optional');
  });

  it('says what to add when there is no field yet', () => {
    renderInputs();
    expect(screen.getByText(/No input fields yet/)).toBeVisible();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('names the problems of a draft beside their fields and sends nothing until they are fixed', async () => {
    const server = fakeApi().on('POST', FIELDS, { status: 201, data: { id: 'f-new' } });
    const { user, onChanged } = renderInputs();
    await user.click(screen.getByRole('button', { name: 'Add input field' }));
    expect(screen.getByRole('button', { name: 'Add input field' })).toBeDisabled();
    const form = screen.getByRole('form', { name: 'New input field' });

    await user.click(within(form).getByRole('button', { name: 'Add field' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Required: the key callers send');
    expect(within(form).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');

    await user.type(within(form).getByLabelText('Name'), '2nd');
    // Typing clears the problem shown beside the field; sending again names the next one.
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Add field' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Letters, digits and _ only, not starting with a digit');

    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), 'sentences');
    await user.selectOptions(within(form).getByLabelText('Data type'), 'integer');
    expect(within(form).queryByLabelText('Maximum length')).not.toBeInTheDocument();
    await user.type(within(form).getByLabelText('Minimum'), '1');
    await user.type(within(form).getByLabelText('Maximum'), '10');
    await user.type(within(form).getByLabelText('Default value'), '12');
    await user.click(within(form).getByRole('button', { name: 'Add field' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Must be between 1 and 10 (the minimum and maximum)');
    expect(server.calls).toEqual([]);

    await user.clear(within(form).getByLabelText('Default value'));
    await user.type(within(form).getByLabelText('Default value'), '3');
    await user.click(within(form).getByRole('checkbox', { name: 'Required' }));
    await user.click(within(form).getByRole('button', { name: 'Add field' }));

    expect(await screen.findByRole('button', { name: 'Add input field' })).toBeEnabled();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(server.calls).toEqual([
      {
        method: 'POST',
        path: FIELDS,
        params: { path: { id: ENDPOINT_ID } },
        body: {
          name: 'sentences',
          dataType: 'integer',
          isRequired: true,
          description: '',
          maxLength: null,
          minimum: 1,
          maximum: 10,
          defaultValue: 3,
        },
      },
    ]);
  });

  it('shows the options of the data type picked, and forgets a default typed for another type', async () => {
    const { user } = renderInputs();
    await user.click(screen.getByRole('button', { name: 'Add input field' }));
    const form = screen.getByRole('form', { name: 'New input field' });
    const type = within(form).getByLabelText('Data type');
    expect(within(form).getByText('Any text; a maximum length may bound it.')).toBeVisible();
    await user.type(within(form).getByLabelText('Default value'), 'hello');

    await user.selectOptions(type, 'boolean');
    expect(within(form).getByText('true or false.')).toBeVisible();
    const choice = within(form).getByRole('combobox', { name: 'Default value' });
    expect(choice).toHaveValue('');
    expect(
      within(choice)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['No default', 'true', 'false']);

    await user.selectOptions(type, 'object');
    expect(within(form).getByRole('textbox', { name: 'Default value' })).toHaveAttribute(
      'placeholder',
      '{"tone": "formal"}',
    );

    await user.selectOptions(type, 'image');
    expect(within(form).queryByLabelText('Default value')).not.toBeInTheDocument();
    expect(within(form).getByText('Image fields take no default value.')).toBeVisible();
  });

  it("shows the service's refusals: a taken name beside the name, anything else above the buttons", async () => {
    const server = fakeApi().on('POST', FIELDS, {
      status: 409,
      messages: ["A field named 'text' already exists on this endpoint"],
    });
    const { user, onChanged } = renderInputs([text]);
    await user.click(screen.getByRole('button', { name: 'Add input field' }));
    const form = screen.getByRole('form', { name: 'New input field' });
    await user.type(within(form).getByLabelText('Name'), 'text');
    await user.click(within(form).getByRole('button', { name: 'Add field' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      "A field named 'text' already exists on this endpoint",
    );
    expect(within(form).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');

    server.on('POST', FIELDS, { status: 400, messages: ['This endpoint has reached its plan limit of 20 fields'] });
    await user.type(within(form).getByLabelText('Name'), '2');
    await user.click(within(form).getByRole('button', { name: 'Add field' }));
    const problems = await within(form).findByText('The service refused this:');
    expect(problems.closest('[role=alert]')).toHaveTextContent('This endpoint has reached its plan limit of 20 fields');
    expect(within(form).getByRole('button', { name: 'Add field' })).toBeEnabled();
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('changes a field in a form filled with its values', async () => {
    const server = fakeApi().on('PUT', FIELD, { data: { id: sentences.id } });
    const { user, onChanged } = renderInputs([text, sentences]);
    await user.click(screen.getByRole('button', { name: 'Edit input field sentences' }));
    const form = screen.getByRole('form', { name: 'Edit input field sentences' });
    expect(within(form).getByLabelText('Name')).toHaveValue('sentences');
    expect(within(form).getByLabelText('Data type')).toHaveValue('integer');
    expect(within(form).getByLabelText('Minimum')).toHaveValue(1);
    expect(within(form).getByLabelText('Maximum')).toHaveValue(5);
    expect(within(form).getByLabelText('Default value')).toHaveValue(2);

    await user.clear(within(form).getByLabelText('Maximum'));
    await user.type(within(form).getByLabelText('Maximum'), '8');
    await user.click(within(form).getByRole('button', { name: 'Save field' }));

    expect(await screen.findByRole('button', { name: 'Add input field' })).toBeEnabled();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(server.calls).toEqual([
      expect.objectContaining({
        method: 'PUT',
        params: { path: { id: ENDPOINT_ID, fieldId: sentences.id } },
        body: expect.objectContaining({ name: 'sentences', minimum: 1, maximum: 8, defaultValue: 2 }),
      }),
    ]);
  });

  it('closes a form on Cancel without sending it', async () => {
    const server = fakeApi();
    const { user, onChanged } = renderInputs([text]);
    await user.click(screen.getByRole('button', { name: 'Edit input field text' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(server.calls).toEqual([]);
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('deletes a field once the dialog is confirmed, saying what becomes of the callers that send it', async () => {
    const server = fakeApi().on('DELETE', FIELD, { data: null });
    const { user, onChanged } = renderInputs([text]);
    await user.click(screen.getByRole('button', { name: 'Delete input field text' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete input field text?' });
    expect(dialog).toHaveTextContent('Callers that still send text are not refused: the value is ignored');
    await user.click(within(dialog).getByRole('button', { name: 'Delete field' }));
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.callsTo('DELETE', FIELD)).toEqual([
      expect.objectContaining({ params: { path: { id: ENDPOINT_ID, fieldId: text.id } } }),
    ]);
  });

  it('lets a ReadOnly key look but not add, change or delete, saying why', () => {
    signInAs('ReadOnly');
    renderInputs([text]);
    for (const name of ['Add input field', 'Edit input field text', 'Delete input field text']) {
      const button = screen.getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription('Your key is ReadOnly: it can look at everything but change nothing.');
    }
  });
});

/** The constraints of an output field that sets none. */
const NO_CONSTRAINTS = { enum: null, minimum: null, maximum: null, maxLength: null, properties: null, items: null };

describe('Output fields', () => {
  function renderOutputs(outputFields: Endpoint['outputFields'] = []) {
    const onChanged = jest.fn();
    return {
      ...renderForUser(<OutputFieldsSection endpoint={endpoint({ outputFields })} onChanged={onChanged} />),
      onChanged,
    };
  }

  it('says that callers get the raw answer while there is no output field', () => {
    renderOutputs();
    expect(screen.getByText("No output fields: callers get the model's raw answer.")).toBeVisible();
  });

  it('asks an image field for its generation settings as a JSON object, and sends them as typed', async () => {
    const server = fakeApi().on('POST', '/admin/v1/endpoints/{id}/output-fields', { status: 201, data: {} });
    const { user, onChanged } = renderOutputs();
    await user.click(screen.getByRole('button', { name: 'Add output field' }));
    const form = screen.getByRole('form', { name: 'New output field' });
    await user.type(within(form).getByLabelText('Name'), 'image');
    await user.selectOptions(within(form).getByLabelText('Data type'), 'image');
    const settings = within(form).getByLabelText('Default generation settings (JSON)');
    await user.type(settings, 'large');
    await user.click(within(form).getByRole('button', { name: 'Add field' }));
    expect(within(form).getByRole('alert')).toHaveTextContent(
      'Must be a JSON object such as {"size": "1024x1024", "quality": "high"}',
    );
    await waitFor(() => expect(settings).toHaveFocus());

    await user.clear(settings);
    await user.type(settings, '{{"size": "1024x1024"}');
    await user.click(within(form).getByRole('button', { name: 'Add field' }));
    expect(await screen.findByRole('button', { name: 'Add output field' })).toBeEnabled();
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(server.calls.map((call) => call.body)).toEqual([
      { name: 'image', dataType: 'image', description: '', exampleValue: '{"size": "1024x1024"}', ...NO_CONSTRAINTS },
    ]);
  });

  it('sends the allowed values and maximum length of a text, and shows them in the table', async () => {
    const server = fakeApi().on('POST', '/admin/v1/endpoints/{id}/output-fields', { status: 201, data: {} });
    const { user } = renderOutputs([
      {
        id: 'o1',
        name: 'score',
        dataType: 'integer',
        description: '',
        exampleValue: null,
        ...NO_CONSTRAINTS,
        minimum: 0,
        maximum: 10,
      },
    ]);
    expect(screen.getByRole('row', { name: /score/ })).toHaveTextContent('from 0 to 10');
    await user.click(screen.getByRole('button', { name: 'Add output field' }));
    const form = screen.getByRole('form', { name: 'New output field' });
    await user.type(within(form).getByLabelText('Name'), 'status');
    await user.type(within(form).getByLabelText('Allowed values'), 'open{Enter}closed');
    await user.type(within(form).getByLabelText('Maximum length'), '6');
    await user.click(within(form).getByRole('button', { name: 'Add field' }));
    await waitFor(() => expect(server.calls).toHaveLength(1));
    expect(server.calls[0].body).toEqual({
      name: 'status',
      dataType: 'string',
      description: '',
      exampleValue: null,
      ...NO_CONSTRAINTS,
      enum: ['open', 'closed'],
      maxLength: 6,
    });
  });

  it("puts the service's refusal of a nested definition beside the properties", async () => {
    const message = 'properties.0.maxLength applies to string fields only, not integer';
    fakeApi().on('POST', '/admin/v1/endpoints/{id}/output-fields', { status: 400, messages: [message] });
    const { user } = renderOutputs();
    await user.click(screen.getByRole('button', { name: 'Add output field' }));
    const form = screen.getByRole('form', { name: 'New output field' });
    await user.type(within(form).getByLabelText('Name'), 'address');
    await user.selectOptions(within(form).getByLabelText('Data type'), 'object');
    const properties = within(form).getByLabelText('Properties (JSON)');
    await user.click(properties);
    await user.paste('[{"name": "zip", "dataType": "integer", "maxLength": 5}]');
    await user.click(within(form).getByRole('button', { name: 'Add field' }));
    await waitFor(() => expect(properties).toHaveAttribute('aria-invalid', 'true'));
    expect(within(properties.closest('.field') as HTMLElement).getByRole('alert')).toHaveTextContent(message);
  });
});
