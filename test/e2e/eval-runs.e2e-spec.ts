import { randomUUID } from 'node:crypto';
import { useTestApp } from '../support/app-suite';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { expectFailure, UUID } from '../support/envelope';
import { eventually, sleep } from '../support/eventually';
import type { ReceivedRequest } from '../support/fake-llm-server';
import { auth } from '../support/seed';

/** The fake model answers `wrong` to a prompt that starts with this, `right` to any other. */
const BAD = 'Bad answer to';

/**
 * Evaluation runs: a dataset's items run through the execution pipeline with a candidate prompt version and a
 * baseline, in the background; each side's answers are checked, compared item by item, summed up, kept in the answer
 * store (a repeated run calls no model) and logged with source Eval, which the statistics leave out.
 */
describe('evaluation runs', () => {
  const { t, tenant, other, fake } = useTestApp({
    other: true,
    fake: {},
    env: { ADMIN_RATE_LIMIT_PER_MINUTE: '100000' },
  });

  const promptOf = (request: ReceivedRequest) => JSON.stringify(request.body);
  beforeEach(() => {
    fake.replyBy((request) => ({ text: promptOf(request).includes(BAD) ? 'wrong' : 'right' }));
  });

  const post = (path: string, body: object = {}, key = tenant.admin) =>
    t.http.post(`/admin/v1${path}`).set(auth(key)).send(body);
  const get = (path: string, key = tenant.admin) => t.http.get(`/admin/v1${path}`).set(auth(key));
  const put = (path: string, body: object) => t.http.put(`/admin/v1${path}`).set(auth(tenant.admin)).send(body);

  /**
   * An endpoint with a `text` input whose default prompt answers `right` (on the fake's llama-test), a Draft prompt
   * that answers `wrong`, and a dataset of `count` items whose check wants `right`.
   */
  async function world(count = 3) {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    const good = await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Answer {{ inputs.text }}',
      llmModel: 'llama-test',
    });
    const bad = await createPrompt(
      t,
      tenant.admin,
      endpoint.id,
      { template: `${BAD} {{ inputs.text }}`, llmModel: 'llama-test' },
      'Draft',
    );
    const created = await post(`/endpoints/${endpoint.id}/datasets`, {
      name: `set-${randomUUID().slice(0, 8)}`,
      checks: [{ type: 'contains', value: 'right' }],
    });
    expect(created.status).toBe(201);
    const dataset = created.body.data;
    const items = Array.from({ length: count }, (_, i) => ({ inputs: { text: `q${i}-${randomUUID()}` } }));
    expect((await post(`/datasets/${dataset.id}/items`, { items })).status).toBe(201);
    return { endpoint, good, bad, datasetId: dataset.id as string };
  }

  const start = async (datasetId: string, body: object) => {
    const res = await post(`/datasets/${datasetId}/runs`, body);
    expect(res.status).toBe(202);
    return res.body.data;
  };
  const finished = (id: string) =>
    eventually(async () => {
      const res = await get(`/eval-runs/${id}`);
      return ['completed', 'failed', 'cancelled'].includes(res.body.data.status) && res.body.data;
    }, `run ${id} to end`);

  it('a run of the default prompt against itself passes every item with no regression, logged with source Eval', async () => {
    const { endpoint, good, datasetId } = await world();
    const run = await start(datasetId, { promptId: good.id });
    expect(run).toMatchObject({
      id: expect.stringMatching(UUID),
      endpointId: endpoint.id,
      datasetId,
      datasetVersion: 1,
      status: 'queued',
      candidate: { promptId: good.id, versionNumber: 1 },
      baseline: { promptId: good.id, versionNumber: 1 },
      concurrency: 4,
      repeats: 1,
      fresh: false,
    });

    const done = await finished(run.id);
    expect(done.status).toBe('completed');
    expect(done.summary).toEqual({
      items: 3,
      passed: 3,
      failed: 0,
      passRate: 1,
      baselinePassRate: 1,
      regressions: 0,
      improvements: 0,
      costUsd: expect.any(Number),
      durationMs: expect.any(Number),
    });

    const items = (await get(`/eval-runs/${run.id}/items`)).body.data;
    expect(items).toHaveLength(3);
    for (const item of items) {
      expect(item.verdict).toBe('unchanged_pass');
      expect(item.candidate).toMatchObject({
        passed: true,
        output: 'right',
        checks: [{ type: 'contains', pass: true, reason: null }],
        latencyMs: expect.any(Number),
        logId: expect.stringMatching(UUID),
      });
    }
    const logId = items[0].candidate.logId;
    const log = await eventually(async () => {
      const res = await get(`/logs/${logId}`);
      return res.status === 200 && res.body.data;
    }, 'the log row');
    expect(log).toMatchObject({ source: 'Eval', promptId: good.id, tags: { eval_run: run.id } });
    // Each check type's result is a score on the item's log row, with no score config declared for it.
    expect(log.scores).toEqual([expect.objectContaining({ name: 'eval.contains', value: true, source: 'eval' })]);
    const scored = await get(`/logs?endpointId=${endpoint.id}&score=eval.contains:true`);
    expect(scored.body.data.items.map((row: { id: string }) => row.id)).toContain(logId);

    // The statistics leave the evaluation's executions out unless asked for them.
    const stats = await get(`/stats?endpointId=${endpoint.id}`);
    expect(stats.body.data.totals.calls).toBe(0);
    const evalStats = await get(`/stats?endpointId=${endpoint.id}&source=Eval`);
    expect(evalStats.body.data.totals.calls).toBeGreaterThanOrEqual(3);
    // So do the check scores: in the statistics of the evaluation's executions only.
    const scoreStats = await get(`/stats?endpointId=${endpoint.id}&score=eval.contains`);
    expect(scoreStats.status).toBe(200);
    expect(scoreStats.body.data.totals.scores).toMatchObject({ name: 'eval.contains', count: 0 });
    const evalScoreStats = await get(`/stats?endpointId=${endpoint.id}&source=Eval&score=eval.contains`);
    // Each execution of the run (the two sides share answers they have in common) scored once.
    expect(evalScoreStats.body.data.totals.scores).toMatchObject({ name: 'eval.contains', mean: 1 });
    expect(evalScoreStats.body.data.totals.scores.count).toBe(evalStats.body.data.totals.calls);

    const list = await get(`/endpoints/${endpoint.id}/eval-runs`);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([run.id]);
  });

  it('a regressing candidate is reported item by item; running it again calls no model unless fresh', async () => {
    const { endpoint, bad, good, datasetId } = await world();
    const first = await finished((await start(datasetId, { promptId: bad.id, concurrency: 2 })).id);
    expect(first).toMatchObject({
      status: 'completed',
      candidate: { promptId: bad.id, versionNumber: 1 },
      baseline: { promptId: good.id, versionNumber: 1 },
      summary: { items: 3, passed: 0, failed: 3, passRate: 0, baselinePassRate: 1, regressions: 3, improvements: 0 },
    });
    const items = (await get(`/eval-runs/${first.id}/items`)).body.data;
    expect(items.map((item: { verdict: string }) => item.verdict)).toEqual(['regressed', 'regressed', 'regressed']);
    expect(items[0].candidate).toMatchObject({ passed: false, output: 'wrong', cached: false });
    expect(items[0].candidate.checks[0]).toMatchObject({ type: 'contains', pass: false });
    expect(items[0].baseline).toMatchObject({ passed: true, output: 'right', cached: false });

    fake.requests.length = 0;
    const again = await finished((await start(datasetId, { promptId: bad.id })).id);
    expect(again.summary).toMatchObject({ regressions: 3, costUsd: 0 });
    expect(fake.requests).toHaveLength(0);
    const cachedItems = (await get(`/eval-runs/${again.id}/items`)).body.data;
    expect(cachedItems.every((item: any) => item.candidate.cached && item.baseline.cached)).toBe(true);

    const fresh = await finished((await start(datasetId, { promptId: bad.id, fresh: true })).id);
    expect(fresh.summary).toMatchObject({ regressions: 3 });
    expect(fake.requests).toHaveLength(6);

    // Newest first.
    const list = await get(`/endpoints/${endpoint.id}/eval-runs`);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([fresh.id, again.id, first.id]);
  });

  it('baseline none runs the candidate alone; a named baseline version runs that version', async () => {
    const { bad, good, datasetId } = await world(2);
    const alone = await finished((await start(datasetId, { promptId: good.id, baseline: 'none' })).id);
    expect(alone).toMatchObject({ baseline: null, summary: { passRate: 1, baselinePassRate: null } });
    const items = (await get(`/eval-runs/${alone.id}/items`)).body.data;
    expect(items[0]).toMatchObject({ baseline: null, verdict: 'unchanged_pass' });

    const improved = await finished(
      (await start(datasetId, { promptId: good.id, baseline: { promptId: bad.id, versionNumber: 1 } })).id,
    );
    expect(improved.summary).toMatchObject({ improvements: 2, regressions: 0, baselinePassRate: 0 });
  });

  it('a judge check asks the judge model for {pass, score, reason} and passes at or above its threshold', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Answer {{ inputs.text }}',
      llmModel: 'llama-test',
    });
    const created = await post(`/endpoints/${endpoint.id}/datasets`, {
      name: `judged-${randomUUID().slice(0, 8)}`,
      checks: [
        { type: 'judge', llmModel: 'llama-test', rubric: 'Grade {{ output }} for {{ inputs.text }}', threshold: 0.8 },
      ],
    });
    expect(created.status).toBe(201);
    const datasetId = created.body.data.id;
    const items = [{ inputs: { text: 'good' } }, { inputs: { text: 'poor' } }];
    expect((await post(`/datasets/${datasetId}/items`, { items })).status).toBe(201);
    fake.replyBy((request) => {
      const text = promptOf(request);
      if (!text.includes('Grade')) return { text: 'right' };
      const score = text.includes('for good') ? 0.9 : 0.3;
      return { text: JSON.stringify({ pass: true, score, reason: `scored ${score}` }) };
    });
    const run = await finished((await start(datasetId, { promptId: prompt.id, baseline: 'none' })).id);
    expect(run.summary).toMatchObject({ items: 2, passed: 1, failed: 1 });
    const [good, poor] = (await get(`/eval-runs/${run.id}/items`)).body.data;
    expect(good.candidate.checks).toEqual([{ type: 'judge', pass: true, reason: 'scored 0.9' }]);
    expect(poor.candidate.checks[0]).toMatchObject({ type: 'judge', pass: false });
    expect(poor.candidate.checks[0].reason).toContain('below the threshold 0.8');
    // Two answers and two judgements.
    expect(fake.requests).toHaveLength(4);

    // Run again: the answers and the verdicts are kept, so nothing is asked again; a changed threshold is applied to
    // the kept verdicts. A fresh run asks both again.
    const judge = { type: 'judge', llmModel: 'llama-test', rubric: 'Grade {{ output }} for {{ inputs.text }}' };
    expect((await put(`/datasets/${datasetId}`, { checks: [{ ...judge, threshold: 0.2 }] })).status).toBe(200);
    const again = await finished((await start(datasetId, { promptId: prompt.id, baseline: 'none' })).id);
    expect(again.summary).toMatchObject({ items: 2, passed: 2, failed: 0 });
    expect(fake.requests).toHaveLength(4);
    const fresh = await finished((await start(datasetId, { promptId: prompt.id, baseline: 'none', fresh: true })).id);
    expect(fresh.summary).toMatchObject({ items: 2, passed: 2 });
    expect(fake.requests).toHaveLength(8);
  });

  it('the schema check is always on for an endpoint with output fields', async () => {
    const endpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
      outputs: [{ name: 'answer', dataType: 'string', description: 'The answer' }],
    });
    const prompt = await createPrompt(t, tenant.admin, endpoint.id, {
      template: 'Answer {{ inputs.text }}',
      llmModel: 'llama-test',
    });
    const created = await post(`/endpoints/${endpoint.id}/datasets`, { name: `schema-${randomUUID().slice(0, 8)}` });
    const datasetId = created.body.data.id;
    expect((await post(`/datasets/${datasetId}/items`, { items: [{ inputs: { text: 'x' } }] })).status).toBe(201);
    fake.replyBy(() => ({ text: JSON.stringify({ answer: 'yes' }) }));
    const run = await finished((await start(datasetId, { promptId: prompt.id, baseline: 'none' })).id);
    const [item] = (await get(`/eval-runs/${run.id}/items`)).body.data;
    expect(item.candidate).toMatchObject({
      output: { answer: 'yes' },
      checks: [{ type: 'schema', pass: true, reason: null }],
    });
  });

  it('with repeats, an item passes when most of its repeats pass', async () => {
    const { good, datasetId } = await world(1);
    let calls = 0;
    // The first of three repeats answers wrong, the other two right.
    fake.replyBy(() => ({ text: calls++ === 0 ? 'wrong' : 'right' }));
    const run = await finished(
      (await start(datasetId, { promptId: good.id, baseline: 'none', repeats: 3, concurrency: 1 })).id,
    );
    expect(run.summary).toMatchObject({ items: 1, passed: 1 });
    const [item] = (await get(`/eval-runs/${run.id}/items`)).body.data;
    expect(item.candidate.repeats.map((r: { passed: boolean }) => r.passed)).toEqual([false, true, true]);
    expect(item.candidate.passed).toBe(true);
  });

  it('cancel stops the run at once: no further item starts', async () => {
    const { good, datasetId } = await world(6);
    fake.replyBy(() => ({ text: 'right', delayMs: 1500 }));
    const run = await start(datasetId, { promptId: good.id, baseline: 'none', concurrency: 1 });
    await eventually(() => fake.requests.length > 0, 'the first call');
    const cancelled = await post(`/eval-runs/${run.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    await sleep(2500);
    expect(fake.requests.length).toBeLessThanOrEqual(2);
    expect((await get(`/eval-runs/${run.id}`)).body.data.status).toBe('cancelled');
    expectFailure(await post(`/eval-runs/${run.id}/cancel`), 409, [/cancelled/]);
  });

  it('refuses bad bodies (400 naming the field), unknown ids (404), other tenants (404) and read-only keys (403)', async () => {
    const { good, bad, datasetId } = await world(1);
    expectFailure(await post(`/datasets/${datasetId}/runs`, { promptId: good.id, concurrency: 11 }), 400, [
      /concurrency/,
    ]);
    expectFailure(await post(`/datasets/${datasetId}/runs`, { promptId: good.id, repeats: 0 }), 400, [/repeats/]);
    expectFailure(await post(`/datasets/${datasetId}/runs`, { promptId: good.id, baseline: 'latest' }), 400, [
      /baseline/,
    ]);
    expectFailure(
      await post(`/datasets/${datasetId}/runs`, { promptId: good.id, baseline: { promptId: bad.id } }),
      400,
      [/baseline.versionNumber/],
    );
    expectFailure(await post(`/datasets/${datasetId}/runs`, { promptId: good.id, versionNumber: 9 }), 404, [
      /Version 9/,
    ]);
    expectFailure(await post(`/datasets/${randomUUID()}/runs`, { promptId: good.id }), 404);
    expectFailure(await post(`/datasets/${datasetId}/runs`, { promptId: good.id }, other.admin), 404);
    expectFailure(await post(`/datasets/${datasetId}/runs`, { promptId: good.id }, tenant.readOnly), 403);
    const otherEndpoint = await createEndpoint(t, tenant.admin, {
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    const stranger = await createPrompt(t, tenant.admin, otherEndpoint.id, { template: 'x', llmModel: 'llama-test' });
    expectFailure(await post(`/datasets/${datasetId}/runs`, { promptId: stranger.id }), 400, [/promptId/]);

    const run = await finished((await start(datasetId, { promptId: good.id })).id);
    expectFailure(await get(`/eval-runs/${run.id}`, other.admin), 404);
    expectFailure(await get(`/eval-runs/${run.id}/items`, other.admin), 404);
    expectFailure(await post(`/eval-runs/${run.id}/cancel`, {}, other.admin), 404);
    expectFailure(await post(`/eval-runs/${run.id}/cancel`), 409, [/completed/]);
  });
});
