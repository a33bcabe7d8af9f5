import { DataSource } from 'typeorm';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { expectFailure } from '../support/envelope';
import { logOf } from '../support/log-rows';
import { connectMcp, toolJson } from '../support/mcp-client';

/**
 * Output field constraints (`enum`, `minimum`, `maximum`, `maxLength`) and nested definitions (`properties`, `items`):
 * saved and refused through the admin API, sent to the provider in the JSON schema, every answer checked against them
 * (an answer breaking one fails over like any off-schema answer, then a 502 naming the value's path), and stated in the
 * tenant's OpenAPI document.
 */
describe('output constraints and nested output fields', () => {
  const { t, tenant, fake } = useTestApp({ fake: { unconfigured: true, providers: true }, listen: true });
  const db = () => t.app.get(DataSource);
  const admin = () => auth(tenant.admin);

  const none = { enum: null, minimum: null, maximum: null, maxLength: null, properties: null, items: null };
  const CONSTRAINED = [
    { name: 'status', dataType: 'string', enum: ['open', 'closed'] },
    { name: 'confidence', dataType: 'number', minimum: 0, maximum: 1 },
    { name: 'title', dataType: 'string', maxLength: 20 },
    {
      name: 'address',
      dataType: 'object',
      properties: [
        { name: 'city', dataType: 'string', description: 'The city' },
        { name: 'zip', dataType: 'integer', minimum: 1000, maximum: 99999 },
      ],
    },
    { name: 'tags', dataType: 'array', items: { dataType: 'string', enum: ['a', 'b'] } },
  ];
  const GOOD = {
    status: 'open',
    confidence: 0.75,
    title: 'Short title',
    address: { city: 'Lyon', zip: 69001 },
    tags: ['a', 'b', 'a'],
  };

  async function endpointWith(outputs: Record<string, unknown>[], fallbackModels: { llmModel: string }[] = []) {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      outputs: outputs as { name: string; dataType: string }[],
    });
    await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Read: {{ inputs.text }}',
      llmModel: 'gpt-4o-mini',
      fallbackModels,
    });
    return endpoint;
  }
  const execute = (path: string) => t.http.post(path).set(auth(tenant.endpointKey)).send({ text: 'hello' });
  const addOutput = (endpointId: string, body: Record<string, unknown>) =>
    t.http.post(`/admin/v1/endpoints/${endpointId}/output-fields`).set(admin()).send(body);
  const newEndpoint = async () => (await createEndpoint(t, tenant.admin)).id;

  describe('definitions', () => {
    it('saves constraints and nested definitions, every attribute listed, returned by get-endpoint and stored', async () => {
      const endpointId = await newEndpoint();
      const created = [];
      for (const field of CONSTRAINED) {
        const res = await addOutput(endpointId, field);
        expect(res.status).toBe(201);
        created.push(res.body.data);
      }
      expect(created[0]).toEqual({
        id: expect.any(String),
        name: 'status',
        dataType: 'string',
        description: '',
        exampleValue: null,
        ...none,
        enum: ['open', 'closed'],
      });
      expect(created[3].properties).toEqual([
        { name: 'city', dataType: 'string', description: 'The city', ...none },
        { name: 'zip', dataType: 'integer', description: '', ...none, minimum: 1000, maximum: 99999 },
      ]);
      expect(created[4].items).toEqual({ dataType: 'string', description: '', ...none, enum: ['a', 'b'] });
      const endpoint = await t.http.get(`/admin/v1/endpoints/${endpointId}`).set(admin());
      expect(endpoint.body.data.outputFields).toEqual(created);
      const rows = await db().query<Record<string, unknown>[]>(
        'SELECT name, enum, minimum, maximum, max_length, properties, items FROM output_fields WHERE endpoint_id = $1 ORDER BY created_at',
        [endpointId],
      );
      expect(rows.map((row) => [row.name, row.enum, row.minimum, row.maximum, row.max_length])).toEqual([
        ['status', ['open', 'closed'], null, null, null],
        ['confidence', null, 0, 1, null],
        ['title', null, null, null, 20],
        ['address', null, null, null, null],
        ['tags', null, null, null, null],
      ]);
      expect(rows[3].properties).toEqual(created[3].properties);
      expect(rows[4].items).toEqual(created[4].items);

      // A change replaces a constraint; null removes it.
      const url = `/admin/v1/endpoints/${endpointId}/output-fields/${created[1].id}`;
      const changed = await t.http.put(url).set(admin()).send({ maximum: null, minimum: -1 });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ minimum: -1, maximum: null });
    });

    it.each<[string, Record<string, unknown>, string[]]>([
      ['enum on an integer', { dataType: 'integer', enum: ['a'] }, ['enum applies to string fields only, not integer']],
      [
        'maxLength on a number',
        { dataType: 'number', maxLength: 3 },
        ['maxLength applies to string fields only, not number'],
      ],
      [
        'maximum on a string',
        { dataType: 'string', maximum: 3 },
        ['maximum applies to integer and number fields only, not string'],
      ],
      [
        'properties on an array',
        { dataType: 'array', properties: [{ name: 'a', dataType: 'string' }] },
        ['properties applies to object fields only, not array'],
      ],
      [
        'items on an image',
        { dataType: 'image', items: { dataType: 'string' } },
        ['items applies to array fields only, not image'],
      ],
      [
        'a nested constraint on the wrong type',
        { dataType: 'object', properties: [{ name: 'a', dataType: 'boolean', enum: ['x'] }] },
        ['properties.0.enum applies to string fields only, not boolean'],
      ],
      ['an empty enum', { dataType: 'string', enum: [] }, ['enum must list at least 1 value']],
      ['a repeated enum value', { dataType: 'string', enum: ['a', 'a'] }, ["enum must not list 'a' twice"]],
      ['a non-string enum value', { dataType: 'string', enum: [1] }, ['each value in enum must be a string']],
      [
        'more than 100 enum values',
        { dataType: 'string', enum: Array.from({ length: 101 }, (_, i) => `v${i}`) },
        ['enum must contain no more than 100 elements'],
      ],
      [
        'minimum above maximum',
        { dataType: 'integer', minimum: 5, maximum: 1 },
        ['minimum must not be greater than maximum'],
      ],
      [
        'nesting deeper than 3 levels',
        {
          dataType: 'object',
          properties: [
            {
              name: 'b',
              dataType: 'array',
              items: { dataType: 'object', properties: [{ name: 'd', dataType: 'string' }] },
            },
          ],
        },
        ['properties.0.items.properties must not be given: output fields nest at most 3 levels'],
      ],
      [
        'a repeated property name',
        {
          dataType: 'object',
          properties: [
            { name: 'a', dataType: 'string' },
            { name: 'a', dataType: 'integer' },
          ],
        },
        ["properties.1.name 'a' is taken by another property of the object"],
      ],
      [
        'a nested image',
        { dataType: 'array', items: { dataType: 'image' } },
        ['items.dataType must be one of the following values: string, integer, number, boolean, object, array'],
      ],
      [
        'a nested field without a name',
        { dataType: 'object', properties: [{ dataType: 'string' }] },
        ['properties.0.name must be a string'],
      ],
      [
        'an unknown nested attribute',
        { dataType: 'object', properties: [{ name: 'a', dataType: 'string', pattern: 'x' }] },
        ['property properties.0.pattern should not exist'],
      ],
    ])('refuses %s with a 400 naming the attribute, storing nothing', async (_case, field, messages) => {
      const endpointId = await newEndpoint();
      expectFailure(await addOutput(endpointId, { name: 'out', ...field }), 400, messages);
      const rows = await db().query('SELECT id FROM output_fields WHERE endpoint_id = $1', [endpointId]);
      expect(rows).toEqual([]);
    });

    it('refuses a change that gives a constraint to a type it does not apply to', async () => {
      const endpointId = await newEndpoint();
      const field = (await addOutput(endpointId, { name: 'status', dataType: 'string', enum: ['a'] })).body.data;
      const url = `/admin/v1/endpoints/${endpointId}/output-fields/${field.id}`;
      expectFailure(await t.http.put(url).set(admin()).send({ dataType: 'integer' }), 400, [
        'enum applies to string fields only, not integer',
      ]);
      expect((await t.http.put(url).set(admin()).send({ dataType: 'integer', enum: null })).status).toBe(200);
    });

    it('counts nested fields toward the 100 output fields of an endpoint, on add and on change', async () => {
      const endpointId = await newEndpoint();
      const properties = (count: number) =>
        Array.from({ length: count }, (_, i) => ({ name: `p${i}`, dataType: 'string' }));
      expectFailure(
        await addOutput(endpointId, { name: 'big', dataType: 'object', properties: properties(100) }),
        400,
        [
          'outputFields must have at most 100 fields, nested ones included; the endpoint has 0 and this field counts 101',
        ],
      );
      const big = await addOutput(endpointId, { name: 'big', dataType: 'object', properties: properties(98) });
      expect(big.status).toBe(201);
      expect((await addOutput(endpointId, { name: 'one', dataType: 'string' })).status).toBe(201);
      expectFailure(await addOutput(endpointId, { name: 'two', dataType: 'string' }), 400, [
        'outputFields must have at most 100 fields; the endpoint has 100',
      ]);
      const url = `/admin/v1/endpoints/${endpointId}/output-fields/${big.body.data.id}`;
      expectFailure(
        await t.http
          .put(url)
          .set(admin())
          .send({ properties: properties(99) }),
        400,
        [
          'outputFields must have at most 100 fields, nested ones included; the endpoint has 1 and this field counts 100',
        ],
      );
      expect(
        (
          await t.http
            .put(url)
            .set(admin())
            .send({ properties: properties(10) })
        ).status,
      ).toBe(200);
      expect((await addOutput(endpointId, { name: 'two', dataType: 'string' })).status).toBe(201);
    });
  });

  describe('execution', () => {
    it('asks the provider for the constraints in the JSON schema and returns a conforming nested answer', async () => {
      const endpoint = await endpointWith(CONSTRAINED);
      fake.reply({ text: JSON.stringify({ ...GOOD, address: { ...GOOD.address, extra: true }, more: 1 }) });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(GOOD);
      const format = fake.last().body.text.format;
      // maxLength is not taken by strict mode: the schema is sent as it stands and checked here.
      expect(format.strict).toBe(false);
      expect(format.schema).toEqual({
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['open', 'closed'] },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
          title: { type: 'string', maxLength: 20 },
          address: {
            type: 'object',
            properties: {
              city: { type: 'string', description: 'The city' },
              zip: { type: 'integer', minimum: 1000, maximum: 99999 },
            },
            required: ['city', 'zip'],
            additionalProperties: false,
          },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        },
        required: ['status', 'confidence', 'title', 'address', 'tags'],
        additionalProperties: false,
      });
    });

    it('is strict when every value has a fixed shape and no maxLength', async () => {
      const endpoint = await endpointWith(CONSTRAINED.filter((field) => field.name !== 'title'));
      const { title: _title, ...rest } = GOOD;
      fake.reply({ text: JSON.stringify(rest) });
      expect((await execute(endpoint.path)).status).toBe(200);
      expect(fake.last().body.text.format.strict).toBe(true);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an enum', { status: 'pending' }, "field 'status' is not one of its 2 enum values"],
      ['a maximum', { confidence: 1.5 }, "field 'confidence' is above its maximum 1"],
      ['a maxLength', { title: 'x'.repeat(21) }, "field 'title' is longer than its maxLength 20"],
      ['a nested field', { address: { city: 'Lyon', zip: 12 } }, "field 'address.zip' is below its minimum 1000"],
      ['an array element', { tags: ['a', 'c'] }, "field 'tags[1]' is not one of its 2 enum values"],
    ])(
      'an answer breaking %s fails over to the fallback model, then 502 naming the path',
      async (_c, change, problem) => {
        const endpoint = await endpointWith(CONSTRAINED, [{ llmModel: 'claude-sonnet-4-5' }]);
        const bad = JSON.stringify({ ...GOOD, ...change });
        fake.reply({ text: bad }, { text: bad });
        const res = await execute(endpoint.path);
        expect(res.status).toBe(502);
        expect(res.body).toEqual({
          error: 'upstream_error',
          message: `The model's answer does not match the output fields: ${problem}`,
        });
        expect([res.headers['x-model'], res.headers['x-attempts']]).toEqual(['claude-sonnet-4-5', '2']);
        expect(fake.requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/messages']);
        const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
        expect(log.attempts.map((attempt: { outcome: string }) => attempt.outcome)).toEqual(['error', 'error']);
        expect(log.attempts[1].errorMessage).toContain(problem);
      },
    );

    it('a fallback model that keeps the constraints answers after one that breaks them', async () => {
      const endpoint = await endpointWith(CONSTRAINED, [{ llmModel: 'claude-sonnet-4-5' }]);
      fake.reply({ text: JSON.stringify({ ...GOOD, confidence: 7 }) }, { text: JSON.stringify(GOOD) });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(GOOD);
      expect(res.headers['x-model']).toBe('claude-sonnet-4-5');
    });

    it('the offline mock-echo model answers within the constraints', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
        outputs: CONSTRAINED,
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'Read: {{ inputs.text }}', llmModel: 'mock-echo' });
      const res = await execute(endpoint.path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'open',
        confidence: 0,
        title: 'Read: hello',
        address: { city: 'Read: hello', zip: 1000 },
        tags: [],
      });
    });
  });

  it("states the constraints in the 200 schema of the tenant's OpenAPI document", async () => {
    const endpoint = await endpointWith([
      ...CONSTRAINED,
      { name: 'meta', dataType: 'object', properties: [{ name: 'raw', dataType: 'object' }] },
    ]);
    const res = await t.http.get('/api/v1/openapi.json').set(admin());
    expect(res.status).toBe(200);
    const schema = res.body.paths[endpoint.path].post.responses['200'].content['application/json'].schema;
    expect(schema.properties.status).toEqual({ type: 'string', enum: ['open', 'closed'] });
    expect(schema.properties.confidence).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(schema.properties.address.properties.zip).toEqual({ type: 'integer', minimum: 1000, maximum: 99999 });
    expect(schema.properties.tags.items).toEqual({ type: 'string', enum: ['a', 'b'] });
    // A free-form object nested in a described one takes any properties.
    expect(schema.properties.meta.properties.raw).toEqual({ type: 'object', additionalProperties: true });
  });

  it('MCP field tools take the constraints and nested definitions, refused as REST refuses them', async () => {
    const endpointId = await newEndpoint();
    const client = await connectMcp(await t.app.getUrl(), tenant.admin);
    try {
      const { tools } = await client.listTools();
      const add = tools.find((tool) => tool.name === 'add_output_field')!;
      const properties = add.inputSchema.properties as Record<string, any>;
      expect(properties.enum).toMatchObject({ anyOf: [{ type: 'array', maxItems: 100 }, { type: 'null' }] });
      expect(properties.properties.anyOf[0].items).toMatchObject({
        type: 'object',
        required: expect.arrayContaining(['name', 'dataType']),
      });

      const created = await client.callTool({
        name: 'add_output_field',
        arguments: { endpointId, ...CONSTRAINED[3] },
      });
      expect(created.isError).toBeFalsy();
      expect(toolJson(created).properties).toEqual([
        { name: 'city', dataType: 'string', description: 'The city', ...none },
        { name: 'zip', dataType: 'integer', description: '', ...none, minimum: 1000, maximum: 99999 },
      ]);
      const refused = await client.callTool({
        name: 'add_output_field',
        arguments: { endpointId, name: 'score', dataType: 'integer', enum: ['a'] },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('enum applies to string fields only, not integer');
    } finally {
      await client.close();
    }
  });
});
