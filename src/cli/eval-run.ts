import {
  ENDED_STATUSES,
  EXIT,
  type GateView,
  type ItemView,
  runReport,
  type RunView,
  thresholdsFor,
  unmetThresholds,
} from './eval-report';

/** What `eval run` asks for: the tenant, the dataset, and the candidate prompt at a version (default its current). */
export interface EvalRunArgs {
  tenant: string;
  datasetId: string;
  promptId: string;
  versionNumber?: number;
}

/** The dataset as `eval run` reads it. */
export interface DatasetView {
  id: string;
  endpointId: string;
  name: string;
}

/**
 * Where `eval run` makes and follows its run: the services in this process, or the admin API of a running service.
 * Each method throws an EvalRunFailure (or an error whose message says what went wrong) when it cannot answer.
 */
export interface EvalRunSource {
  /** Checks that the tenant exists (and, over HTTP, that the admin key is one of its keys). */
  checkTenant(slug: string): Promise<void>;
  dataset(datasetId: string): Promise<DatasetView>;
  promotionGate(endpointId: string): Promise<GateView | null>;
  startRun(
    datasetId: string,
    body: { promptId: string; versionNumber?: number; baseline: 'default' },
  ): Promise<RunView>;
  run(runId: string): Promise<RunView>;
  items(runId: string): Promise<ItemView[]>;
}

/** A failure `eval run` reports on its own line of stderr and exits 2 for. */
export class EvalRunFailure extends Error {}

/** How `eval run` waits for its run: polls from `firstPollMs`, doubling up to `maxPollMs`, for at most `timeoutMs`. */
export interface EvalRunWait {
  firstPollMs: number;
  maxPollMs: number;
  timeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts a run of the dataset for the candidate against the endpoint's default prompt, waits for it to end and
 * reports it. Exits 0 when the run meets the thresholds (the endpoint's promotion gate when it names this dataset,
 * else every item passing and none regressing), 1 when it does not, and 2 when the run cannot be made or does not
 * complete.
 */
export async function evalRun(
  source: EvalRunSource,
  args: EvalRunArgs,
  wait: EvalRunWait,
): Promise<{ exitCode: number; stdout: string[]; stderr: string[] }> {
  const stdout: string[] = [];
  try {
    await source.checkTenant(args.tenant);
    const dataset = await source.dataset(args.datasetId);
    const thresholds = thresholdsFor(await source.promotionGate(dataset.endpointId), dataset.id);
    const started = await source.startRun(dataset.id, {
      promptId: args.promptId,
      ...(args.versionNumber !== undefined ? { versionNumber: args.versionNumber } : {}),
      baseline: 'default',
    });
    stdout.push(`Started run ${started.id} of dataset "${dataset.name}" (${started.summary.items} items)`);
    const run = await untilEnded(source, started, wait);
    if (run.status !== 'completed') {
      const why = run.errorMessage ? `: ${run.errorMessage}` : '';
      throw new EvalRunFailure(`Run ${run.id} ${run.status}${why}`);
    }
    const regressed = (await source.items(run.id)).filter((item) => item.verdict === 'regressed');
    stdout.push(...runReport({ run, datasetName: dataset.name, thresholds, regressed }));
    const unmet = unmetThresholds(run.summary, thresholds);
    return { exitCode: unmet.length === 0 ? EXIT.passed : EXIT.failed, stdout, stderr: [] };
  } catch (error) {
    return { exitCode: EXIT.error, stdout, stderr: [`Error: ${(error as Error).message ?? String(error)}`] };
  }
}

async function untilEnded(source: EvalRunSource, started: RunView, wait: EvalRunWait): Promise<RunView> {
  const sleep = wait.sleep ?? sleepFor;
  const deadline = Date.now() + wait.timeoutMs;
  let run = started;
  let pollMs = wait.firstPollMs;
  while (!ENDED_STATUSES.includes(run.status)) {
    if (Date.now() >= deadline) {
      throw new EvalRunFailure(
        `Run ${run.id} is still ${run.status} after ${Math.round(wait.timeoutMs / 1000)} s and was not cancelled ` +
          `(GET /admin/v1/eval-runs/${run.id} follows it)`,
      );
    }
    await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
    pollMs = Math.min(pollMs * 2, wait.maxPollMs);
    run = await source.run(run.id);
  }
  return run;
}
