import { randomUUID } from 'node:crypto';
import { useTestApp } from '../support/app-suite';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { expectFailure } from '../support/envelope';
import { eventually } from '../support/eventually';
import { auth } from '../support/seed';

/** The fake model answers `wrong` to a prompt that starts with this, `right` to any other. */
const BAD = 'Bad answer to';

/**
 * The promotion gate: an endpoint with `promotionGate` promotes a prompt only with a completed evaluation run of the
 * gate's dataset, at its current version, for the prompt's current version, against the endpoint's current default,
 * meeting both thresholds; otherwise 409 with a message per reason, unless forced with a reason. The version records
 * how the gate was passed.
 */
describe('promotion gate', () => {
  const { t, tenant, other, fake } = useTestApp({
    fake: {},
    other: true,
    env: { ADMIN_RATE_LIMIT_PER_MINUTE: '100000' },
  });

  beforeEach(() => {
    fake.replyBy((request) => ({ text: JSON.stringify(request.body).includes(BAD) ? 'wrong' : 'right' }));
  });

  const post = (path: string, body: object = {}, key = tenant.admin) =>
    t.http.post(`/admin/v1${path}`).set(auth(key)).send(body);
  const put = (path: string, body: object) => t.http.put(`/admin/v1${path}`).set(auth(tenant.admin)).send(body);
  const get = (path: string, key = tenant.admin) => t.http.get(`/admin/v1${path}`).set(auth(key));

  /** An endpoint whose default prompt answers `right`, with a dataset of two items checked for `right`, gated. */
  async function gated(gate: object = {}) {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    const base = await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Answer {{ inputs.text }}',
      llmModel: 'llama-test',
    });
    const dataset = await post(`/endpoints/${endpoint.id}/datasets`, {
      name: `gate-${randomUUID().slice(0, 8)}`,
      checks: [{ type: 'contains', value: 'right' }],
    });
    const datasetId = dataset.body.data.id as string;
    const datasetName = dataset.body.data.name as string;
    const items = [{ inputs: { text: `a-${randomUUID()}` } }, { inputs: { text: `b-${randomUUID()}` } }];
    expect((await post(`/datasets/${datasetId}/items`, { items })).status).toBe(201);
    const updated = await put(`/endpoints/${endpoint.id}`, { promotionGate: { datasetId, ...gate } });
    expect(updated.status).toBe(200);
    return { endpoint, base, datasetId, datasetName, updated: updated.body.data };
  }

  const draft = (endpointId: string, template: string) =>
    createPrompt(t, tenant.admin, endpointId, { template, llmModel: 'llama-test' }, 'Draft');
  const runOf = async (datasetId: string, promptId: string) => {
    const started = await post(`/datasets/${datasetId}/runs`, { promptId });
    expect(started.status).toBe(202);
    return eventually(async () => {
      const run = (await get(`/eval-runs/${started.body.data.id}`)).body.data;
      return run.status === 'completed' && run;
    }, 'the run to complete');
  };

  it('PUT /endpoints/{id} takes promotionGate with its defaults, refuses bad values and null removes it', async () => {
    const { endpoint, datasetId, updated } = await gated();
    expect(updated.promotionGate).toEqual({ datasetId, minPassRate: 1, maxRegressions: 0 });
    expectFailure(await put(`/endpoints/${endpoint.id}`, { promotionGate: { datasetId, minPassRate: 2 } }), 400, [
      /promotionGate.minPassRate/,
    ]);
    expectFailure(await put(`/endpoints/${endpoint.id}`, { promotionGate: { datasetId: 'x' } }), 400, [
      /promotionGate.datasetId/,
    ]);
    expectFailure(await put(`/endpoints/${endpoint.id}`, { promotionGate: { datasetId, maxRegressions: -1 } }), 400, [
      /promotionGate.maxRegressions/,
    ]);
    const removed = await put(`/endpoints/${endpoint.id}`, { promotionGate: null });
    expect(removed.body.data.promotionGate).toBeNull();
    const candidate = await draft(endpoint.id, 'Ungated {{ inputs.text }}');
    expect((await post(`/prompts/${candidate.id}/promote`)).status).toBe(200);
  });

  it("refuses a gate naming another endpoint's dataset or no dataset at all, and keeps the gate it had", async () => {
    const { endpoint, datasetId } = await gated();
    const other = await gated();
    for (const wrongId of [other.datasetId, randomUUID()]) {
      expectFailure(await put(`/endpoints/${endpoint.id}`, { promotionGate: { datasetId: wrongId } }), 400, [
        new RegExp(`promotionGate.datasetId: no dataset ${wrongId} on this endpoint`),
      ]);
    }
    expect((await get(`/endpoints/${endpoint.id}`)).body.data.promotionGate).toMatchObject({ datasetId });
  });

  it('a passing run of the current version lets the prompt be promoted, and the version records it', async () => {
    const { endpoint, datasetId, datasetName } = await gated({ minPassRate: 0.9 });
    const candidate = await draft(endpoint.id, 'Answer again {{ inputs.text }}');
    expectFailure(await post(`/prompts/${candidate.id}/promote`), 409, [
      `No completed evaluation run of dataset "${datasetName}" for version 1 of this prompt: run the dataset on that version first.`,
    ]);
    const run = await runOf(datasetId, candidate.id);
    const promoted = await post(`/prompts/${candidate.id}/promote`);
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.status).toBe('Live');
    const version = await get(`/prompts/${candidate.id}/versions/1`);
    expect(version.body.data.gate).toEqual({ forced: false, runId: run.id });
  });

  it('refuses a run of an older dataset version, one against another default, and one below the thresholds', async () => {
    const { endpoint, base, datasetId } = await gated({ minPassRate: 0.9 });
    const stale = await draft(endpoint.id, 'Stale {{ inputs.text }}');
    await runOf(datasetId, stale.id);
    expect((await post(`/datasets/${datasetId}/items`, { items: [{ inputs: { text: 'c' } }] })).status).toBe(201);
    expectFailure(await post(`/prompts/${stale.id}/promote`), 409, [
      'The run used dataset version 1 and it is now 2: run it again.',
    ]);

    const bad = await draft(endpoint.id, `${BAD} {{ inputs.text }}`);
    await runOf(datasetId, bad.id);
    expectFailure(await post(`/prompts/${bad.id}/promote`), 409, [
      'The pass rate 0 is below the required 0.9.',
      'The run has 3 regressions (at most 0 allowed).',
    ]);

    const before = await draft(endpoint.id, 'Before the default changed {{ inputs.text }}');
    await runOf(datasetId, before.id);
    const next = await draft(endpoint.id, 'New default {{ inputs.text }}');
    await runOf(datasetId, next.id);
    expect((await post(`/prompts/${next.id}/promote`)).status).toBe(200);
    expect((await post(`/prompts/${next.id}/set-default`)).status).toBe(200);
    const problems = (await post(`/prompts/${before.id}/promote`)).body.messages;
    expect(problems).toEqual([
      `The default prompt changed since the run: the run compared with version 1 of prompt ${base.id}, and the default is now version 1 of prompt ${next.id}.`,
    ]);
  });

  it('force with a reason promotes past the gate and records it; force needs a reason; read-only keys cannot', async () => {
    const { endpoint, datasetId } = await gated();
    const bad = await draft(endpoint.id, `${BAD} {{ inputs.text }}`);
    const run = await runOf(datasetId, bad.id);
    expectFailure(await post(`/prompts/${bad.id}/promote`, { force: true }), 400, [/reason/]);
    expectFailure(await post(`/prompts/${bad.id}/promote`, { force: true, reason: 'x' }, tenant.readOnly), 403);
    const forced = await post(`/prompts/${bad.id}/promote`, { force: true, reason: 'Hotfix approved by on-call' });
    expect(forced.status).toBe(200);
    expect(forced.body.data.status).toBe('Live');
    const version = await get(`/prompts/${bad.id}/versions/1`);
    expect(version.body.data.gate).toEqual({ forced: true, reason: 'Hotfix approved by on-call', runId: run.id });
  });

  it("GET /prompts/{id}/promotion-gate answers the verdict a promotion would get now, for any of the tenant's keys", async () => {
    const { endpoint, datasetId, datasetName } = await gated({ minPassRate: 0.9 });
    const candidate = await draft(endpoint.id, 'Asked first {{ inputs.text }}');
    const gate = { datasetId, minPassRate: 0.9, maxRegressions: 0 };
    expect((await get(`/prompts/${candidate.id}/promotion-gate`, tenant.readOnly)).body.data).toEqual({
      gate,
      open: false,
      problems: [
        `No completed evaluation run of dataset "${datasetName}" for version 1 of this prompt: run the dataset on that version first.`,
      ],
      runId: null,
    });
    const run = await runOf(datasetId, candidate.id);
    expect((await get(`/prompts/${candidate.id}/promotion-gate`)).body.data).toEqual({
      gate,
      open: true,
      problems: [],
      runId: run.id,
    });
    // Asking changed nothing: the promotion still passes, with the same run.
    expect((await post(`/prompts/${candidate.id}/promote`)).status).toBe(200);

    const ungated = await createEndpoint(t, tenant.admin);
    const free = await createPrompt(t, tenant.admin, ungated.id, { template: 'Free', llmModel: 'llama-test' }, 'Draft');
    expect((await get(`/prompts/${free.id}/promotion-gate`)).body.data).toEqual({
      gate: null,
      open: true,
      problems: [],
      runId: null,
    });
    expectFailure(await get(`/prompts/${candidate.id}/promotion-gate`, other.admin), 404);
  });
});
