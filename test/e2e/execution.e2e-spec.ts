import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant } from '../support/seed';
import { logRows, logsOf } from '../support/log-rows';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
const UUID_RE = /^[0-9a-f-]{36}$/;

/** Execution with the built-in mock-echo model: routing, keys, prompt selection, validation, outputs, logs. */
describe('execution (mock-echo)', () => {
  const { t, tenant } = useTestApp({ env: { MAX_IMAGE_BYTES: '100', MAX_BODY_BYTES: '20000' } });

  const execute = (path: string, key: string, body: unknown = {}) =>
    t.http
      .post(path)
      .set(auth(key))
      .send(body as object);

  /** Log rows of an endpoint, newest first, once the batched writer has written `count` of them. */

  describe('routing and keys', () => {
    let endpoint: { id: string; path: string };

    beforeAll(async () => {
      endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'Summarize: {{ inputs.text }}' });
    });

    it('runs the default Live prompt and answers the rendered prompt as a JSON string, with X-Request-Id', async () => {
      const res = await execute(endpoint.path, tenant.endpointKey, { text: 'hello world' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-request-id']).toMatch(UUID_RE);
      expect(res.body).toBe('Summarize: hello world');
    });

    it('serves the tenant of a <tenant>.localhost host, and refuses another tenant host with 401', async () => {
      const own = await execute(endpoint.path, tenant.endpointKey, { text: 'x' }).set(
        'Host',
        `${tenant.slug}.localhost:3000`,
      );
      expect(own.status).toBe(200);
      const other = await seedTenant(t.app);
      const res = await execute(endpoint.path, tenant.endpointKey, { text: 'x' }).set(
        'Host',
        `${other.slug}.localhost`,
      );
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
      expect(res.headers['x-request-id']).toBeDefined();
    });

    it('answers 401 without a key, with a bad key, with a Bearer header only, and with a revoked key', async () => {
      const none = await t.http.post(endpoint.path).send({ text: 'x' });
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
      expect((await execute(endpoint.path, 'ep_live_nonsense', { text: 'x' })).status).toBe(401);
      const bearer = await t.http
        .post(endpoint.path)
        .set('Authorization', `Bearer ${tenant.endpointKey}`)
        .send({ text: 'x' });
      expect(bearer.status).toBe(401);

      const created = await t.http
        .post('/admin/v1/keys')
        .set(auth(tenant.admin))
        .send({ name: 'short-lived', type: 'endpoint' });
      expect(created.status).toBe(201);
      expect((await execute(endpoint.path, created.body.data.key, { text: 'x' })).status).toBe(200);
      await t.http.post(`/admin/v1/keys/${created.body.data.id}/revoke`).set(auth(tenant.admin)).expect(200);
      const revoked = await execute(endpoint.path, created.body.data.key, { text: 'x' });
      expect(revoked.status).toBe(401);
      expect(revoked.body.error).toBe('unauthorized');
    });

    it("answers 404 not_found for an unknown path, a deleted endpoint and another tenant's path", async () => {
      const unknown = await execute('/api/v1/no-such-endpoint', tenant.endpointKey, {});
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'not_found', message: expect.any(String) });
      expect(unknown.headers['x-request-id']).toBeDefined();

      const doomed = await createEndpoint(t, tenant.admin);
      await createPrompt(t, tenant.admin, doomed.id, { template: 'hi' });
      expect((await execute(doomed.path, tenant.endpointKey)).status).toBe(200);
      await t.http.delete(`/admin/v1/endpoints/${doomed.id}`).set(auth(tenant.admin)).expect(200);
      const deleted = await execute(doomed.path, tenant.endpointKey);
      expect(deleted.status).toBe(404);
      expect(deleted.body.error).toBe('not_found');

      const other = await seedTenant(t.app);
      const res = await execute(endpoint.path, other.endpointKey, { text: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('not_found');
    });

    it('lets only admin keys (ReadOnly included) call a Private endpoint', async () => {
      const hidden = await createEndpoint(t, tenant.admin, { visibility: 'Private' });
      await createPrompt(t, tenant.admin, hidden.id, { template: 'secret' });
      const refused = await execute(hidden.path, tenant.endpointKey);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: 'forbidden', message: expect.any(String) });
      expect((await execute(hidden.path, tenant.admin)).body).toBe('secret');
      expect((await execute(hidden.path, tenant.readOnly)).body).toBe('secret');
    });

    it('refuses an endpoint key restricted to other endpoints with 403, and serves the endpoints it names', async () => {
      const other = await createEndpoint(t, tenant.admin);
      const created = await t.http
        .post('/admin/v1/keys')
        .set(auth(tenant.admin))
        .send({ name: 'restricted', type: 'endpoint', endpointIds: [other.id] });
      expect(created.status).toBe(201);
      const res = await execute(endpoint.path, created.body.data.key, { text: 'x' });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('forbidden');

      const allowed = await t.http
        .post('/admin/v1/keys')
        .set(auth(tenant.admin))
        .send({ name: 'allowed', type: 'endpoint', endpointIds: [endpoint.id] });
      expect((await execute(endpoint.path, allowed.body.data.key, { text: 'x' })).status).toBe(200);
    });

    it('answers 413 payload_too_large for a body over MAX_BODY_BYTES', async () => {
      const res = await execute(endpoint.path, tenant.endpointKey, { text: 'x'.repeat(30_000) });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'payload_too_large', message: expect.any(String) });
      expect(res.headers['x-request-id']).toBeDefined();
    });
  });

  describe('prompt selection (?prompt=)', () => {
    let endpoint: { id: string; path: string };

    beforeAll(async () => {
      endpoint = await createEndpoint(t, tenant.admin);
    });

    it('answers 409 no_default_prompt while the endpoint has no default', async () => {
      const res = await execute(endpoint.path, tenant.endpointKey);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'no_default_prompt', message: expect.any(String) });
    });

    it('selects a Live prompt by name or slug, 404 prompt_not_found for an unknown one, 409 prompt_not_live for a Draft', async () => {
      await createPrompt(t, tenant.admin, endpoint.id, { name: 'Main', template: 'main prompt' });
      await createPrompt(t, tenant.admin, endpoint.id, { name: 'Formal Tone', template: 'formal prompt' }, 'Live');
      await createPrompt(t, tenant.admin, endpoint.id, { name: 'Work in progress', template: 'draft prompt' }, 'Draft');

      expect((await execute(endpoint.path, tenant.endpointKey)).body).toBe('main prompt');
      expect((await execute(`${endpoint.path}?prompt=Formal%20Tone`, tenant.endpointKey)).body).toBe('formal prompt');
      expect((await execute(`${endpoint.path}?prompt=formal-tone`, tenant.endpointKey)).body).toBe('formal prompt');

      const unknown = await execute(`${endpoint.path}?prompt=nope`, tenant.endpointKey);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'prompt_not_found', message: expect.any(String) });

      const draft = await execute(`${endpoint.path}?prompt=work-in-progress`, tenant.endpointKey);
      expect(draft.status).toBe(409);
      expect(draft.body).toEqual({ error: 'prompt_not_live', message: expect.any(String) });
    });
  });

  describe('prompt selection after a rename', () => {
    const rename = (id: string, name: string) =>
      t.http.put(`/admin/v1/prompts/${id}`).set(auth(tenant.admin)).send({ name });

    it('reaches a renamed prompt by its old name or slug until another prompt takes it, and not once it is archived', async () => {
      const endpoint = await createEndpoint(t, tenant.admin);
      await createPrompt(t, tenant.admin, endpoint.id, { name: 'Main', template: 'main prompt' });
      const formal = await createPrompt(
        t,
        tenant.admin,
        endpoint.id,
        { name: 'Formal Tone', template: 'formal' },
        'Live',
      );
      expect((await rename(formal.id, 'Polite')).body.data.slug).toBe('polite');
      expect((await rename(formal.id, 'Very polite')).body.data.slug).toBe('very-polite');

      // Every name and slug it had still reaches it; the answer names its slug now.
      for (const selector of ['formal-tone', 'Formal%20Tone', 'polite', 'Polite', 'very-polite']) {
        const res = await execute(`${endpoint.path}?prompt=${selector}`, tenant.endpointKey);
        expect({ selector, status: res.status, body: res.body }).toEqual({ selector, status: 200, body: 'formal' });
        expect(res.headers['x-prompt']).toBe('very-polite@1');
      }

      // A prompt that takes the old slug wins it; the other old selectors still reach the renamed one.
      await createPrompt(t, tenant.admin, endpoint.id, { name: 'formal tone', template: 'the new one' }, 'Live');
      expect((await execute(`${endpoint.path}?prompt=formal-tone`, tenant.endpointKey)).body).toBe('the new one');
      expect((await execute(`${endpoint.path}?prompt=polite`, tenant.endpointKey)).body).toBe('formal');

      // Archived, the renamed prompt is reached by none of them.
      await t.http.post(`/admin/v1/prompts/${formal.id}/demote`).set(auth(tenant.admin)).expect(200);
      await t.http.post(`/admin/v1/prompts/${formal.id}/archive`).set(auth(tenant.admin)).expect(200);
      const gone = await execute(`${endpoint.path}?prompt=polite`, tenant.endpointKey);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ error: 'prompt_not_found', message: expect.any(String) });
    });

    it("keeps each endpoint's old names apart", async () => {
      const first = await createEndpoint(t, tenant.admin);
      const second = await createEndpoint(t, tenant.admin);
      await createPrompt(t, tenant.admin, first.id, { name: 'Main', template: 'first main' });
      await createPrompt(t, tenant.admin, second.id, { name: 'Main', template: 'second main' });
      const old = await createPrompt(t, tenant.admin, first.id, { name: 'Old', template: 'first old' }, 'Live');
      await rename(old.id, 'New').expect(200);
      expect((await execute(`${first.path}?prompt=old`, tenant.endpointKey)).body).toBe('first old');
      expect((await execute(`${second.path}?prompt=old`, tenant.endpointKey)).status).toBe(404);
    });
  });

  describe('input validation', () => {
    let endpoint: { id: string; path: string };

    beforeAll(async () => {
      endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [
          { name: 'text', dataType: 'string', isRequired: true, maxLength: 10 },
          { name: 'count', dataType: 'integer', minimum: 1, maximum: 5, defaultValue: 2 },
          { name: 'ratio', dataType: 'number' },
          { name: 'loud', dataType: 'boolean', defaultValue: false },
          { name: 'meta', dataType: 'object' },
          { name: 'tags', dataType: 'array' },
          { name: 'photo', dataType: 'image' },
        ],
      });
      await createPrompt(t, tenant.admin, endpoint.id, {
        template:
          '{{ inputs.text }}|{{ inputs.count }}|{{ inputs.loud }}|{{ inputs.meta.author.name | default: "anon" }}|{{ inputs.tags | join: "," }}',
      });
    });

    it.each([
      [{}, "Field 'text' is required", 'text'],
      [{ text: 5 }, "Field 'text' must be a string", 'text'],
      [{ text: 'abcdefghijk' }, "Field 'text' must be at most 10 characters", 'text'],
      [{ text: 'a', count: 'two' }, "Field 'count' must be an integer", 'count'],
      [{ text: 'a', count: 2.5 }, "Field 'count' must be an integer", 'count'],
      [{ text: 'a', count: 9 }, "Field 'count' must be between 1 and 5", 'count'],
      [{ text: 'a', ratio: '0.5' }, "Field 'ratio' must be a number", 'ratio'],
      [{ text: 'a', loud: 'yes' }, "Field 'loud' must be a boolean", 'loud'],
      [{ text: 'a', meta: 'm' }, "Field 'meta' must be an object", 'meta'],
      [{ text: 'a', tags: 'x' }, "Field 'tags' must be an array", 'tags'],
      [
        { text: 'a', photo: 'data:image/svg+xml;base64,PHN2Zz4=' },
        "Field 'photo' must be a PNG, JPEG, WebP or GIF image",
        'photo',
      ],
      [
        { text: 'a', photo: `data:image/png;base64,${'A'.repeat(200)}` },
        "Field 'photo' must be an image of at most 100 bytes",
        'photo',
      ],
    ])('refuses %j with 400 validation_error', async (body, message, field) => {
      const res = await execute(endpoint.path, tenant.endpointKey, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'validation_error', message, field });
      expect(res.headers['x-request-id']).toBeDefined();
    });

    it('refuses a body that is not a JSON object with field null', async () => {
      const res = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).type('json').send('[1,2]');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'validation_error',
        message: 'Request body must be a JSON object',
        field: null,
      });
    });

    it('applies defaults, ignores unknown fields and renders nested objects and arrays', async () => {
      const res = await execute(endpoint.path, tenant.endpointKey, {
        text: 'hi',
        unknown: 'ignored',
        meta: { author: { name: 'Ada' } },
        tags: ['a', 'b'],
        photo: PNG,
      });
      expect(res.status).toBe(200);
      expect(res.body).toBe('hi|2|false|Ada|a,b');
    });

    it('logs validation failures with the inputs and error, and successes with the rendered prompt', async () => {
      const probe = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'n', dataType: 'integer', isRequired: true }],
      });
      await createPrompt(t, tenant.admin, probe.id, { template: 'n={{ inputs.n }}' });
      const failed = await execute(probe.path, tenant.endpointKey, { n: 'x' });
      const ok = await execute(probe.path, tenant.admin, { n: 3 });
      expect(ok.status).toBe(200);
      const rows = await logsOf(t, tenant.admin, probe.id, 2);
      expect(rows).toHaveLength(2);
      const failure = rows.find((row) => row.status === 'error');
      const success = rows.find((row) => row.status === 'success');
      expect(failure).toMatchObject({
        endpointId: probe.id,
        source: 'Api',
        requestId: failed.headers['x-request-id'],
        httpStatus: 400,
        errorCode: 'validation_error',
        keyEnvironment: 'live',
        cached: false,
      });
      expect(success).toMatchObject({
        requestId: ok.headers['x-request-id'],
        httpStatus: 200,
        keyEnvironment: null,
        llmModel: 'mock-echo',
        costUsd: 0,
      });
      const detail = await t.http.get(`/admin/v1/logs/${success.id}`).set(auth(tenant.admin));
      expect(detail.status).toBe(200);
      expect(detail.body.data).toMatchObject({
        inputs: { n: 3 },
        renderedPrompt: 'n=3',
        rawResponse: 'n=3',
        parsedOutput: 'n=3',
      });
      const failureDetail = await t.http.get(`/admin/v1/logs/${failure.id}`).set(auth(tenant.admin));
      expect(failureDetail.body.data).toMatchObject({
        inputs: { n: 'x' },
        errorMessage: "Field 'n' must be an integer",
        renderedPrompt: null,
      });
    });
  });

  describe('outputs', () => {
    it('answers the JSON value when the raw output parses as JSON', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'n', dataType: 'integer' }] });
      await createPrompt(t, tenant.admin, endpoint.id, {
        template: '{"answer": {{ inputs.n | default: 1 }}, "ok": true}',
      });
      const res = await execute(endpoint.path, tenant.endpointKey, { n: 42 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ answer: 42, ok: true });
    });

    it('answers an object with exactly the output fields (mock-echo: the prompt in string fields, neutral values otherwise)', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string' }],
        outputs: [
          { name: 'summary', dataType: 'string' },
          { name: 'score', dataType: 'integer' },
          { name: 'confident', dataType: 'boolean' },
          { name: 'keywords', dataType: 'array' },
        ],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'About {{ inputs.text }}' });
      const res = await execute(endpoint.path, tenant.endpointKey, { text: 'cats' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ summary: 'About cats', score: 0, confident: false, keywords: [] });
    });

    it('answers generatedImages and usage on an endpoint with an image output field', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'subject', dataType: 'string' }],
        outputs: [{ name: 'picture', dataType: 'image', exampleValue: '{"n":2}' }],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'A drawing of {{ inputs.subject }}' });
      const res = await execute(endpoint.path, tenant.endpointKey, { subject: 'a cat' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        generatedImages: [
          { base64Data: expect.stringMatching(/^iVBORw0KGgo/), revisedPrompt: 'A drawing of a cat' },
          { base64Data: expect.stringMatching(/^iVBORw0KGgo/), revisedPrompt: 'A drawing of a cat' },
        ],
        usage: { inputTokens: expect.any(Number), outputTokens: 0 },
      });
    });
  });

  describe('test runs (POST /admin/v1/endpoints/{id}/test)', () => {
    let endpoint: { id: string; path: string };
    let draft: { id: string };

    beforeAll(async () => {
      endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      });
      draft = await createPrompt(t, tenant.admin, endpoint.id, { template: 'Draft says {{ inputs.text }}' }, 'Draft');
    });

    it('runs a Draft prompt for ReadWrite and ReadOnly admin keys, answering the execution body as data.output', async () => {
      for (const key of [tenant.admin, tenant.readOnly]) {
        const res = await t.http
          .post(`/admin/v1/endpoints/${endpoint.id}/test`)
          .set(auth(key))
          .send({ promptId: draft.id, inputs: { text: 'hi' } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          succeeded: true,
          messages: [],
          data: expect.objectContaining({
            output: 'Draft says hi',
            renderedPrompt: 'Draft says hi',
            promptId: draft.id,
            promptVersion: 1,
          }),
        });
        expect(res.headers['x-request-id']).toBeDefined();
      }
      const rows = await logsOf(t, tenant.admin, endpoint.id, 2);
      expect(rows).toHaveLength(2);
      expect(
        rows.every((row) => row.source === 'TestPage' && row.promptId === draft.id && row.status === 'success'),
      ).toBe(true);
    });

    it('validates inputs like an execution (400 in the envelope)', async () => {
      const res = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(auth(tenant.admin))
        .send({ promptId: draft.id, inputs: {} });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ succeeded: false, messages: ["Field 'text' is required"], data: null });
    });

    it('refuses endpoint keys (403), another tenant (404) and a prompt of another endpoint (404)', async () => {
      const byEndpointKey = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(auth(tenant.endpointKey))
        .send({ promptId: draft.id });
      expect(byEndpointKey.status).toBe(403);
      expect(byEndpointKey.body.succeeded).toBe(false);

      const other = await seedTenant(t.app);
      const foreign = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(auth(other.admin))
        .send({ promptId: draft.id, inputs: { text: 'x' } });
      expect(foreign.status).toBe(404);

      const elsewhere = await createEndpoint(t, tenant.admin);
      const res = await t.http
        .post(`/admin/v1/endpoints/${elsewhere.id}/test`)
        .set(auth(tenant.admin))
        .send({ promptId: draft.id, inputs: { text: 'x' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ succeeded: false, messages: [expect.stringContaining(draft.id)], data: null });
    });
  });

  it('does not log requests refused before the endpoint resolved (401, 403, 404)', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, { visibility: 'Private' });
    await createPrompt(t, tenant.admin, endpoint.id, { template: 'x' });
    await t.http.post(endpoint.path).send({}).expect(401);
    await execute(endpoint.path, tenant.endpointKey).expect(403);
    await execute(endpoint.path, tenant.admin).expect(200);
    const rows = await logsOf(t, tenant.admin, endpoint.id, 1);
    expect(await logRows(t, tenant.admin, `endpointId=${endpoint.id}`)).toHaveLength(1);
    expect(rows[0].keyEnvironment).toBeNull();
  });
});
