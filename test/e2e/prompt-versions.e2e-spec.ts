import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PromptSelectionService } from '../../src/modules/prompts/prompt-selection.service';
import { TemplateService } from '../../src/modules/prompts/template/template.service';
import { auth, seedTenant } from '../support/seed';
import { useTestApp } from '../support/app-suite';
import { draftPrompt, endpointWithInputs } from '../support/endpoint-fixtures';

describe('prompt versions, default prompt and execution lookups', () => {
  const { t, tenant } = useTestApp({ plan: 'pro' });

  const createEndpoint = (key = tenant.admin) => endpointWithInputs(t, key, 'Versions', ['topic']);

  const createPrompt = (endpointId: string, body: Record<string, unknown> = {}, key = tenant.admin) =>
    draftPrompt(t, key, { endpointId, template: 'v1 {{ inputs.topic }}', ...body });

  const put = (id: string, body: Record<string, unknown>, key = tenant.admin) =>
    t.http.put(`/admin/v1/prompts/${id}`).set(auth(key)).send(body);
  const action = (id: string, name: string, key = tenant.admin) =>
    t.http.post(`/admin/v1/prompts/${id}/${name}`).set(auth(key));
  const versionsOf = async (id: string, key = tenant.admin) =>
    (await t.http.get(`/admin/v1/prompts/${id}/versions`).set(auth(key))).body.data;
  const defaultOf = async (endpointId: string) =>
    (await t.http.get(`/admin/v1/endpoints/${endpointId}`).set(auth(tenant.admin))).body.data.defaultPromptId;

  describe('numbering', () => {
    it('numbers 20 concurrent template changes 2..21 without gaps or duplicates', async () => {
      const prompt = await createPrompt(await createEndpoint());
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => put(prompt.id, { template: `edit ${i} {{ inputs.topic }}` })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      const versions = await versionsOf(prompt.id);
      expect(versions.map((v: { versionNumber: number }) => v.versionNumber)).toEqual(
        Array.from({ length: 21 }, (_, i) => i + 1),
      );
      const templates = new Set(versions.slice(1).map((v: { template: string }) => v.template));
      expect(templates.size).toBe(20);
      const current = (await t.http.get(`/admin/v1/prompts/${prompt.id}`).set(auth(tenant.admin))).body.data;
      expect(current.currentVersion).toBe(21);
      expect(current.template).toBe(versions[20].template);
    });

    it('fetches one version by number; unknown numbers answer 404 and malformed ones 400', async () => {
      const prompt = await createPrompt(await createEndpoint());
      await put(prompt.id, { template: 'v2 {{ inputs.topic }}', changeNotes: 'second' });
      const res = await t.http.get(`/admin/v1/prompts/${prompt.id}/versions/2`).set(auth(tenant.readOnly));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        promptId: prompt.id,
        versionNumber: 2,
        status: 'Draft',
        template: 'v2 {{ inputs.topic }}',
        llmModel: 'mock-echo',
        temperature: 0.7,
        maxTokens: 1024,
        customParameters: {},
        retries: 0,
        fallbackModels: [],
        changeNotes: 'second',
        archived: false,
        gate: null,
        createdAt: expect.any(String),
      });
      expect((await t.http.get(`/admin/v1/prompts/${prompt.id}/versions/3`).set(auth(tenant.admin))).status).toBe(404);
      expect((await t.http.get(`/admin/v1/prompts/${prompt.id}/versions/abc`).set(auth(tenant.admin))).status).toBe(
        400,
      );
      expect((await t.http.get(`/admin/v1/prompts/${randomUUID()}/versions/1`).set(auth(tenant.admin))).status).toBe(
        404,
      );
    });

    it('keeps versions immutable in the database', async () => {
      const prompt = await createPrompt(await createEndpoint());
      const dataSource = t.app.get(DataSource);
      await expect(
        dataSource.query(`UPDATE prompt_versions SET template = 'tampered' WHERE prompt_id = $1`, [prompt.id]),
      ).rejects.toThrow(/immutable/);
      expect((await versionsOf(prompt.id))[0].template).toBe('v1 {{ inputs.topic }}');
    });
  });

  describe('retention', () => {
    it('archives the oldest versions past the free plan limit of 10, and they stay fetchable', async () => {
      const free = await seedTenant(t.app, 'free');
      const prompt = await createPrompt(await createEndpoint(free.admin), {}, free.admin);
      for (let i = 2; i <= 12; i++) expect((await put(prompt.id, { template: `v${i}` }, free.admin)).status).toBe(200);
      const versions = await versionsOf(prompt.id, free.admin);
      expect(versions).toHaveLength(12);
      expect(
        versions
          .filter((v: { archived: boolean }) => v.archived)
          .map((v: { versionNumber: number }) => v.versionNumber),
      ).toEqual([1, 2]);
      const oldest = await t.http.get(`/admin/v1/prompts/${prompt.id}/versions/1`).set(auth(free.admin));
      expect(oldest.status).toBe(200);
      expect(oldest.body.data).toMatchObject({ versionNumber: 1, archived: true, template: 'v1 {{ inputs.topic }}' });
      const restored = await t.http.post(`/admin/v1/prompts/${prompt.id}/versions/1/restore`).set(auth(free.admin));
      expect(restored.status).toBe(201);
      expect(restored.body.data.template).toBe('v1 {{ inputs.topic }}');
    });

    it('keeps all versions active on the pro plan below 50', async () => {
      const prompt = await createPrompt(await createEndpoint());
      for (let i = 2; i <= 12; i++) await put(prompt.id, { template: `v${i}` });
      const versions = await versionsOf(prompt.id);
      expect(versions).toHaveLength(12);
      expect(versions.every((v: { archived: boolean }) => !v.archived)).toBe(true);
    });
  });

  describe('compare', () => {
    it('shows a line diff of the templates and the changed settings', async () => {
      const prompt = await createPrompt(await createEndpoint(), {
        template: 'Hello\n{{ inputs.topic }}\nBye',
        temperature: 0.5,
      });
      await put(prompt.id, {
        template: 'Hello\n{{ inputs.topic | upcase }}\nBye',
        temperature: 0.9,
        customParameters: { style: 'brief' },
      });
      const res = await t.http
        .get(`/admin/v1/prompts/${prompt.id}/versions/compare?from=1&to=2`)
        .set(auth(tenant.readOnly));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        promptId: prompt.id,
        from: { versionNumber: 1, status: 'Draft' },
        to: { versionNumber: 2, status: 'Draft' },
        templateChanged: true,
        templateDiff: [
          { type: 'unchanged', fromLine: 1, toLine: 1, text: 'Hello' },
          { type: 'removed', fromLine: 2, toLine: null, text: '{{ inputs.topic }}' },
          { type: 'added', fromLine: null, toLine: 2, text: '{{ inputs.topic | upcase }}' },
          { type: 'unchanged', fromLine: 3, toLine: 3, text: 'Bye' },
        ],
        changedSettings: [
          { setting: 'temperature', from: 0.5, to: 0.9 },
          { setting: 'customParameters', from: {}, to: { style: 'brief' } },
        ],
      });
      expect(res.body.data.unifiedDiff).toContain('--- v1');
      expect(res.body.data.unifiedDiff).toContain('-{{ inputs.topic }}');
      expect(res.body.data.unifiedDiff).toContain('+{{ inputs.topic | upcase }}');
      const same = await t.http
        .get(`/admin/v1/prompts/${prompt.id}/versions/compare?from=2&to=2`)
        .set(auth(tenant.admin));
      expect(same.body.data).toMatchObject({ templateChanged: false, changedSettings: [] });
    });

    it('versions retries and fallback models: a change of either is a new version, compared as a changed setting', async () => {
      const prompt = await createPrompt(await createEndpoint());
      expect((await put(prompt.id, { retries: 2 })).body.data.currentVersion).toBe(2);
      const fallbackModels = [{ llmModel: 'gpt-4o-mini', temperature: 0.2 }];
      expect((await put(prompt.id, { fallbackModels })).body.data.currentVersion).toBe(3);
      // The same values again (an equal list, keys in another order) create no version.
      const same = await put(prompt.id, {
        retries: 2,
        fallbackModels: [{ temperature: 0.2, llmModel: 'gpt-4o-mini' }],
      });
      expect(same.body.data.currentVersion).toBe(3);
      const versions = await versionsOf(prompt.id);
      expect(versions.map((v: any) => [v.versionNumber, v.retries, v.fallbackModels])).toEqual([
        [1, 0, []],
        [2, 2, []],
        [3, 2, fallbackModels],
      ]);
      const res = await t.http
        .get(`/admin/v1/prompts/${prompt.id}/versions/compare?from=1&to=3`)
        .set(auth(tenant.admin));
      expect(res.body.data).toMatchObject({
        templateChanged: false,
        changedSettings: [
          { setting: 'retries', from: 0, to: 2 },
          { setting: 'fallbackModels', from: [], to: fallbackModels },
        ],
      });
    });

    it('needs two version numbers (400) that exist (404)', async () => {
      const prompt = await createPrompt(await createEndpoint());
      const missing = await t.http
        .get(`/admin/v1/prompts/${prompt.id}/versions/compare?from=1`)
        .set(auth(tenant.admin));
      expect(missing.status).toBe(400);
      expect(missing.body.messages.join(' ')).toContain('to');
      const unknown = await t.http
        .get(`/admin/v1/prompts/${prompt.id}/versions/compare?from=1&to=9`)
        .set(auth(tenant.admin));
      expect(unknown.status).toBe(404);
    });
  });

  describe('restore and rollback', () => {
    it('restores a version as a new Draft prompt named "<name> (vN)" without changing the original', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId, { name: 'Writer', temperature: 0.1, maxTokens: 77 });
      await put(prompt.id, { template: 'v2 {{ inputs.topic }}', temperature: 0.9, llmModel: 'mock-echo' });
      const res = await t.http.post(`/admin/v1/prompts/${prompt.id}/versions/1/restore`).set(auth(tenant.admin));
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        endpointId,
        name: 'Writer (v1)',
        slug: 'writer-v1',
        status: 'Draft',
        isDefault: false,
        template: 'v1 {{ inputs.topic }}',
        temperature: 0.1,
        maxTokens: 77,
        currentVersion: 1,
      });
      // Retries and fallback models come back with the version that had them.
      const failover = await createPrompt(endpointId, {
        name: 'Failover',
        retries: 1,
        fallbackModels: [{ llmModel: 'gpt-4o-mini', maxTokens: 10 }],
      });
      await put(failover.id, { retries: 0, fallbackModels: [] });
      const restoredFailover = await t.http
        .post(`/admin/v1/prompts/${failover.id}/versions/1/restore`)
        .set(auth(tenant.admin));
      expect(restoredFailover.body.data).toMatchObject({
        retries: 1,
        fallbackModels: [{ llmModel: 'gpt-4o-mini', maxTokens: 10 }],
      });
      const restoredVersions = await versionsOf(res.body.data.id);
      expect(restoredVersions).toHaveLength(1);
      expect(restoredVersions[0]).toMatchObject({
        versionNumber: 1,
        template: 'v1 {{ inputs.topic }}',
        temperature: 0.1,
      });
      const original = (await t.http.get(`/admin/v1/prompts/${prompt.id}`).set(auth(tenant.admin))).body.data;
      expect(original).toMatchObject({ name: 'Writer', template: 'v2 {{ inputs.topic }}', currentVersion: 2 });
      expect(await versionsOf(prompt.id)).toHaveLength(2);
      // The same version again would reuse the name: a uniqueness conflict.
      expect(
        (await t.http.post(`/admin/v1/prompts/${prompt.id}/versions/1/restore`).set(auth(tenant.admin))).status,
      ).toBe(409);
      expect(
        (await t.http.post(`/admin/v1/prompts/${prompt.id}/versions/5/restore`).set(auth(tenant.admin))).status,
      ).toBe(404);
    });

    it('rolls back (restore, promote, set-default) without a moment without a default', async () => {
      const endpointId = await createEndpoint();
      const prompt = await createPrompt(endpointId, { name: 'Prod' });
      await action(prompt.id, 'promote');
      await action(prompt.id, 'set-default');
      await put(prompt.id, { template: 'broken v2' });
      expect(await defaultOf(endpointId)).toBe(prompt.id);

      const restored = (await t.http.post(`/admin/v1/prompts/${prompt.id}/versions/1/restore`).set(auth(tenant.admin)))
        .body.data;
      expect(await defaultOf(endpointId)).toBe(prompt.id);
      expect((await action(restored.id, 'promote')).body.data.status).toBe('Live');
      expect(await defaultOf(endpointId)).toBe(prompt.id);
      const swapped = await action(restored.id, 'set-default');
      expect(swapped.status).toBe(200);
      expect(swapped.body.data.isDefault).toBe(true);
      expect(await defaultOf(endpointId)).toBe(restored.id);
      const executable = await t.app.get(PromptSelectionService).resolveForExecution(tenant.id, endpointId);
      expect(executable).toMatchObject({ id: restored.id, template: 'v1 {{ inputs.topic }}', version: 1 });
    });

    it('leaves exactly one default, always, under concurrent set-default calls', async () => {
      const endpointId = await createEndpoint();
      const prompts = await Promise.all(Array.from({ length: 5 }, () => createPrompt(endpointId)));
      for (const p of prompts) await action(p.id, 'promote');
      await action(prompts[0].id, 'set-default');
      const observed: (string | null)[] = [];
      let done = false;
      const watcher = (async () => {
        while (!done) observed.push(await defaultOf(endpointId));
      })();
      const results = await Promise.all(
        prompts.flatMap((p) => [action(p.id, 'set-default'), action(p.id, 'set-default')]),
      );
      done = true;
      await watcher;
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(observed.length).toBeGreaterThan(0);
      expect(observed.every((id) => prompts.some((p) => p.id === id))).toBe(true);
      const finalDefault = await defaultOf(endpointId);
      const list = (await t.http.get(`/admin/v1/prompts?endpointId=${endpointId}`).set(auth(tenant.admin))).body.data;
      expect(list.filter((p: { isDefault: boolean }) => p.isDefault).map((p: { id: string }) => p.id)).toEqual([
        finalDefault,
      ]);
    });

    it('keeps the default Live when set-default races with demote', async () => {
      const endpointId = await createEndpoint();
      const [a, b] = [await createPrompt(endpointId), await createPrompt(endpointId)];
      for (const p of [a, b]) await action(p.id, 'promote');
      await action(a.id, 'set-default');
      const results = await Promise.all([action(b.id, 'set-default'), action(b.id, 'demote')]);
      const statuses = results.map((r) => r.status);
      const defaultId = await defaultOf(endpointId);
      const bNow = (await t.http.get(`/admin/v1/prompts/${b.id}`).set(auth(tenant.admin))).body.data;
      // Either order is valid; the database never ends with a non-Live default.
      if (defaultId === b.id) expect(bNow.status).toBe('Live');
      else expect(defaultId === a.id || defaultId === null).toBe(true);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      if (defaultId !== null) {
        const current = (await t.http.get(`/admin/v1/prompts/${defaultId}`).set(auth(tenant.admin))).body.data;
        expect(current.status).toBe('Live');
      }
    });

    it('refuses in the database a default prompt from another endpoint', async () => {
      const first = await createEndpoint();
      const second = await createEndpoint();
      const foreign = await createPrompt(second);
      const dataSource = t.app.get(DataSource);
      await expect(
        dataSource.query('UPDATE endpoints SET default_prompt_id = $1 WHERE id = $2', [foreign.id, first]),
      ).rejects.toThrow(/fk_endpoints_default_prompt/);
      expect(await defaultOf(first)).toBeNull();
    });
  });

  describe('execution lookups (PromptSelectionService)', () => {
    it('resolves the default, or a Live prompt by name or slug, with the latest version', async () => {
      const prompts = t.app.get(PromptSelectionService);
      const endpointId = await createEndpoint();
      await expect(prompts.resolveForExecution(tenant.id, endpointId)).rejects.toMatchObject({
        code: 'conflict',
        reason: 'no_default_prompt',
      });
      const live = await createPrompt(endpointId, { name: 'Fancy Name', customParameters: { k: 1 } });
      await action(live.id, 'promote');
      await put(live.id, { template: 'v2 {{ inputs.topic }}' });
      const draft = await createPrompt(endpointId, { name: 'Draft One' });
      const archived = await createPrompt(endpointId, { name: 'Old One' });
      await action(archived.id, 'archive');

      for (const selector of ['Fancy Name', 'fancy-name']) {
        await expect(prompts.resolveForExecution(tenant.id, endpointId, selector)).resolves.toEqual({
          id: live.id,
          endpointId,
          name: 'Fancy Name',
          slug: 'fancy-name',
          status: 'Live',
          version: 2,
          template: 'v2 {{ inputs.topic }}',
          llmModel: 'mock-echo',
          temperature: 0.7,
          maxTokens: 1024,
          customParameters: { k: 1 },
          retries: 0,
          fallbackModels: [],
        });
      }
      await expect(prompts.resolveForExecution(tenant.id, endpointId, 'Draft One')).rejects.toMatchObject({
        code: 'conflict',
        reason: 'prompt_not_live',
      });
      await expect(prompts.resolveForExecution(tenant.id, endpointId, 'old-one')).rejects.toMatchObject({
        code: 'not_found',
        reason: 'prompt_not_found',
      });
      await expect(prompts.resolveForExecution(tenant.id, endpointId, 'nope')).rejects.toMatchObject({
        code: 'not_found',
        reason: 'prompt_not_found',
      });
      await expect(prompts.resolveForExecution(tenant.id, endpointId)).rejects.toMatchObject({
        reason: 'no_default_prompt',
      });
      await action(live.id, 'set-default');
      await expect(prompts.resolveForExecution(tenant.id, endpointId)).resolves.toMatchObject({
        id: live.id,
        version: 2,
      });
      const other = await seedTenant(t.app);
      await expect(prompts.resolveForExecution(other.id, endpointId, 'Fancy Name')).rejects.toMatchObject({
        reason: 'prompt_not_found',
      });
      expect(draft.status).toBe('Draft');
    });

    it('gives test runs Draft and Live prompts of the endpoint, refusing Archived ones and others', async () => {
      const prompts = t.app.get(PromptSelectionService);
      const endpointId = await createEndpoint();
      const draft = await createPrompt(endpointId);
      const live = await createPrompt(endpointId);
      await action(live.id, 'promote');
      const archived = await createPrompt(endpointId);
      await action(archived.id, 'archive');
      await expect(prompts.getForTestRun(tenant.id, endpointId, draft.id)).resolves.toMatchObject({
        id: draft.id,
        status: 'Draft',
        version: 1,
      });
      await expect(prompts.getForTestRun(tenant.id, endpointId, live.id)).resolves.toMatchObject({
        id: live.id,
        status: 'Live',
      });
      await expect(prompts.getForTestRun(tenant.id, endpointId, archived.id)).rejects.toMatchObject({
        code: 'conflict',
        reason: 'prompt_archived',
      });
      await expect(prompts.getForTestRun(tenant.id, await createEndpoint(), draft.id)).rejects.toMatchObject({
        code: 'not_found',
      });
      const other = await seedTenant(t.app);
      await expect(prompts.getForTestRun(other.id, endpointId, draft.id)).rejects.toMatchObject({ code: 'not_found' });
    });

    it('renders through the shared template service with inputs in scope and the default filter on missing ones', async () => {
      const templates = t.app.get(TemplateService);
      const template = 'About {{ inputs.topic }} in a {{ inputs.tone | default: "neutral" }} tone';
      // Without message blocks the whole text is one user message.
      await expect(templates.render('p:1', template, { topic: 'cats' })).resolves.toMatchObject({
        text: 'About cats in a neutral tone',
        messages: [{ role: 'user', content: 'About cats in a neutral tone' }],
      });
      await expect(templates.render('p:1', template, { topic: 'dogs', tone: 'warm' })).resolves.toMatchObject({
        text: 'About dogs in a warm tone',
      });
    });
  });
});
