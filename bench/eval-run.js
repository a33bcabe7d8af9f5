'use strict';
/**
 * The evaluation scenario of `npm run bench`: a dataset of EVAL_ITEMS items on an endpoint whose prompts call a
 * provider answering in EVAL_PROVIDER_DELAY_MS, run at concurrency EVAL_CONCURRENCY. Four runs, one after the other:
 *
 * - the candidate alone (baseline `none`), every answer new: one provider call per item;
 * - the same run again: every answer from the run's answer store, no provider call;
 * - the candidate against the endpoint's default prompt (baseline `default`), `fresh`: both sides call the provider;
 * - that run again without `fresh`: no provider call.
 *
 * Each figure: the wall time from the POST to the first read that sees the run completed (the run is read every
 * POLL_MS), the run's own duration (from its first claimed item to its end), the service's CPU over the run (its
 * process's user + system time from /proc: on the embedded database that includes the database's work, with
 * PostgreSQL it does not), the provider calls the run made and the most of them in flight at once, as the fake
 * provider counted them (GET /calls).
 */
const { cpuSecondsOf } = require('./streaming');

const EVAL_ITEMS = 100;
const EVAL_CONCURRENCY = 10;
const EVAL_PROVIDER_DELAY_MS = 200;
/** How often the run is read while it runs: the wall time is known to within this. */
const POLL_MS = 25;
/** A run still not completed after this long is reported as failed. */
const RUN_TIMEOUT_MS = 120_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the fake provider at `port` has answered so far, and the most it had in flight since the last read. */
async function providerCalls(port) {
  const res = await fetch(`http://127.0.0.1:${port}/calls`);
  return res.json();
}

/**
 * An endpoint with a `text` input, its default prompt and a second (Draft) prompt, both on `model`, and a dataset of
 * EVAL_ITEMS items whose one check wants the fake provider's answer.
 */
async function setUpEval(api, model) {
  const endpoint = await api('POST', '/admin/v1/endpoints', { name: 'bench-eval', path: '/api/v1/bench-eval' });
  await api('POST', `/admin/v1/endpoints/${endpoint.id}/input-fields`, {
    name: 'text',
    dataType: 'string',
    isRequired: true,
    maxLength: 10000,
  });
  const prompt = (name, template) =>
    api('POST', '/admin/v1/prompts', {
      endpointId: endpoint.id,
      name,
      template,
      llmModel: model,
      temperature: 0,
      maxTokens: 64,
    });
  const current = await prompt('current', 'Summarize in one sentence: {{ inputs.text }}');
  await api('POST', `/admin/v1/prompts/${current.id}/promote`);
  await api('POST', `/admin/v1/prompts/${current.id}/set-default`);
  const candidate = await prompt('candidate', 'Summarize in one short sentence: {{ inputs.text }}');
  const dataset = await api('POST', `/admin/v1/endpoints/${endpoint.id}/datasets`, {
    name: 'bench',
    checks: [{ type: 'contains', value: 'summary' }],
  });
  const items = Array.from({ length: EVAL_ITEMS }, (_, i) => ({
    inputs: { text: `Item ${i}: the quick brown fox jumps over the lazy dog.` },
  }));
  await api('POST', `/admin/v1/datasets/${dataset.id}/items`, { items });
  return { datasetId: dataset.id, candidateId: candidate.id };
}

/** One run, from its POST to the first read that sees it ended, with what it cost the service and the provider. */
async function timedRun(api, datasetId, body, pid, providerPort) {
  await providerCalls(providerPort); // resets the provider's in-flight peak
  const before = await providerCalls(providerPort);
  const cpuBefore = cpuSecondsOf(pid);
  const started = performance.now();
  let run = await api('POST', `/admin/v1/datasets/${datasetId}/runs`, body);
  while (!['completed', 'failed', 'cancelled'].includes(run.status)) {
    if (performance.now() - started > RUN_TIMEOUT_MS) throw new Error(`eval run ${run.id} still ${run.status}`);
    await sleep(POLL_MS);
    run = await api('GET', `/admin/v1/eval-runs/${run.id}`);
  }
  const wallMs = performance.now() - started;
  const cpuMs = (cpuSecondsOf(pid) - cpuBefore) * 1000;
  const after = await providerCalls(providerPort);
  if (run.status !== 'completed') throw new Error(`eval run ${run.id} ended ${run.status}`);
  const units = EVAL_ITEMS * (body.baseline === 'none' ? 1 : 2);
  return {
    wallMs,
    runMs: run.summary.durationMs,
    units,
    cpuMsPerUnit: cpuMs / units,
    providerCalls: after.calls - before.calls,
    peakInFlight: after.peakInFlight,
    passRate: run.summary.passRate,
    baselinePassRate: run.summary.baselinePassRate,
  };
}

/**
 * The four runs of the scenario against the service (`api(method, route, body)` calls its admin API), whose process
 * is `pid`, on the fake provider listening on `providerPort` as `model`.
 */
async function measureEval(api, pid, providerPort, model) {
  const { datasetId, candidateId } = await setUpEval(api, model);
  const run = (body) =>
    timedRun(api, datasetId, { promptId: candidateId, concurrency: EVAL_CONCURRENCY, ...body }, pid, providerPort);
  const alone = await run({ baseline: 'none' });
  const aloneAgain = await run({ baseline: 'none' });
  const compared = await run({ baseline: 'default', fresh: true });
  const comparedAgain = await run({ baseline: 'default' });
  return { alone, aloneAgain, compared, comparedAgain };
}

/**
 * The run's overhead per unit of work (one item on one side), from its wall time: each of the `inFlight` places
 * handles units one after the other, so a place spends wall × inFlight / units per unit, of which the provider's delay
 * (for the units that called it) is the provider's and the rest the service's: claiming, rendering, logging, checking,
 * recording, waiting for the next claim, and the harness's last read of the run.
 */
function overheadMsPerUnit(result, inFlight) {
  return (result.wallMs * inFlight - EVAL_PROVIDER_DELAY_MS * result.providerCalls) / result.units;
}

module.exports = { measureEval, overheadMsPerUnit, EVAL_ITEMS, EVAL_CONCURRENCY, EVAL_PROVIDER_DELAY_MS };
