import { randomUUID } from 'node:crypto';
import { DatasetsService } from '../../src/modules/datasets/datasets.service';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { useTestApp } from '../support/app-suite';
import { createEndpoint } from '../support/endpoint-fixtures';
import { expectFailure, MISSING, UUID } from '../support/envelope';
import { logEntry } from '../support/log-fixtures';
import { auth } from '../support/seed';

/** The log keeps each field up to this many bytes here, so a test can log inputs it cuts. */
const LOG_FIELD_MAX_BYTES = 4096;

/**
 * Datasets: named sets of inputs of an endpoint with the checks run on each output; their items, added (given or
 * copied from execution logs) and deleted, each change a new version; and what an evaluation run reads of them.
 */
describe('datasets', () => {
  const { t, tenant, other } = useTestApp({
    other: true,
    config: { logFieldMaxBytes: LOG_FIELD_MAX_BYTES },
    env: { ADMIN_RATE_LIMIT_PER_MINUTE: '100000' },
  });

  const api = (key = tenant.admin) => ({
    create: (endpointId: string, body: object) =>
      t.http.post(`/admin/v1/endpoints/${endpointId}/datasets`).set(auth(key)).send(body),
    list: (endpointId: string) => t.http.get(`/admin/v1/endpoints/${endpointId}/datasets`).set(auth(key)),
    get: (id: string) => t.http.get(`/admin/v1/datasets/${id}`).set(auth(key)),
    update: (id: string, body: object) => t.http.put(`/admin/v1/datasets/${id}`).set(auth(key)).send(body),
    remove: (id: string) => t.http.delete(`/admin/v1/datasets/${id}`).set(auth(key)),
    add: (id: string, items: object[]) => t.http.post(`/admin/v1/datasets/${id}/items`).set(auth(key)).send({ items }),
    fromLogs: (id: string, body: object) =>
      t.http.post(`/admin/v1/datasets/${id}/items/from-logs`).set(auth(key)).send(body),
    items: (id: string, query = '') => t.http.get(`/admin/v1/datasets/${id}/items${query}`).set(auth(key)),
    removeItem: (id: string, itemId: string) =>
      t.http.delete(`/admin/v1/datasets/${id}/items/${itemId}`).set(auth(key)),
  });

  /** An endpoint with a required string `text` (at most 50 characters) and an optional integer `count`. */
  const endpoint = () =>
    createEndpoint(t, tenant.admin, {
      inputs: [
        { name: 'text', dataType: 'string', isRequired: true, maxLength: 50 },
        { name: 'count', dataType: 'integer', minimum: 0, maximum: 10 },
      ],
    });

  /** A new dataset of a new endpoint (or of `endpointId`), created 201. */
  const dataset = async (body: object = {}, endpointId?: string): Promise<any> => {
    const id = endpointId ?? (await endpoint()).id;
    const res = await api().create(id, { name: `set-${randomUUID().slice(0, 8)}`, ...body });
    expect(res.status).toBe(201);
    return res.body.data;
  };

  const items = (count: number, from = 0) =>
    Array.from({ length: count }, (_, i) => ({ inputs: { text: `item ${from + i}` } }));

  describe('datasets', () => {
    it('creates, reads, lists, changes and deletes a dataset', async () => {
      const { id: endpointId } = await endpoint();
      const created = await api().create(endpointId, {
        name: 'Golden answers',
        description: 'Questions with known answers',
        checks: [
          { type: 'schema' },
          { type: 'contains', value: 'Paris' },
          { type: 'judge', llmModel: 'mock-echo', rubric: 'Is {{ output }} right for {{ inputs.text }}?' },
        ],
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        succeeded: true,
        messages: [],
        data: {
          id: expect.stringMatching(UUID),
          endpointId,
          name: 'Golden answers',
          description: 'Questions with known answers',
          // Defaults filled in.
          checks: [
            { type: 'schema' },
            { type: 'contains', value: 'Paris', caseSensitive: true },
            {
              type: 'judge',
              llmModel: 'mock-echo',
              rubric: 'Is {{ output }} right for {{ inputs.text }}?',
              threshold: 0.5,
            },
          ],
          version: 0,
          itemCount: 0,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      const id = created.body.data.id;
      expect((await api(tenant.readOnly).get(id)).body.data).toEqual(created.body.data);
      expect((await api(tenant.readOnly).list(endpointId)).body.data).toEqual([created.body.data]);

      const changed = await api().update(id, { name: 'Golden', checks: [{ type: 'equals' }] });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({
        name: 'Golden',
        description: 'Questions with known answers',
        checks: [{ type: 'equals' }],
        version: 0,
      });
      // A change of the dataset's own fields is no change of its items: the version stays.
      await api().add(id, items(1));
      const described = await api().update(id, { description: 'new words' });
      expect(described.body.data).toMatchObject({ name: 'Golden', description: 'new words', version: 1, itemCount: 1 });
      expect((await api().update(id, {})).body.data).toMatchObject({ name: 'Golden', version: 1 });

      const removed = await api().remove(id);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ succeeded: true, messages: [], data: null });
      expectFailure(await api().get(id), 404, [`Dataset ${id} not found`]);
      expectFailure(await api().items(id), 404);
    });

    it('keeps names unique in an endpoint, not across endpoints', async () => {
      const first = await dataset({ name: 'same' });
      expectFailure(await api().create(first.endpointId, { name: 'same' }), 409, [
        "A dataset named 'same' already exists on this endpoint",
      ]);
      await dataset({ name: 'same' });
      const second = await dataset({ name: 'other' }, first.endpointId);
      expectFailure(await api().update(second.id, { name: 'same' }), 409, [
        "A dataset named 'same' already exists on this endpoint",
      ]);
      expect((await api().update(second.id, { name: 'other' })).status).toBe(200);
    });

    it.each([
      ['no name', {}, 'name must be a string'],
      ['an empty name', { name: '' }, /^name must be longer than or equal to 1/],
      ['a name of 101 characters', { name: 'n'.repeat(101) }, /^name must be shorter than or equal to 100/],
      [
        'a description of 2001 characters',
        { name: 'x', description: 'd'.repeat(2001) },
        /^description must be shorter/,
      ],
      ['checks that are not an array', { name: 'x', checks: {} }, 'checks must be an array'],
      ['an unknown property', { name: 'x', version: 3 }, 'property version should not exist'],
    ])('refuses a dataset with %s', async (_, body, message) => {
      const { id } = await endpoint();
      expectFailure(await api().create(id, body), 400, [message]);
    });

    it.each([
      ['21 checks', Array.from({ length: 21 }, () => ({ type: 'equals' })), 'checks must hold at most 20 checks'],
      ['a check that is not an object', ['equals'], 'checks.0 must be an object with a type'],
      [
        'an unknown type',
        [{ type: 'equals' }, { type: 'similar' }],
        'checks.1.type must be one of: schema, equals, field_equals, contains, not_contains, regex, max_latency_ms, max_cost_usd, judge',
      ],
      [
        'a parameter of another type',
        [{ type: 'equals', value: 'x' }],
        'checks.0.value does not apply to equals checks',
      ],
      [
        'field_equals without a path',
        [{ type: 'field_equals' }],
        'checks.0.path must be a string of 1 to 200 characters',
      ],
      [
        'field_equals with a path of 201 characters',
        [{ type: 'field_equals', path: 'p'.repeat(201) }],
        'checks.0.path must be a string of 1 to 200 characters',
      ],
      [
        'contains with an empty value',
        [{ type: 'contains', value: '' }],
        'checks.0.value must be a string of 1 to 1000 characters',
      ],
      [
        'not_contains with a value of 1001 characters',
        [{ type: 'not_contains', value: 'v'.repeat(1001) }],
        'checks.0.value must be a string of 1 to 1000 characters',
      ],
      [
        'contains with caseSensitive not a boolean',
        [{ type: 'contains', value: 'a', caseSensitive: 'no' }],
        'checks.0.caseSensitive must be a boolean',
      ],
      ['regex without a pattern', [{ type: 'regex' }], 'checks.0.pattern must be a string of 1 to 500 characters'],
      [
        'regex with a pattern of 501 characters',
        [{ type: 'regex', pattern: 'a'.repeat(501) }],
        'checks.0.pattern must be a string of 1 to 500 characters',
      ],
      [
        'regex with a pattern that does not compile',
        [{ type: 'regex', pattern: '(a' }],
        /^checks\.0\.pattern is not a valid regular expression: /,
      ],
      [
        'regex with a lookahead, which the linear-time engine has not',
        [{ type: 'regex', pattern: 'a(?=b)' }],
        /^checks\.0\.pattern is not a valid regular expression: /,
      ],
      [
        'max_latency_ms of 0',
        [{ type: 'max_latency_ms', value: 0 }],
        'checks.0.value must be an integer from 1 to 600000',
      ],
      [
        'max_latency_ms of 1.5',
        [{ type: 'max_latency_ms', value: 1.5 }],
        'checks.0.value must be an integer from 1 to 600000',
      ],
      [
        'max_latency_ms of 600001',
        [{ type: 'max_latency_ms', value: 600001 }],
        'checks.0.value must be an integer from 1 to 600000',
      ],
      [
        'max_cost_usd of 0',
        [{ type: 'max_cost_usd', value: 0 }],
        'checks.0.value must be a number above 0 and at most 1000',
      ],
      [
        'max_cost_usd of 1001',
        [{ type: 'max_cost_usd', value: 1001 }],
        'checks.0.value must be a number above 0 and at most 1000',
      ],
      [
        'max_cost_usd as text',
        [{ type: 'max_cost_usd', value: '1' }],
        'checks.0.value must be a number above 0 and at most 1000',
      ],
      [
        'judge without a rubric',
        [{ type: 'judge', llmModel: 'mock-echo' }],
        'checks.0.rubric must be a string of 1 to 20000 characters',
      ],
      [
        'judge with a rubric of 20001 characters',
        [{ type: 'judge', llmModel: 'mock-echo', rubric: 'r'.repeat(20001) }],
        'checks.0.rubric must be a string of 1 to 20000 characters',
      ],
      [
        'judge with a threshold above 1',
        [{ type: 'judge', llmModel: 'mock-echo', rubric: 'ok?', threshold: 1.5 }],
        'checks.0.threshold must be a number from 0 to 1',
      ],
      [
        'judge with a model not in the model list',
        [{ type: 'equals' }, { type: 'judge', llmModel: 'no-such-model', rubric: 'ok?' }],
        "checks.1.llmModel 'no-such-model' is not a model of the model list (GET /admin/v1/prompts/models)",
      ],
      [
        'judge with a rubric that is not Liquid',
        [{ type: 'judge', llmModel: 'mock-echo', rubric: 'Is {{ output ' }],
        /^checks\.0\.rubric is not valid Liquid: /,
      ],
    ])('refuses checks with %s, naming the field', async (_, checks, message) => {
      const { id } = await endpoint();
      expectFailure(await api().create(id, { name: 'x', checks }), 400, [message]);
      const existing = await dataset({}, id);
      expectFailure(await api().update(existing.id, { checks }), 400, [message]);
    });

    it('names every problem of the checks', async () => {
      const { id } = await endpoint();
      expectFailure(
        await api().create(id, { name: 'x', checks: [{ type: 'regex', pattern: '[' }, { type: 'max_cost_usd' }] }),
        400,
        [
          /^checks\.0\.pattern is not a valid regular expression/,
          'checks.1.value must be a number above 0 and at most 1000',
        ],
      );
    });

    it('keeps every check type with its parameters', async () => {
      const checks = [
        { type: 'schema' },
        { type: 'equals' },
        { type: 'field_equals', path: 'answer.city' },
        { type: 'contains', value: 'Paris', caseSensitive: false },
        { type: 'not_contains', value: 'London', caseSensitive: true },
        { type: 'regex', pattern: '^\\{.*\\p{Lu}' },
        { type: 'max_latency_ms', value: 600000 },
        { type: 'max_cost_usd', value: 0.01 },
        { type: 'judge', llmModel: 'mock-echo', rubric: '{% if output %}yes{% endif %}', threshold: 0 },
      ];
      expect((await dataset({ checks })).checks).toEqual(checks);
    });

    it('has at most 100 datasets per endpoint', async () => {
      const { id } = await endpoint();
      for (let i = 0; i < 100; i++) await dataset({ name: `d${i}` }, id);
      expectFailure(await api().create(id, { name: 'one more' }), 409, [
        'An endpoint has at most 100 datasets: delete one before creating another',
      ]);
      expect((await api().list(id)).body.data).toHaveLength(100);
      // Another endpoint has its own 100.
      await dataset({ name: 'one more' });
    });

    it('keeps ReadOnly keys to reads', async () => {
      const set = await dataset();
      const readOnly = api(tenant.readOnly);
      expect((await readOnly.get(set.id)).status).toBe(200);
      expect((await readOnly.items(set.id)).status).toBe(200);
      expectFailure(await readOnly.create(set.endpointId, { name: 'r' }), 403);
      expectFailure(await readOnly.update(set.id, { name: 'r' }), 403);
      expectFailure(await readOnly.add(set.id, items(1)), 403);
      expectFailure(await readOnly.fromLogs(set.id, { logIds: [MISSING] }), 403);
      expectFailure(await readOnly.remove(set.id), 403);
      expect((await api().get(set.id)).body.data).toMatchObject({ name: set.name, version: 0 });
    });

    it("answers 404 for another tenant's datasets and endpoints, and for unknown ids", async () => {
      const set = await dataset();
      const [item] = (await api().add(set.id, items(1))).body.data.itemIds;
      const stranger = api(other.admin);
      expectFailure(await stranger.get(set.id), 404, [`Dataset ${set.id} not found`]);
      expectFailure(await stranger.list(set.endpointId), 404);
      expectFailure(await stranger.create(set.endpointId, { name: 'mine' }), 404);
      expectFailure(await stranger.update(set.id, { name: 'mine' }), 404);
      expectFailure(await stranger.items(set.id), 404);
      expectFailure(await stranger.add(set.id, items(1)), 404);
      expectFailure(await stranger.fromLogs(set.id, { logIds: [MISSING] }), 404);
      expectFailure(await stranger.removeItem(set.id, item), 404);
      expectFailure(await stranger.remove(set.id), 404);
      await expect(t.app.get(DatasetsService).findForRun(other.id, set.id)).rejects.toThrow(
        `Dataset ${set.id} not found`,
      );
      await expect(t.app.get(DatasetsService).itemsAtVersion(other.id, set.id, 1)).rejects.toThrow('not found');
      expectFailure(await api().get(MISSING), 404);
      expectFailure(await api().get('not-a-uuid'), 400);
      expectFailure(await api().create(MISSING, { name: 'x' }), 404, [`Endpoint ${MISSING} not found`]);
      // Nothing changed.
      expect((await api().get(set.id)).body.data).toMatchObject({ name: set.name, version: 1, itemCount: 1 });
    });

    it("goes with its endpoint's permanent deletion", async () => {
      const set = await dataset();
      await api().add(set.id, items(2));
      expect((await t.http.delete(`/admin/v1/endpoints/${set.endpointId}`).set(auth(tenant.admin))).status).toBe(200);
      expectFailure(await api().list(set.endpointId), 404);
      const purged = await t.http
        .delete(`/admin/v1/endpoints/${set.endpointId}?permanent=true`)
        .set(auth(tenant.admin));
      expect(purged.status).toBe(200);
      expectFailure(await api().get(set.id), 404);
    });
  });

  describe('items', () => {
    it('adds items as a new version and lists them in the order added', async () => {
      const set = await dataset();
      const added = await api().add(set.id, [
        {
          inputs: { text: 'What is the capital of France?' },
          expectedOutput: { city: 'Paris' },
          tags: { topic: 'geo' },
        },
        { inputs: { text: 'Two', count: 2 }, expectedOutput: 'two' },
        { inputs: { text: 'Three' }, expectedOutput: null },
      ]);
      expect(added.status).toBe(201);
      expect(added.body.data).toEqual({
        itemIds: [expect.stringMatching(UUID), expect.stringMatching(UUID), expect.stringMatching(UUID)],
        version: 1,
        itemCount: 3,
      });
      const listed = await api(tenant.readOnly).items(set.id);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual({
        items: [
          {
            id: added.body.data.itemIds[0],
            datasetId: set.id,
            inputs: { text: 'What is the capital of France?' },
            expectedOutput: { city: 'Paris' },
            tags: { topic: 'geo' },
            addedInVersion: 1,
            createdAt: expect.any(String),
          },
          expect.objectContaining({ inputs: { text: 'Two', count: 2 }, expectedOutput: 'two', tags: {} }),
          expect.objectContaining({ inputs: { text: 'Three' }, expectedOutput: null }),
        ],
        page: 1,
        pageSize: 20,
        total: 3,
        totalIsExact: true,
      });
      expect((await api().get(set.id)).body.data).toMatchObject({ version: 1, itemCount: 3 });
      const more = await api().add(set.id, items(1));
      expect(more.body.data).toMatchObject({ version: 2, itemCount: 4 });
    });

    it('pages items like logs', async () => {
      const set = await dataset();
      await api().add(set.id, items(30));
      const first = (await api().items(set.id, '?pageSize=25')).body.data;
      expect(first).toMatchObject({ page: 1, pageSize: 25, total: 30, totalIsExact: true });
      expect(first.items.map((i: any) => i.inputs.text)).toEqual(items(25).map((i) => i.inputs.text));
      const second = (await api().items(set.id, '?page=2&pageSize=25')).body.data;
      expect(second.items.map((i: any) => i.inputs.text)).toEqual(items(5, 25).map((i) => i.inputs.text));
      expect((await api().items(set.id, '?page=3&pageSize=25')).body.data.items).toEqual([]);
      expectFailure(await api().items(set.id, '?pageSize=51'), 400, ['pageSize must not be greater than 50']);
      expectFailure(await api().items(set.id, '?page=0'), 400, ['page must not be less than 1']);
    });

    it.each([
      ['a missing required input', { count: 1 }, "items.1.inputs.text: Field 'text' is required"],
      ['an input of the wrong type', { text: 5 }, "items.1.inputs.text: Field 'text' must be a string"],
      [
        'a string over its maxLength',
        { text: 'x'.repeat(51) },
        "items.1.inputs.text: Field 'text' must be at most 50 characters",
      ],
      [
        'a number out of range',
        { text: 'a', count: 11 },
        "items.1.inputs.count: Field 'count' must be between 0 and 10",
      ],
    ])("refuses %s with the execution's message, naming items.<n>.inputs.<field>", async (_, inputs, message) => {
      const set = await dataset();
      expectFailure(await api().add(set.id, [{ inputs: { text: 'fine' } }, { inputs }]), 400, [message]);
      // All or none.
      expect((await api().get(set.id)).body.data).toMatchObject({ version: 0, itemCount: 0 });
    });

    it.each([
      ['no items', { items: [] }, 'items must contain at least 1 elements'],
      ['501 items', { items: items(501) }, 'items must contain no more than 500 elements'],
      ['items that are not an array', { items: 'all' }, 'items must be an array'],
      ['an item without inputs', { items: [{ expectedOutput: 1 }] }, 'items.0.inputs must be an object'],
      ['inputs that are not an object', { items: [{ inputs: [1] }] }, 'items.0.inputs must be an object'],
      [
        'an unknown item property',
        { items: [{ inputs: { text: 'a' }, weight: 2 }] },
        'property items.0.weight should not exist',
      ],
      [
        'a tag key that breaks the tag rules',
        { items: [{ inputs: { text: 'a' }, tags: { Topic: 'geo' } }] },
        /^items\.0\.tags: the key 'Topic' is not a lowercase letter/,
      ],
      [
        'a tag value that is not a string',
        { items: [{ inputs: { text: 'a' }, tags: { topic: 1 } }] },
        "items.0.tags: the value of tag 'topic' must be a string",
      ],
      [
        '11 tags',
        {
          items: [
            { inputs: { text: 'a' }, tags: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) },
          ],
        },
        'items.0.tags has 11 tags; at most 10 are allowed',
      ],
    ])('refuses a body with %s', async (_, body, message) => {
      const set = await dataset();
      const res = await t.http.post(`/admin/v1/datasets/${set.id}/items`).set(auth(tenant.admin)).send(body);
      expectFailure(res, 400, [message]);
    });

    it('refuses an item over 64 KiB as JSON, naming it', async () => {
      const set = await dataset();
      const big = { inputs: { text: 'a' }, expectedOutput: 'x'.repeat(64 * 1024) };
      expectFailure(await api().add(set.id, [{ inputs: { text: 'a' } }, big]), 400, [
        /^items\.1 is 655\d\d bytes as JSON; an item is at most 65536 bytes \(64 KiB\)$/,
      ]);
      // Just under the bound is taken: the JSON text around the value is 53 bytes.
      const fits = { inputs: { text: 'a' }, expectedOutput: 'x'.repeat(64 * 1024 - 53) };
      expect((await api().add(set.id, [fits])).status).toBe(201);
    });

    it('refuses a character the database cannot store, naming the part of the item that holds it', async () => {
      const set = await dataset();
      expectFailure(
        await api().add(set.id, [{ inputs: { text: 'a' } }, { inputs: { text: 'nul \u0000 here' } }]),
        400,
        ['items.1.inputs holds a NUL character (\\u0000) or half of a surrogate pair, which cannot be stored'],
      );
      expectFailure(await api().add(set.id, [{ inputs: { text: 'a' }, expectedOutput: 'half \ud800' }]), 400, [
        /^items\.0\.expectedOutput holds/,
      ]);
      // The text `\u0000` as typed (a backslash, then u0000) is kept as it is.
      expect((await api().add(set.id, [{ inputs: { text: 'typed \\u0000' } }])).status).toBe(201);
    });

    it('holds at most 5000 items, counting what is deleted', async () => {
      const set = await dataset();
      for (let call = 0; call < 10; call++) {
        const res = await api().add(set.id, items(500, call * 500));
        expect(res.status).toBe(201);
      }
      expect((await api().get(set.id)).body.data).toMatchObject({ version: 10, itemCount: 5000 });
      expectFailure(await api().add(set.id, items(1)), 409, [
        'A dataset holds at most 5000 items: it has 5000, so 1 more would be 5001',
      ]);
      const last = (await api().items(set.id, '?page=100&pageSize=50')).body.data;
      expect(last.items.map((i: any) => i.inputs.text).at(-1)).toBe('item 4999');
      expect((await api().removeItem(set.id, last.items[0].id)).status).toBe(200);
      expect((await api().add(set.id, items(1))).body.data).toMatchObject({ version: 12, itemCount: 5000 });
      expect(await t.app.get(DatasetsService).itemsAtVersion(tenant.id, set.id, 12)).toHaveLength(5000);
    });

    it('deletes an item as a new version; a run reads the items as they were at its version', async () => {
      const set = await dataset({ checks: [{ type: 'equals' }] });
      const v1 = (await api().add(set.id, items(3))).body.data.itemIds;
      const v2 = (await api().add(set.id, items(2, 3))).body.data.itemIds;
      const removed = await api().removeItem(set.id, v1[1]);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ succeeded: true, messages: [], data: null });
      expect((await api().get(set.id)).body.data).toMatchObject({ version: 3, itemCount: 4 });
      expectFailure(await api().removeItem(set.id, v1[1]), 404, [`Dataset item ${v1[1]} not found`]);
      expectFailure(await api().removeItem(set.id, MISSING), 404);
      const listed = (await api().items(set.id)).body.data;
      expect(listed.items.map((i: any) => i.id)).toEqual([v1[0], v1[2], ...v2]);
      expect(listed.total).toBe(4);

      const datasets = t.app.get(DatasetsService);
      expect(await datasets.findForRun(tenant.id, set.id)).toEqual({
        id: set.id,
        endpointId: set.endpointId,
        name: set.name,
        version: 3,
        checks: [{ type: 'equals' }],
      });
      const ids = async (version: number) =>
        (await datasets.itemsAtVersion(tenant.id, set.id, version)).map((item) => item.id);
      expect(await ids(0)).toEqual([]);
      expect(await ids(1)).toEqual(v1);
      expect(await ids(2)).toEqual([...v1, ...v2]);
      expect(await ids(3)).toEqual([v1[0], v1[2], ...v2]);
      expect((await datasets.itemsAtVersion(tenant.id, set.id, 1))[0]).toEqual({
        id: v1[0],
        inputs: { text: 'item 0' },
        expectedOutput: null,
        tags: {},
      });
      // An item of another dataset is not this one's.
      const elsewhere = await dataset();
      expectFailure(await api().removeItem(elsewhere.id, v1[0]), 404);
    });

    it('gives concurrent changes one version each and never passes the bound', async () => {
      const set = await dataset();
      const adds = await Promise.all(Array.from({ length: 8 }, (_, i) => api().add(set.id, items(10, i * 10))));
      expect(adds.map((res) => res.status)).toEqual(Array(8).fill(201));
      expect(adds.map((res) => res.body.data.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect((await api().get(set.id)).body.data).toMatchObject({ version: 8, itemCount: 80 });

      const listed = (await api().items(set.id, '?pageSize=50&page=1')).body.data.items;
      const deletions = await Promise.all(listed.slice(0, 5).map((item: any) => api().removeItem(set.id, item.id)));
      expect(deletions.map((res) => res.status)).toEqual(Array(5).fill(200));
      expect((await api().get(set.id)).body.data).toMatchObject({ version: 13, itemCount: 75 });

      // Near the bound, concurrent additions that would each fit alone cannot pass it together.
      const full = await dataset();
      for (let call = 0; call < 9; call++) await api().add(full.id, items(500, call * 500));
      const racing = await Promise.all(Array.from({ length: 4 }, () => api().add(full.id, items(300))));
      expect(racing.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
      expect((await api().get(full.id)).body.data).toMatchObject({ version: 10, itemCount: 4800 });
      expect(await t.app.get(DatasetsService).itemsAtVersion(tenant.id, full.id, 10)).toHaveLength(4800);
    });
  });

  describe('items from logs', () => {
    /** Writes a log row of the tenant's (or `tenantId`'s) execution on `endpointId` and answers its id. */
    const logged = async (endpointId: string, values: object = {}, tenantId = tenant.id): Promise<string> => {
      const logs = t.app.get(ExecutionLogsService);
      const id = logs.record(logEntry(tenantId, endpointId, values));
      await logs.flush();
      return id;
    };

    it('copies inputs, with the output as expectedOutput when asked', async () => {
      const set = await dataset();
      const first = await logged(set.endpointId, {
        inputs: { text: 'one' },
        parsedOutput: { answer: 1 },
        tags: { team: 'a' },
      });
      const second = await logged(set.endpointId, { inputs: { text: 'two', count: 2 }, parsedOutput: 'plain' });

      const bare = await api().fromLogs(set.id, { logIds: [second, first] });
      expect(bare.status).toBe(201);
      expect(bare.body.data).toMatchObject({ version: 1, itemCount: 2 });
      const withOutput = await api().fromLogs(set.id, { logIds: [first, second], withOutput: true });
      expect(withOutput.body.data).toMatchObject({ version: 2, itemCount: 4 });

      const listed = (await api().items(set.id)).body.data.items;
      expect(listed.map((i: any) => [i.inputs, i.expectedOutput, i.tags])).toEqual([
        [{ text: 'two', count: 2 }, null, {}],
        [{ text: 'one' }, null, {}],
        [{ text: 'one' }, { answer: 1 }, {}],
        [{ text: 'two', count: 2 }, 'plain', {}],
      ]);
    });

    it('refuses what cannot be copied, naming logIds.<n>, and copies nothing', async () => {
      const set = await dataset();
      const good = await logged(set.endpointId);
      const elsewhere = await logged((await endpoint()).id);
      const strangers = await logged((await createEndpoint(t, other.admin)).id, {}, other.id);
      const cut = await logged(set.endpointId, { inputs: { text: 'x'.repeat(LOG_FIELD_MAX_BYTES) } });
      const failed = await logged(set.endpointId, {
        status: 'error',
        httpStatus: 502,
        errorCode: 'upstream_error',
        parsedOutput: null,
      });
      const cutOutput = await logged(set.endpointId, { parsedOutput: { story: 'y'.repeat(LOG_FIELD_MAX_BYTES) } });
      const offFields = await logged(set.endpointId, { inputs: { text: 'x', count: 'many' } });

      expectFailure(await api().fromLogs(set.id, { logIds: [good, MISSING] }), 404, [
        `logIds.1: no execution log ${MISSING} in the tenant (it may be past the log retention)`,
      ]);
      expectFailure(await api().fromLogs(set.id, { logIds: [good, strangers] }), 404, [
        `logIds.1: no execution log ${strangers} in the tenant (it may be past the log retention)`,
      ]);
      expectFailure(await api().fromLogs(set.id, { logIds: [elsewhere] }), 400, [
        `logIds.0: execution log ${elsewhere} is of another endpoint than the dataset's`,
      ]);
      expectFailure(await api().fromLogs(set.id, { logIds: [good, cut] }), 400, [
        `logIds.1: execution log ${cut} kept only the start of its inputs (they were over the log's size limit), so they cannot be copied`,
      ]);
      expectFailure(await api().fromLogs(set.id, { logIds: [failed], withOutput: true }), 400, [
        `logIds.0: execution log ${failed} failed, so it has no output to copy`,
      ]);
      expectFailure(await api().fromLogs(set.id, { logIds: [cutOutput], withOutput: true }), 400, [
        `logIds.0: execution log ${cutOutput} kept only the start of its output (it was over the log's size limit), so it cannot be copied`,
      ]);
      expectFailure(await api().fromLogs(set.id, { logIds: [offFields] }), 400, [
        "logIds.0.inputs.count: Field 'count' must be an integer",
      ]);
      expect((await api().get(set.id)).body.data).toMatchObject({ version: 0, itemCount: 0 });
      // Without the output, a failed execution's and a cut output's inputs are copied.
      expect((await api().fromLogs(set.id, { logIds: [failed, cutOutput] })).body.data).toMatchObject({
        version: 1,
        itemCount: 2,
      });
    });

    it.each([
      ['no ids', { logIds: [] }, 'logIds must contain at least 1 elements'],
      [
        '501 ids',
        { logIds: Array.from({ length: 501 }, () => randomUUID()) },
        'logIds must contain no more than 500 elements',
      ],
      ['an id twice', { logIds: [MISSING, MISSING] }, 'logIds must not repeat an id'],
      ['an id that is not a uuid', { logIds: ['log-1'] }, 'each value in logIds must be a UUID'],
      ['withOutput not a boolean', { logIds: [MISSING], withOutput: 'yes' }, 'withOutput must be a boolean value'],
    ])('refuses a body with %s', async (_, body, message) => {
      const set = await dataset();
      expectFailure(await api().fromLogs(set.id, body), 400, [message]);
    });

    it('holds the bound of 5000 items when copying', async () => {
      const set = await dataset();
      for (let call = 0; call < 10; call++) await api().add(set.id, items(500, call * 500));
      const log = await logged(set.endpointId);
      expectFailure(await api().fromLogs(set.id, { logIds: [log] }), 409, [
        'A dataset holds at most 5000 items: it has 5000, so 1 more would be 5001',
      ]);
    });
  });
});
