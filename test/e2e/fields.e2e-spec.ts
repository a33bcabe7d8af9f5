import { DataSource } from 'typeorm';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { MISSING, UUID, expectFailure } from '../support/envelope';

/** The constraints of an output field that sets none. */
const NO_CONSTRAINTS = { enum: null, minimum: null, maximum: null, maxLength: null, properties: null, items: null };

describe('input and output fields admin API', () => {
  const { t, tenant, other } = useTestApp({ other: true });
  const db = () => t.app.get(DataSource);
  let counter = 0;

  const admin = () => auth(tenant.admin);
  async function newEndpoint(key = tenant.admin): Promise<string> {
    const res = await t.http
      .post('/admin/v1/endpoints')
      .set(auth(key))
      .send({ name: 'Fields', path: `/api/v1/fields-${++counter}` });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  const addInput = (endpointId: string, body: Record<string, unknown>) =>
    t.http.post(`/admin/v1/endpoints/${endpointId}/input-fields`).set(admin()).send(body);
  const addOutput = (endpointId: string, body: Record<string, unknown>) =>
    t.http.post(`/admin/v1/endpoints/${endpointId}/output-fields`).set(admin()).send(body);
  const inputRows = (endpointId: string) =>
    db().query<Record<string, unknown>[]>('SELECT * FROM input_fields WHERE endpoint_id = $1 ORDER BY created_at', [
      endpointId,
    ]);
  const outputRows = (endpointId: string) =>
    db().query<Record<string, unknown>[]>('SELECT * FROM output_fields WHERE endpoint_id = $1 ORDER BY created_at', [
      endpointId,
    ]);

  describe('input fields', () => {
    it('adds a field with its defaults, returned by get-endpoint and stored', async () => {
      const endpointId = await newEndpoint();
      const res = await addInput(endpointId, { name: 'text', dataType: 'string' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        succeeded: true,
        messages: [],
        data: {
          id: expect.stringMatching(UUID),
          name: 'text',
          dataType: 'string',
          isRequired: false,
          description: '',
          maxLength: null,
          minimum: null,
          maximum: null,
          defaultValue: null,
        },
      });
      const endpoint = await t.http.get(`/admin/v1/endpoints/${endpointId}`).set(admin());
      expect(endpoint.body.data.inputFields).toEqual([res.body.data]);
      expect(await inputRows(endpointId)).toEqual([
        expect.objectContaining({
          id: res.body.data.id,
          tenant_id: tenant.id,
          name: 'text',
          data_type: 'string',
          is_required: false,
          default_value: null,
        }),
      ]);
    });

    it.each([
      [
        {
          name: 'text',
          dataType: 'string',
          isRequired: true,
          description: 'The text',
          maxLength: 500,
          defaultValue: 'hi',
        },
      ],
      [{ name: 'count', dataType: 'integer', minimum: 1, maximum: 10, defaultValue: 5 }],
      [{ name: 'ratio', dataType: 'number', minimum: -0.5, maximum: 0.5, defaultValue: 0.25 }],
      [{ name: 'flag', dataType: 'boolean', defaultValue: false }],
      [{ name: 'photo', dataType: 'image', isRequired: true }],
      [{ name: 'meta', dataType: 'object', defaultValue: { a: [1, { b: null }] } }],
      [{ name: '_list2', dataType: 'array', defaultValue: ['x', 2] }],
    ])('takes every property of its type: %j', async (body) => {
      const endpointId = await newEndpoint();
      const res = await addInput(endpointId, body);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject(body);
      const endpoint = await t.http.get(`/admin/v1/endpoints/${endpointId}`).set(admin());
      expect(endpoint.body.data.inputFields[0]).toEqual(res.body.data);
      const [row] = await inputRows(endpointId);
      expect(row.default_value).toEqual('defaultValue' in body ? body.defaultValue : null);
    });

    it.each([
      [{ dataType: 'string' }, ['name must be a string']],
      [
        { name: '1abc', dataType: 'string' },
        ['name must start with a letter or _ and contain only letters, digits and _'],
      ],
      [
        { name: 'a-b', dataType: 'string' },
        ['name must start with a letter or _ and contain only letters, digits and _'],
      ],
      [
        { name: 'a' },
        ['dataType must be one of the following values: string, integer, number, boolean, image, object, array'],
      ],
      [
        { name: 'a', dataType: 'date' },
        ['dataType must be one of the following values: string, integer, number, boolean, image, object, array'],
      ],
      [{ name: 'a', dataType: 'string', isRequired: 'yes' }, ['isRequired must be a boolean value']],
      [{ name: 'a', dataType: 'string', maxLength: 0 }, ['maxLength must not be less than 1']],
      [{ name: 'a', dataType: 'integer', maxLength: 10 }, ['maxLength applies to string fields only, not integer']],
      [{ name: 'a', dataType: 'image', maxLength: 10 }, ['maxLength applies to string fields only, not image']],
      [
        { name: 'a', dataType: 'string', minimum: 1 },
        ['minimum applies to integer and number fields only, not string'],
      ],
      [
        { name: 'a', dataType: 'boolean', maximum: 1 },
        ['maximum applies to integer and number fields only, not boolean'],
      ],
      [{ name: 'a', dataType: 'integer', minimum: 1.5 }, ['minimum must be an integer']],
      [{ name: 'a', dataType: 'integer', minimum: 10, maximum: 1 }, ['minimum must not be greater than maximum']],
      [{ name: 'a', dataType: 'number', minimum: 'low' }, ['minimum must be a finite number']],
      [{ name: 'a', dataType: 'string', defaultValue: 3 }, ['defaultValue must be a string']],
      [
        { name: 'a', dataType: 'string', maxLength: 2, defaultValue: 'abc' },
        ['defaultValue must be at most 2 characters'],
      ],
      [{ name: 'a', dataType: 'integer', defaultValue: 2.5 }, ['defaultValue must be an integer']],
      [
        { name: 'a', dataType: 'integer', minimum: 1, maximum: 3, defaultValue: 4 },
        ['defaultValue must be between 1 and 3'],
      ],
      [{ name: 'a', dataType: 'number', defaultValue: '1' }, ['defaultValue must be a number']],
      [{ name: 'a', dataType: 'boolean', defaultValue: 'true' }, ['defaultValue must be a boolean']],
      [{ name: 'a', dataType: 'object', defaultValue: [1] }, ['defaultValue must be an object']],
      [{ name: 'a', dataType: 'array', defaultValue: {} }, ['defaultValue must be an array']],
      [
        { name: 'a', dataType: 'image', defaultValue: 'data:image/png;base64,AA==' },
        ['defaultValue is not supported for image fields'],
      ],
      [
        { name: 'a', dataType: 'string', maxLength: 5, minimum: 1 },
        ['minimum applies to integer and number fields only, not string'],
      ],
      [
        { name: 'a', dataType: 'integer', maxLength: 5, minimum: 1.5 },
        ['maxLength applies to string fields only, not integer', 'minimum must be an integer'],
      ],
      [{ name: 'a', dataType: 'string', color: 'red' }, ['property color should not exist']],
    ])('rejects %j with one message per problem, naming the property', async (body, messages) => {
      const endpointId = await newEndpoint();
      expectFailure(await addInput(endpointId, body), 400, messages);
      expect(await inputRows(endpointId)).toEqual([]);
    });

    it('answers 409 for a duplicate name on the same endpoint, not on another', async () => {
      const endpointId = await newEndpoint();
      expect((await addInput(endpointId, { name: 'topic', dataType: 'string' })).status).toBe(201);
      expectFailure(await addInput(endpointId, { name: 'topic', dataType: 'integer' }), 409, [
        "A field named 'topic' already exists on this endpoint",
      ]);
      expect((await addInput(await newEndpoint(), { name: 'topic', dataType: 'string' })).status).toBe(201);
      // Input and output names are separate namespaces.
      expect((await addOutput(endpointId, { name: 'topic', dataType: 'string' })).status).toBe(201);
      expect(await inputRows(endpointId)).toHaveLength(1);
    });

    it('updates a field; cross-property rules apply to the result', async () => {
      const endpointId = await newEndpoint();
      const created = await addInput(endpointId, { name: 'text', dataType: 'string', maxLength: 100 });
      const fieldId = created.body.data.id;
      const url = `/admin/v1/endpoints/${endpointId}/input-fields/${fieldId}`;

      const res = await t.http
        .put(url)
        .set(admin())
        .send({ name: 'body', isRequired: true, description: 'Body text', defaultValue: 'x' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        id: fieldId,
        name: 'body',
        dataType: 'string',
        isRequired: true,
        description: 'Body text',
        maxLength: 100,
        minimum: null,
        maximum: null,
        defaultValue: 'x',
      });
      const endpoint = await t.http.get(`/admin/v1/endpoints/${endpointId}`).set(admin());
      expect(endpoint.body.data.inputFields).toEqual([res.body.data]);

      // Turning it into an integer while it keeps a maxLength and a string default is refused...
      expectFailure(await t.http.put(url).set(admin()).send({ dataType: 'integer' }), 400, [
        'maxLength applies to string fields only, not integer',
        'defaultValue must be an integer',
      ]);
      // ...and works once those are cleared in the same request.
      const changed = await t.http
        .put(url)
        .set(admin())
        .send({ dataType: 'integer', maxLength: null, defaultValue: 3, minimum: 0 });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ dataType: 'integer', maxLength: null, defaultValue: 3, minimum: 0 });
      const [row] = await inputRows(endpointId);
      expect(row).toMatchObject({
        name: 'body',
        data_type: 'integer',
        max_length: null,
        default_value: 3,
        minimum: 0,
        is_required: true,
      });
    });

    it("refuses a rename onto another field's name, a null name and unknown properties", async () => {
      const endpointId = await newEndpoint();
      await addInput(endpointId, { name: 'a', dataType: 'string' });
      const b = await addInput(endpointId, { name: 'b', dataType: 'string' });
      const url = `/admin/v1/endpoints/${endpointId}/input-fields/${b.body.data.id}`;
      expectFailure(await t.http.put(url).set(admin()).send({ name: 'a' }), 409, [
        "A field named 'a' already exists on this endpoint",
      ]);
      expectFailure(await t.http.put(url).set(admin()).send({ name: null }), 400, ['name must be a string']);
      expectFailure(await t.http.put(url).set(admin()).send({ isRequired: null }), 400, [
        'isRequired must be a boolean value',
      ]);
      expectFailure(await t.http.put(url).set(admin()).send({ id: MISSING }), 400, ['property id should not exist']);
      expect((await t.http.put(url).set(admin()).send({ name: 'b' })).status).toBe(200);
      expect((await inputRows(endpointId)).map((r) => r.name)).toEqual(['a', 'b']);
    });

    it('deletes a field', async () => {
      const endpointId = await newEndpoint();
      const keep = await addInput(endpointId, { name: 'keep', dataType: 'string' });
      const drop = await addInput(endpointId, { name: 'drop', dataType: 'string' });
      const res = await t.http
        .delete(`/admin/v1/endpoints/${endpointId}/input-fields/${drop.body.data.id}`)
        .set(admin());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ succeeded: true, messages: [], data: null });
      expect((await inputRows(endpointId)).map((r) => r.id)).toEqual([keep.body.data.id]);
      expectFailure(
        await t.http.delete(`/admin/v1/endpoints/${endpointId}/input-fields/${drop.body.data.id}`).set(admin()),
        404,
        [`Input field ${drop.body.data.id} not found`],
      );
      // The name is free again.
      expect((await addInput(endpointId, { name: 'drop', dataType: 'integer' })).status).toBe(201);
    });
  });

  describe('output fields', () => {
    it('adds a field with its defaults', async () => {
      const endpointId = await newEndpoint();
      const res = await addOutput(endpointId, { name: 'summary', dataType: 'string' });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.stringMatching(UUID),
        name: 'summary',
        dataType: 'string',
        description: '',
        exampleValue: null,
        ...NO_CONSTRAINTS,
      });
      const endpoint = await t.http.get(`/admin/v1/endpoints/${endpointId}`).set(admin());
      expect(endpoint.body.data.outputFields).toEqual([res.body.data]);
      expect(await outputRows(endpointId)).toEqual([
        expect.objectContaining({ name: 'summary', data_type: 'string', example_value: null, tenant_id: tenant.id }),
      ]);
    });

    it.each(['string', 'integer', 'number', 'boolean', 'object', 'array', 'image'])(
      'accepts dataType %s',
      async (dataType) => {
        const res = await addOutput(await newEndpoint(), {
          name: 'out',
          dataType,
          description: 'd',
          exampleValue: dataType === 'image' ? '{"size":"1024x1024"}' : 'example',
        });
        expect(res.status).toBe(201);
        expect(res.body.data).toMatchObject({ dataType, description: 'd' });
      },
    );

    it('requires a JSON object as the exampleValue of an image field', async () => {
      const endpointId = await newEndpoint();
      const message =
        'exampleValue of an image field must be a JSON object such as {"size":"1024x1024","quality":"high"}';
      for (const exampleValue of ['1024x1024', '["a"]', '"text"', '42']) {
        expectFailure(await addOutput(endpointId, { name: 'picture', dataType: 'image', exampleValue }), 400, [
          message,
        ]);
      }
      expectFailure(
        await addOutput(endpointId, { name: 'picture', dataType: 'image', exampleValue: { size: 'x' } }),
        400,
        ['exampleValue must be a string'],
      );
      expect(await outputRows(endpointId)).toEqual([]);
      const ok = await addOutput(endpointId, {
        name: 'picture',
        dataType: 'image',
        exampleValue: '{"size":"1024x1024","quality":"high"}',
      });
      expect(ok.status).toBe(201);
      expect(ok.body.data.exampleValue).toBe('{"size":"1024x1024","quality":"high"}');
      const url = `/admin/v1/endpoints/${endpointId}/output-fields/${ok.body.data.id}`;
      expectFailure(await t.http.put(url).set(admin()).send({ exampleValue: 'not json' }), 400, [message]);
      // A text field may become an image field only with a valid settings object.
      const text = await addOutput(endpointId, { name: 'caption', dataType: 'string', exampleValue: 'A cat' });
      const textUrl = `/admin/v1/endpoints/${endpointId}/output-fields/${text.body.data.id}`;
      expectFailure(await t.http.put(textUrl).set(admin()).send({ dataType: 'image' }), 400, [message]);
      expect((await outputRows(endpointId)).map((r) => [r.name, r.data_type, r.example_value])).toEqual([
        ['picture', 'image', '{"size":"1024x1024","quality":"high"}'],
        ['caption', 'string', 'A cat'],
      ]);
    });

    it.each([
      [{ dataType: 'string' }, ['name must be a string']],
      [
        { name: 'a b', dataType: 'string' },
        ['name must start with a letter or _ and contain only letters, digits and _'],
      ],
      [
        { name: 'a', dataType: 'file' },
        ['dataType must be one of the following values: string, integer, number, boolean, object, array, image'],
      ],
      [{ name: 'a', dataType: 'string', isRequired: true }, ['property isRequired should not exist']],
      [{ name: 'a', dataType: 'string', description: 5 }, ['description must be a string']],
    ])('rejects %j', async (body, messages) => {
      expectFailure(await addOutput(await newEndpoint(), body), 400, messages);
    });

    it('updates, refuses duplicates, and deletes', async () => {
      const endpointId = await newEndpoint();
      const a = await addOutput(endpointId, { name: 'a', dataType: 'string' });
      const b = await addOutput(endpointId, { name: 'b', dataType: 'string' });
      expectFailure(await addOutput(endpointId, { name: 'a', dataType: 'integer' }), 409, [
        "A field named 'a' already exists on this endpoint",
      ]);
      const url = `/admin/v1/endpoints/${endpointId}/output-fields/${b.body.data.id}`;
      expectFailure(await t.http.put(url).set(admin()).send({ name: 'a' }), 409, [
        "A field named 'a' already exists on this endpoint",
      ]);
      const res = await t.http
        .put(url)
        .set(admin())
        .send({ name: 'score', dataType: 'number', description: 'A score', exampleValue: '0.5' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        id: b.body.data.id,
        name: 'score',
        dataType: 'number',
        description: 'A score',
        exampleValue: '0.5',
        ...NO_CONSTRAINTS,
      });
      const endpoint = await t.http.get(`/admin/v1/endpoints/${endpointId}`).set(admin());
      expect(endpoint.body.data.outputFields).toEqual([a.body.data, res.body.data]);
      const cleared = await t.http.put(url).set(admin()).send({ exampleValue: null });
      expect(cleared.body.data.exampleValue).toBeNull();

      const deleted = await t.http
        .delete(`/admin/v1/endpoints/${endpointId}/output-fields/${a.body.data.id}`)
        .set(admin());
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ succeeded: true, messages: [], data: null });
      expect((await outputRows(endpointId)).map((r) => [r.name, r.example_value])).toEqual([['score', null]]);
    });
  });

  describe('ids and tenant isolation', () => {
    it('answers 404 for a field of another endpoint, of another tenant, or unknown', async () => {
      const mine = await newEndpoint();
      const sibling = await newEndpoint();
      const siblingField = await addInput(sibling, { name: 's', dataType: 'string' });
      const siblingOutput = await addOutput(sibling, { name: 's', dataType: 'string' });
      const theirEndpoint = await newEndpoint(other.admin);
      const theirField = await t.http
        .post(`/admin/v1/endpoints/${theirEndpoint}/input-fields`)
        .set(auth(other.admin))
        .send({ name: 't', dataType: 'string' });
      const theirFieldId = theirField.body.data.id;

      // A field id through the wrong endpoint (even one of the same tenant) is unknown.
      for (const [kind, label, id] of [
        ['input', 'Input', siblingField.body.data.id],
        ['output', 'Output', siblingOutput.body.data.id],
        ['input', 'Input', MISSING],
      ]) {
        expectFailure(
          await t.http.put(`/admin/v1/endpoints/${mine}/${kind}-fields/${id}`).set(admin()).send({ description: 'x' }),
          404,
          [`${label} field ${id} not found`],
        );
        expectFailure(await t.http.delete(`/admin/v1/endpoints/${mine}/${kind}-fields/${id}`).set(admin()), 404, [
          `${label} field ${id} not found`,
        ]);
      }
      // Another tenant's endpoint is unknown, whatever the field.
      for (const endpointId of [theirEndpoint]) {
        expectFailure(
          await t.http
            .put(`/admin/v1/endpoints/${endpointId}/input-fields/${theirFieldId}`)
            .set(admin())
            .send({ name: 'x' }),
          404,
          [`Endpoint ${endpointId} not found`],
        );
        expectFailure(
          await t.http.delete(`/admin/v1/endpoints/${endpointId}/input-fields/${theirFieldId}`).set(admin()),
          404,
          [`Endpoint ${endpointId} not found`],
        );
        expectFailure(
          await t.http
            .post(`/admin/v1/endpoints/${endpointId}/output-fields`)
            .set(admin())
            .send({ name: 'x', dataType: 'string' }),
          404,
          [`Endpoint ${endpointId} not found`],
        );
      }
      expect(await inputRows(theirEndpoint)).toEqual([
        expect.objectContaining({ id: theirFieldId, name: 't', description: '' }),
      ]);
      expect(await inputRows(sibling)).toEqual([expect.objectContaining({ name: 's', description: '' })]);
      expect(await outputRows(theirEndpoint)).toEqual([]);
    });

    it('answers 400 naming the parameter for a malformed field id', async () => {
      const endpointId = await newEndpoint();
      expectFailure(await t.http.put(`/admin/v1/endpoints/${endpointId}/output-fields/x`).set(admin()).send({}), 400, [
        'fieldId must be a UUID',
      ]);
      expectFailure(
        await t.http.post('/admin/v1/endpoints/x/input-fields').set(admin()).send({ name: 'a', dataType: 'string' }),
        400,
        ['id must be a UUID'],
      );
    });
  });
});
