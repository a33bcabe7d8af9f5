import { randomUUID } from 'node:crypto';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant } from '../support/seed';
import { draftPrompt, endpointWithInputs } from '../support/endpoint-fixtures';

describe('prompts (admin API)', () => {
  const { t, tenant } = useTestApp();

  const createEndpoint = (key = tenant.admin, fields: string[] = ['topic']) =>
    endpointWithInputs(t, key, 'Summaries', fields);

  const createPrompt = (endpointId: string, body: Record<string, unknown> = {}, key = tenant.admin) =>
    draftPrompt(t, key, { endpointId, template: 'Summarize {{ inputs.topic }}', ...body });

  const action = (id: string, name: string, key = tenant.admin) =>
    t.http.post(`/admin/v1/prompts/${id}/${name}`).set(auth(key));
  const getPrompt = (id: string, key = tenant.admin) => t.http.get(`/admin/v1/prompts/${id}`).set(auth(key));
  const getEndpoint = (id: string) => t.http.get(`/admin/v1/endpoints/${id}`).set(auth(tenant.admin));

  describe('create and read', () => {
    it('creates a Draft with version 1, defaults and a derived slug, and reads it back', async () => {
      const endpointId = await createEndpoint();
      const res = await t.http
        .post('/admin/v1/prompts')
        .set(auth(tenant.admin))
        .send({ endpointId, name: 'Short Summary!', template: 'Summarize {{ inputs.topic }}', llmModel: 'mock-echo' });
      expect(res.status).toBe(201);
      expect(res.body.succeeded).toBe(true);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        endpointId,
        name: 'Short Summary!',
        slug: 'short-summary',
        template: 'Summarize {{ inputs.topic }}',
        llmModel: 'mock-echo',
        temperature: 0.7,
        maxTokens: 1024,
        customParameters: {},
        retries: 0,
        fallbackModels: [],
        status: 'Draft',
        isDefault: false,
        currentVersion: 1,
        changeNotes: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const read = await getPrompt(res.body.data.id);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(res.body.data);
      const versions = await t.http.get(`/admin/v1/prompts/${res.body.data.id}/versions`).set(auth(tenant.admin));
      expect(versions.body.data).toHaveLength(1);
      expect(versions.body.data[0]).toMatchObject({
        versionNumber: 1,
        status: 'Draft',
        template: 'Summarize {{ inputs.topic }}',
        archived: false,
      });
    });

    it('keeps given settings and custom parameters', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId, {
        temperature: 1,
        maxTokens: 50,
        customParameters: { size: '1024x1024' },
      });
      expect(prompt).toMatchObject({ temperature: 1, maxTokens: 50, customParameters: { size: '1024x1024' } });
      expect((await getPrompt(prompt.id)).body.data).toMatchObject({
        temperature: 1,
        maxTokens: 50,
        customParameters: { size: '1024x1024' },
      });
    });

    it('requires endpointId, name, template and llmModel (400 naming each)', async () => {
      const res = await t.http.post('/admin/v1/prompts').set(auth(tenant.admin)).send({});
      expect(res.status).toBe(400);
      expect(res.body.succeeded).toBe(false);
      expect(res.body.data).toBeNull();
      const text = res.body.messages.join('\n');
      for (const field of ['endpointId', 'name', 'template', 'llmModel']) expect(text).toContain(field);
    });

    it('refuses out-of-range settings with 400', async () => {
      const endpointId = await createEndpoint();
      const base = { endpointId, name: 'x', template: 'x', llmModel: 'mock-echo' };
      for (const [body, field] of [
        [{ ...base, temperature: 2.5 }, 'temperature'],
        [{ ...base, maxTokens: 0 }, 'maxTokens'],
        [{ ...base, maxTokens: 1.5 }, 'maxTokens'],
        [{ ...base, customParameters: [1] }, 'customParameters'],
        [{ ...base, name: '!!!' }, 'name'],
      ] as const) {
        const res = await t.http.post('/admin/v1/prompts').set(auth(tenant.admin)).send(body);
        expect(res.status).toBe(400);
        expect(res.body.messages.join(' ')).toContain(field);
      }
      const list = await t.http.get(`/admin/v1/prompts?endpointId=${endpointId}`).set(auth(tenant.admin));
      expect(list.body.data).toEqual([]);
    });

    it('keeps retries and fallback models, each fallback with only the settings it gives', async () => {
      const endpointId = await createEndpoint();
      const fallbackModels = [
        { llmModel: 'gpt-4o-mini', temperature: 0.2, maxTokens: 50, customParameters: { topP: 0.5 } },
        { llmModel: 'mock-echo' },
      ];
      const prompt = await createPrompt(endpointId, { retries: 2, fallbackModels });
      expect(prompt).toMatchObject({ retries: 2, fallbackModels });
      expect((await getPrompt(prompt.id)).body.data).toMatchObject({ retries: 2, fallbackModels });
      const cleared = await t.http
        .put(`/admin/v1/prompts/${prompt.id}`)
        .set(auth(tenant.admin))
        .send({ retries: 0, fallbackModels: [] });
      expect(cleared.status).toBe(200);
      expect(cleared.body.data).toMatchObject({ retries: 0, fallbackModels: [], currentVersion: 2 });
    });

    it("refuses a temperature above what a model's provider takes, for the prompt and for each fallback", async () => {
      const endpointId = await createEndpoint();
      const base = { endpointId, name: 'warm', template: 'x', llmModel: 'claude-sonnet-4-5' };
      const create = (body: object) => t.http.post('/admin/v1/prompts').set(auth(tenant.admin)).send(body);
      const above = (field: string, value: number) =>
        `${field} ${value} is above 1, the highest temperature anthropic models (claude-sonnet-4-5) take`;
      expect((await create({ ...base, temperature: 1.5 })).body.messages).toEqual([above('temperature', 1.5)]);
      // A fallback without a temperature of its own is called with the prompt's.
      const onGpt = { ...base, llmModel: 'gpt-4o-mini', temperature: 1.2 };
      const unset = await create({ ...onGpt, fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }] });
      expect(unset.body.messages).toEqual([above('temperature', 1.2)]);
      const own = await create({ ...onGpt, fallbackModels: [{ llmModel: 'claude-sonnet-4-5', temperature: 1.4 }] });
      expect(own.body.messages).toEqual([above('fallbackModels.0.temperature', 1.4)]);

      // An update is held to it with what it keeps: moving a prompt at 1.2 to an Anthropic model.
      const created = await create({ ...onGpt, fallbackModels: [{ llmModel: 'claude-sonnet-4-5', temperature: 0.5 }] });
      expect(created.status).toBe(201);
      const moved = await t.http
        .put(`/admin/v1/prompts/${created.body.data.id}`)
        .set(auth(tenant.admin))
        .send({ llmModel: 'claude-sonnet-4-5' });
      expect(moved.status).toBe(400);
      expect(moved.body.messages).toEqual([above('temperature', 1.2)]);
      const fixed = await t.http
        .put(`/admin/v1/prompts/${created.body.data.id}`)
        .set(auth(tenant.admin))
        .send({ llmModel: 'claude-sonnet-4-5', temperature: 1 });
      expect(fixed.status).toBe(200);
    });

    it('refuses retries and fallback models out of bounds with 400 naming the field', async () => {
      const endpointId = await createEndpoint();
      const base = { endpointId, name: 'x', template: 'x', llmModel: 'mock-echo' };
      const fallback = (settings: Record<string, unknown>) => ({
        ...base,
        fallbackModels: [{ llmModel: 'mock-echo' }, { llmModel: 'mock-echo', ...settings }],
      });
      for (const [body, message] of [
        [{ ...base, retries: 4 }, 'retries must not be greater than 3'],
        [{ ...base, retries: -1 }, 'retries must not be less than 0'],
        [{ ...base, retries: 1.5 }, 'retries must be an integer number'],
        [{ ...base, fallbackModels: 'gpt-4o' }, 'fallbackModels must be an array'],
        [
          { ...base, fallbackModels: Array.from({ length: 4 }, () => ({ llmModel: 'mock-echo' })) },
          'fallbackModels must contain no more than 3 elements',
        ],
        [fallback({ llmModel: 'no-such-model' }), "fallbackModels.1.llmModel 'no-such-model' is not a model"],
        [fallback({ llmModel: 7 }), 'fallbackModels.1.llmModel must be a string'],
        [fallback({ temperature: 2.5 }), 'fallbackModels.1.temperature must not be greater than 2'],
        [fallback({ maxTokens: 0 }), 'fallbackModels.1.maxTokens must not be less than 1'],
        [fallback({ customParameters: [1] }), 'fallbackModels.1.customParameters must be an object'],
        [
          fallback({ customParameters: { max_tokens: 5 } }),
          'fallbackModels.1.customParameters.max_tokens cannot be set: the service controls it',
        ],
        [fallback({ provider: 'x' }), 'property fallbackModels.1.provider should not exist'],
        [{ ...base, fallbackModels: [{}] }, 'fallbackModels.0.llmModel must be a string'],
        [{ ...base, fallbackModels: [null] }, 'each value in fallbackModels must be an object'],
        [{ ...base, fallbackModels: [[{ llmModel: 'mock-echo' }]] }, 'each value in fallbackModels must be an object'],
        [{ ...base, retries: null }, 'retries must be an integer number'],
      ] as const) {
        const res = await t.http.post('/admin/v1/prompts').set(auth(tenant.admin)).send(body);
        expect([res.status, res.body.messages]).toEqual([
          400,
          expect.arrayContaining([expect.stringContaining(message)]),
        ]);
      }
      const prompt = await createPrompt(endpointId);
      const update = await t.http
        .put(`/admin/v1/prompts/${prompt.id}`)
        .set(auth(tenant.admin))
        .send({ fallbackModels: [{ llmModel: 'no-such-model' }] });
      expect(update.status).toBe(400);
      expect(update.body.messages).toEqual([
        "fallbackModels.0.llmModel 'no-such-model' is not a model of the model list (GET /admin/v1/prompts/models)",
      ]);
      const list = await t.http.get(`/admin/v1/prompts?endpointId=${endpointId}`).set(auth(tenant.admin));
      expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([prompt.id]);
      expect((await getPrompt(prompt.id)).body.data).toMatchObject({ fallbackModels: [], currentVersion: 1 });
    });

    it('refuses an llmModel that is not in the model list with 400 naming llmModel', async () => {
      const endpointId = await createEndpoint();
      const res = await t.http
        .post('/admin/v1/prompts')
        .set(auth(tenant.admin))
        .send({ endpointId, name: 'x', template: 'x', llmModel: 'no-such-model' });
      expect(res.status).toBe(400);
      expect(res.body.messages[0]).toContain('llmModel');
      const prompt = await createPrompt(endpointId);
      const update = await t.http
        .put(`/admin/v1/prompts/${prompt.id}`)
        .set(auth(tenant.admin))
        .send({ llmModel: 'no-such-model' });
      expect(update.status).toBe(400);
      expect(update.body.messages[0]).toContain('llmModel');
      expect((await getPrompt(prompt.id)).body.data.llmModel).toBe('mock-echo');
    });

    it('refuses a template over 100 KB with 400 naming template, on create, update and validate', async () => {
      const endpointId = await createEndpoint();
      const big = 'x'.repeat(102_401);
      const create = await t.http
        .post('/admin/v1/prompts')
        .set(auth(tenant.admin))
        .send({ endpointId, name: 'big', template: big, llmModel: 'mock-echo' });
      expect(create.status).toBe(400);
      expect(create.body.messages[0]).toMatch(/^template must be at most 102400 bytes/);
      const prompt = await createPrompt(endpointId);
      const update = await t.http.put(`/admin/v1/prompts/${prompt.id}`).set(auth(tenant.admin)).send({ template: big });
      expect(update.status).toBe(400);
      expect(update.body.messages[0]).toContain('template');
      const validate = await t.http
        .post('/admin/v1/prompts/validate')
        .set(auth(tenant.admin))
        .send({ endpointId, template: big });
      expect(validate.status).toBe(400);
      expect(validate.body.messages[0]).toContain('template');
      const exactly = await createPrompt(endpointId, { template: 'y'.repeat(102_400) });
      expect(exactly.template).toHaveLength(102_400);
    });

    it('refuses a template with a Liquid syntax error (400 with line and column); prompts are never saved unparseable', async () => {
      const endpointId = await createEndpoint();
      const res = await t.http
        .post('/admin/v1/prompts')
        .set(auth(tenant.admin))
        .send({ endpointId, name: 'broken', template: 'Hello\n{% if inputs.topic %}no end', llmModel: 'mock-echo' });
      expect(res.status).toBe(400);
      expect(res.body.messages[0]).toContain('template is not valid Liquid');
      expect(res.body.messages[0]).toContain('line 2, column 1');
      const prompt = await createPrompt(endpointId);
      const update = await t.http
        .put(`/admin/v1/prompts/${prompt.id}`)
        .set(auth(tenant.admin))
        .send({ template: '{{ x | nosuchfilter }}' });
      expect(update.status).toBe(400);
      expect(update.body.messages[0]).toContain('undefined filter: nosuchfilter');
    });

    it('answers 404 for an unknown prompt and 400 for a malformed id', async () => {
      expect((await getPrompt(randomUUID())).status).toBe(404);
      const bad = await getPrompt('not-a-uuid');
      expect(bad.status).toBe(400);
    });
  });

  describe('listing', () => {
    it('requires a valid endpointId (400 naming endpointId)', async () => {
      const missing = await t.http.get('/admin/v1/prompts').set(auth(tenant.admin));
      expect(missing.status).toBe(400);
      expect(missing.body.messages.join(' ')).toContain('endpointId');
      const malformed = await t.http.get('/admin/v1/prompts?endpointId=abc').set(auth(tenant.admin));
      expect(malformed.status).toBe(400);
      expect(malformed.body.messages.join(' ')).toContain('endpointId');
      const unknown = await t.http.get(`/admin/v1/prompts?endpointId=${randomUUID()}`).set(auth(tenant.admin));
      expect(unknown.status).toBe(404);
    });

    it('filters by status and name, and hides archived prompts unless status=Archived', async () => {
      const endpointId = await createEndpoint();
      const alpha = await createPrompt(endpointId, { name: 'Alpha summary' });
      const beta = await createPrompt(endpointId, { name: 'Beta' });
      const gamma = await createPrompt(endpointId, { name: 'Gamma' });
      expect((await action(beta.id, 'promote')).status).toBe(200);
      expect((await action(gamma.id, 'archive')).status).toBe(200);
      const list = (query: string) =>
        t.http.get(`/admin/v1/prompts?endpointId=${endpointId}${query}`).set(auth(tenant.readOnly));
      expect((await list('')).body.data.map((p: { id: string }) => p.id)).toEqual([alpha.id, beta.id]);
      expect((await list('&status=Live')).body.data.map((p: { id: string }) => p.id)).toEqual([beta.id]);
      expect((await list('&status=Draft')).body.data.map((p: { id: string }) => p.id)).toEqual([alpha.id]);
      expect((await list('&status=Archived')).body.data.map((p: { id: string }) => p.id)).toEqual([gamma.id]);
      expect((await list('&search=SUMM')).body.data.map((p: { id: string }) => p.id)).toEqual([alpha.id]);
      expect((await list('&status=Nope')).status).toBe(400);
    });
  });

  describe('updates', () => {
    it('changes only name or changeNotes without a new version, and updates the slug', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId);
      const res = await t.http
        .put(`/admin/v1/prompts/${prompt.id}`)
        .set(auth(tenant.admin))
        .send({ name: 'Renamed Prompt', changeNotes: 'just a rename' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name: 'Renamed Prompt',
        slug: 'renamed-prompt',
        currentVersion: 1,
        changeNotes: 'just a rename',
      });
      const same = await t.http
        .put(`/admin/v1/prompts/${prompt.id}`)
        .set(auth(tenant.admin))
        .send({ template: prompt.template, temperature: 0.7 });
      expect(same.body.data.currentVersion).toBe(1);
      const versions = await t.http.get(`/admin/v1/prompts/${prompt.id}/versions`).set(auth(tenant.admin));
      expect(versions.body.data).toHaveLength(1);
    });

    it('creates a version for a change of template, model or each setting, recording status and changeNotes', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId);
      expect((await action(prompt.id, 'promote')).status).toBe(200);
      const changes = [
        { template: 'New {{ inputs.topic }}', changeNotes: 'reworded' },
        { temperature: 0.2 },
        { maxTokens: 99 },
        { customParameters: { quality: 'high' } },
      ];
      for (const [index, change] of changes.entries()) {
        const res = await t.http.put(`/admin/v1/prompts/${prompt.id}`).set(auth(tenant.admin)).send(change);
        expect(res.status).toBe(200);
        expect(res.body.data.currentVersion).toBe(index + 2);
        expect(res.body.data.status).toBe('Live');
      }
      const versions = (await t.http.get(`/admin/v1/prompts/${prompt.id}/versions`).set(auth(tenant.admin))).body.data;
      expect(versions.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([1, 2, 3, 4, 5]);
      expect(versions[0]).toMatchObject({
        status: 'Draft',
        template: 'Summarize {{ inputs.topic }}',
        changeNotes: null,
      });
      expect(versions[1]).toMatchObject({
        status: 'Live',
        template: 'New {{ inputs.topic }}',
        changeNotes: 'reworded',
        temperature: 0.7,
      });
      expect(versions[4]).toMatchObject({
        template: 'New {{ inputs.topic }}',
        temperature: 0.2,
        maxTokens: 99,
        customParameters: { quality: 'high' },
      });
      const current = (await getPrompt(prompt.id)).body.data;
      expect(current).toMatchObject({
        template: 'New {{ inputs.topic }}',
        temperature: 0.2,
        maxTokens: 99,
        customParameters: { quality: 'high' },
        currentVersion: 5,
      });
    });

    it('does not accept endpointId or unknown properties on update', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId);
      const res = await t.http
        .put(`/admin/v1/prompts/${prompt.id}`)
        .set(auth(tenant.admin))
        .send({ endpointId: await createEndpoint() });
      expect(res.status).toBe(400);
      expect(res.body.messages[0]).toContain('endpointId');
      expect((await getPrompt(prompt.id)).body.data.endpointId).toBe(endpointId);
    });
  });

  describe('names and slugs', () => {
    it('refuses a name or slug already used by a non-archived prompt of the endpoint with 409', async () => {
      const endpointId = await createEndpoint();
      const first = await createPrompt(endpointId, { name: 'Daily Digest' });
      for (const name of ['Daily Digest', 'daily-digest', 'DAILY  digest!']) {
        const res = await t.http
          .post('/admin/v1/prompts')
          .set(auth(tenant.admin))
          .send({ endpointId, name, template: 'x', llmModel: 'mock-echo' });
        expect(res.status).toBe(409);
        expect(res.body.succeeded).toBe(false);
      }
      const other = await createPrompt(endpointId, { name: 'Other' });
      const rename = await t.http
        .put(`/admin/v1/prompts/${other.id}`)
        .set(auth(tenant.admin))
        .send({ name: 'daily digest' });
      expect(rename.status).toBe(409);
      // Renaming a prompt to a name with its own slug is fine.
      const self = await t.http
        .put(`/admin/v1/prompts/${first.id}`)
        .set(auth(tenant.admin))
        .send({ name: 'daily digest' });
      expect(self.status).toBe(200);
      // Another endpoint may use the same name.
      await createPrompt(await createEndpoint(), { name: 'Daily Digest' });
    });

    it('frees the name of an archived prompt, and refuses to unarchive while it is taken', async () => {
      const endpointId = await createEndpoint();
      const old = await createPrompt(endpointId, { name: 'Reusable' });
      expect((await action(old.id, 'archive')).status).toBe(200);
      const reused = await createPrompt(endpointId, { name: 'Reusable' });
      expect(reused.slug).toBe('reusable');
      const unarchive = await action(old.id, 'unarchive');
      expect(unarchive.status).toBe(409);
      expect((await getPrompt(old.id)).body.data.status).toBe('Archived');
      expect((await action(reused.id, 'archive')).status).toBe(200);
      const again = await action(old.id, 'unarchive');
      expect(again.status).toBe(200);
      expect(again.body.data.status).toBe('Draft');
    });

    it('enforces name uniqueness under concurrent creates (one 201, the rest 409)', async () => {
      const endpointId = await createEndpoint();
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.http
            .post('/admin/v1/prompts')
            .set(auth(tenant.admin))
            .send({ endpointId, name: 'Race', template: 'x', llmModel: 'mock-echo' }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      const list = await t.http.get(`/admin/v1/prompts?endpointId=${endpointId}`).set(auth(tenant.admin));
      expect(list.body.data).toHaveLength(1);
    });
  });

  describe('lifecycle', () => {
    it('walks Draft → Live → default → (demote) Draft → Live → Archived → Draft', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId);
      const promoted = await action(prompt.id, 'promote');
      expect(promoted.status).toBe(200);
      expect(promoted.body.data).toMatchObject({ status: 'Live', isDefault: false });

      const defaulted = await action(prompt.id, 'set-default');
      expect(defaulted.status).toBe(200);
      expect(defaulted.body.data).toMatchObject({ status: 'Live', isDefault: true });
      expect((await getEndpoint(endpointId)).body.data.defaultPromptId).toBe(prompt.id);
      expect((await action(prompt.id, 'set-default')).status).toBe(200);

      const demoted = await action(prompt.id, 'demote');
      expect(demoted.status).toBe(200);
      expect(demoted.body.data).toMatchObject({ status: 'Draft', isDefault: false });
      expect((await getEndpoint(endpointId)).body.data.defaultPromptId).toBeNull();

      expect((await action(prompt.id, 'promote')).body.data.status).toBe('Live');
      const archived = await action(prompt.id, 'archive');
      expect(archived.status).toBe(200);
      expect(archived.body.data.status).toBe('Archived');
      const unarchived = await action(prompt.id, 'unarchive');
      expect(unarchived.status).toBe(200);
      expect(unarchived.body.data.status).toBe('Draft');
      expect((await getPrompt(prompt.id)).body.data.status).toBe('Draft');
    });

    it('answers 409 for every transition from a state that does not allow it, changing nothing', async () => {
      const endpointId = await createEndpoint();
      const draft = await createPrompt(endpointId);
      const live = await createPrompt(endpointId);
      await action(live.id, 'promote');
      const archived = await createPrompt(endpointId);
      await action(archived.id, 'archive');
      const refused: [string, string, string][] = [
        [live.id, 'promote', 'Live'],
        [archived.id, 'promote', 'Archived'],
        [draft.id, 'set-default', 'Draft'],
        [archived.id, 'set-default', 'Archived'],
        [draft.id, 'demote', 'Draft'],
        [archived.id, 'demote', 'Archived'],
        [archived.id, 'archive', 'Archived'],
        [draft.id, 'unarchive', 'Draft'],
        [live.id, 'unarchive', 'Live'],
      ];
      for (const [id, name, status] of refused) {
        const res = await action(id, name);
        expect({ name, status: res.status }).toEqual({ name, status: 409 });
        expect(res.body).toEqual({ succeeded: false, messages: [expect.any(String)], data: null });
        expect((await getPrompt(id)).body.data.status).toBe(status);
      }
      expect((await getEndpoint(endpointId)).body.data.defaultPromptId).toBeNull();
    });

    it('refuses to archive the default prompt (409) until another default is set', async () => {
      const endpointId = await createEndpoint();
      const first = await createPrompt(endpointId);
      const second = await createPrompt(endpointId);
      for (const p of [first, second]) await action(p.id, 'promote');
      await action(first.id, 'set-default');
      const refused = await action(first.id, 'archive');
      expect(refused.status).toBe(409);
      expect(refused.body.messages[0]).toContain('default');
      expect((await getPrompt(first.id)).body.data).toMatchObject({ status: 'Live', isDefault: true });

      const replaced = await action(second.id, 'set-default');
      expect(replaced.body.data.isDefault).toBe(true);
      expect((await getPrompt(first.id)).body.data.isDefault).toBe(false);
      expect((await getEndpoint(endpointId)).body.data.defaultPromptId).toBe(second.id);
      expect((await action(first.id, 'archive')).status).toBe(200);
    });

    it('duplicates any prompt as a new Draft with the current content, leaving the original unchanged', async () => {
      const endpointId = await createEndpoint();
      const original = await createPrompt(endpointId, { name: 'Source', temperature: 0.3 });
      await action(original.id, 'promote');
      await t.http
        .put(`/admin/v1/prompts/${original.id}`)
        .set(auth(tenant.admin))
        .send({ template: 'v2 {{ inputs.topic }}' });
      const copy = await action(original.id, 'duplicate');
      expect(copy.status).toBe(201);
      expect(copy.body.data).toMatchObject({
        name: 'Source (copy)',
        slug: 'source-copy',
        status: 'Draft',
        isDefault: false,
        template: 'v2 {{ inputs.topic }}',
        temperature: 0.3,
        currentVersion: 1,
      });
      expect(copy.body.data.id).not.toBe(original.id);
      const second = await action(original.id, 'duplicate');
      expect(second.body.data.name).toBe('Source (copy 2)');
      const source = (await getPrompt(original.id)).body.data;
      expect(source).toMatchObject({ name: 'Source', status: 'Live', currentVersion: 2 });
      await action(original.id, 'archive');
      const ofArchived = await action(original.id, 'duplicate');
      expect(ofArchived.status).toBe(201);
      expect(ofArchived.body.data.status).toBe('Draft');
    });
  });

  describe('validator', () => {
    const validate = (endpointId: string, template: string, key = tenant.admin) =>
      t.http.post('/admin/v1/prompts/validate').set(auth(key)).send({ endpointId, template });

    it('reports the inputs the template reads and accepts the default filter', async () => {
      const endpointId = await createEndpoint(tenant.admin, ['topic', 'tone']);
      const res = await validate(
        endpointId,
        'About {{ inputs.topic }} in a {{ inputs.tone | default: "neutral" }} tone.\n{% if inputs.topic %}!{% endif %}',
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        succeeded: true,
        messages: [],
        data: { valid: true, errors: [], variables: ['inputs.topic', 'inputs.tone'], unknownVariables: [] },
      });
    });

    it('reports unknown variables with their position, default filter or not', async () => {
      const endpointId = await createEndpoint(tenant.admin, ['topic']);
      const res = await validate(endpointId, '{{ inputs.topic }}\n  {{ inputs.missing | default: "x" }} {{ other }}');
      expect(res.status).toBe(200);
      expect(res.body.data.valid).toBe(false);
      expect(res.body.data.variables).toEqual(['inputs.topic', 'inputs.missing']);
      expect(res.body.data.unknownVariables).toEqual(['inputs.missing', 'other']);
      expect(res.body.data.errors).toEqual([
        { message: expect.stringContaining("'missing' is not an input field"), line: 2, column: 6 },
        { message: expect.stringContaining("Unknown variable 'other'"), line: 2, column: 42 },
      ]);
    });

    it('reports a syntax error with line and column', async () => {
      const endpointId = await createEndpoint();
      const res = await validate(endpointId, 'Line one\n{% for x in inputs.topic %}\nno end');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        valid: false,
        errors: [{ message: expect.stringContaining('not closed'), line: 2, column: 1 }],
        variables: [],
        unknownVariables: [],
      });
    });

    it('refuses templates that would read files (render, include, layout)', async () => {
      const endpointId = await createEndpoint();
      for (const template of ['{% render "package.json" %}', 'x\n {% include "package.json" %}', '{% layout "x" %}']) {
        const res = await validate(endpointId, template);
        expect(res.body.data.valid).toBe(false);
        expect(res.body.data.errors[0].message).toContain('cannot load other templates or files');
      }
      const saved = await t.http
        .post('/admin/v1/prompts')
        .set(auth(tenant.admin))
        .send({ endpointId, name: 'reader', template: '{% render "package.json" %}', llmModel: 'mock-echo' });
      expect(saved.status).toBe(400);
    });

    it("is open to ReadOnly keys, needs a valid endpointId, and hides other tenants' endpoints", async () => {
      const endpointId = await createEndpoint();
      expect((await validate(endpointId, '{{ inputs.topic }}', tenant.readOnly)).status).toBe(200);
      const bad = await t.http
        .post('/admin/v1/prompts/validate')
        .set(auth(tenant.admin))
        .send({ endpointId: 'x', template: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.messages[0]).toContain('endpointId');
      const other = await seedTenant(t.app);
      expect((await validate(endpointId, 'x', other.admin)).status).toBe(404);
    });
  });

  describe('permissions and tenancy', () => {
    it('answers 403 to a ReadOnly key on every write and changes nothing', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId);
      const live = await createPrompt(endpointId);
      await action(live.id, 'promote');
      const writes = [
        t.http.post('/admin/v1/prompts').send({ endpointId, name: 'ro', template: 'x', llmModel: 'mock-echo' }),
        t.http.put(`/admin/v1/prompts/${prompt.id}`).send({ template: 'changed' }),
        ...['promote', 'demote', 'set-default', 'archive', 'unarchive', 'duplicate'].map((name) =>
          t.http.post(`/admin/v1/prompts/${live.id}/${name}`),
        ),
        t.http.post(`/admin/v1/prompts/${prompt.id}/versions/1/restore`),
      ];
      for (const write of writes) {
        const res = await write.set(auth(tenant.readOnly));
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ succeeded: false, messages: [expect.any(String)], data: null });
      }
      const list = await t.http.get(`/admin/v1/prompts?endpointId=${endpointId}`).set(auth(tenant.readOnly));
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(2);
      expect((await getPrompt(prompt.id, tenant.readOnly)).body.data).toMatchObject({
        template: prompt.template,
        currentVersion: 1,
      });
      expect((await getPrompt(live.id)).body.data).toMatchObject({ status: 'Live', isDefault: false });
    });

    it('answers 403 to an endpoint key', async () => {
      const endpointId = await createEndpoint();
      const res = await t.http.get(`/admin/v1/prompts?endpointId=${endpointId}`).set(auth(tenant.endpointKey));
      expect(res.status).toBe(403);
    });

    it("answers 404 for another tenant's prompts and endpoints on every route", async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId);
      const other = await seedTenant(t.app);
      const key = auth(other.admin);
      const requests = [
        t.http.get(`/admin/v1/prompts?endpointId=${endpointId}`),
        t.http.get(`/admin/v1/prompts/${prompt.id}`),
        t.http.post('/admin/v1/prompts').send({ endpointId, name: 'steal', template: 'x', llmModel: 'mock-echo' }),
        t.http.put(`/admin/v1/prompts/${prompt.id}`).send({ template: 'mine' }),
        ...['promote', 'demote', 'set-default', 'archive', 'unarchive', 'duplicate'].map((name) =>
          t.http.post(`/admin/v1/prompts/${prompt.id}/${name}`),
        ),
        t.http.get(`/admin/v1/prompts/${prompt.id}/versions`),
        t.http.get(`/admin/v1/prompts/${prompt.id}/versions/1`),
        t.http.get(`/admin/v1/prompts/${prompt.id}/versions/compare?from=1&to=1`),
        t.http.post(`/admin/v1/prompts/${prompt.id}/versions/1/restore`),
      ];
      for (const req of requests) {
        const res = await req.set(key);
        expect(res.status).toBe(404);
        expect(res.body.succeeded).toBe(false);
      }
      expect((await getPrompt(prompt.id)).body.data).toMatchObject({
        status: 'Draft',
        template: prompt.template,
        currentVersion: 1,
      });
      const list = await t.http.get(`/admin/v1/prompts?endpointId=${endpointId}`).set(auth(tenant.admin));
      expect(list.body.data).toHaveLength(1);
    });
  });

  describe('endpoint deletion', () => {
    it('hides the prompts of a soft-deleted endpoint and shows them again after restore', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId);
      expect((await t.http.delete(`/admin/v1/endpoints/${endpointId}`).set(auth(tenant.admin))).status).toBe(200);
      expect((await getPrompt(prompt.id)).status).toBe(404);
      expect((await t.http.post(`/admin/v1/endpoints/${endpointId}/restore`).set(auth(tenant.admin))).status).toBe(200);
      expect((await getPrompt(prompt.id)).status).toBe(200);
    });

    it('removes prompts and versions with a permanent delete, default prompt included', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId);
      await action(prompt.id, 'promote');
      await action(prompt.id, 'set-default');
      await t.http.put(`/admin/v1/prompts/${prompt.id}`).set(auth(tenant.admin)).send({ template: 'v2' });
      const other = await createPrompt(endpointId);
      const res = await t.http.delete(`/admin/v1/endpoints/${endpointId}?permanent=true`).set(auth(tenant.admin));
      expect(res.status).toBe(200);
      for (const id of [prompt.id, other.id]) {
        expect((await getPrompt(id)).status).toBe(404);
        expect((await t.http.get(`/admin/v1/prompts/${id}/versions`).set(auth(tenant.admin))).status).toBe(404);
      }
      const dataSource = t.app.get((await import('typeorm')).DataSource);
      const [rows] = await dataSource.query(
        'SELECT (SELECT count(*) FROM prompts WHERE endpoint_id = $1)::int AS prompts, (SELECT count(*) FROM prompt_versions WHERE prompt_id = ANY($2::uuid[]))::int AS versions',
        [endpointId, [prompt.id, other.id]],
      );
      expect(rows).toEqual({ prompts: 0, versions: 0 });
    });
  });
});
