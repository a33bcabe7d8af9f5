import type { RunView } from './eval-report';
import { evalRun, type EvalRunSource } from './eval-run';

const run = (status: string): RunView => ({
  id: 'run-1',
  status,
  datasetVersion: 1,
  candidate: { promptId: 'p-1', versionNumber: 1 },
  baseline: null,
  summary: {
    items: 1,
    passed: 1,
    failed: 0,
    passRate: 1,
    baselinePassRate: null,
    regressions: 0,
    improvements: 0,
    costUsd: 0,
    durationMs: 10,
  },
  errorMessage: status === 'failed' ? 'The run cannot run: the endpoint is deleted' : null,
});

/** A source whose run reads answer `statuses` in turn (the last one from then on). */
function source(statuses: string[]): EvalRunSource & { polls: number } {
  const answers = [...statuses];
  return {
    polls: 0,
    checkTenant: async () => undefined,
    dataset: async () => ({ id: 'd-1', endpointId: 'e-1', name: 'smoke' }),
    promotionGate: async () => null,
    startRun: async () => run('queued'),
    async run() {
      this.polls += 1;
      return run(answers.length > 1 ? answers.shift()! : answers[0]);
    },
    items: async () => [],
  };
}

const args = { tenant: 'acme', datasetId: 'd-1', promptId: 'p-1' };
const noSleep = { firstPollMs: 10, maxPollMs: 40, sleep: async () => undefined };

describe('eval run waiting for its run', () => {
  it('polls until the run ends, and reports a completed one', async () => {
    const polled = source(['queued', 'running', 'completed']);
    const result = await evalRun(polled, args, { ...noSleep, timeoutMs: 60_000 });
    expect(result.exitCode).toBe(0);
    expect(polled.polls).toBe(3);
  });

  it('exits 2 for a run that failed, with its reason', async () => {
    const result = await evalRun(source(['failed']), args, { ...noSleep, timeoutMs: 60_000 });
    expect(result).toMatchObject({
      exitCode: 2,
      stderr: ['Error: Run run-1 failed: The run cannot run: the endpoint is deleted'],
    });
  });

  it('gives up after the timeout, leaving the run alone', async () => {
    const sleeps: number[] = [];
    const wait = {
      firstPollMs: 10,
      maxPollMs: 40,
      timeoutMs: 300,
      sleep: (ms: number) => {
        sleeps.push(ms);
        return new Promise<void>((resolve) => setTimeout(resolve, ms));
      },
    };
    const result = await evalRun(source(['running']), args, wait);
    expect(result).toMatchObject({
      exitCode: 2,
      stderr: [
        'Error: Run run-1 is still running after 0 s and was not cancelled (GET /admin/v1/eval-runs/run-1 follows it)',
      ],
    });
    // Polls back off, doubling up to the longest interval (the last wait is cut at the deadline).
    expect(sleeps.slice(0, 3)).toEqual([10, 20, 40]);
    expect(Math.max(...sleeps)).toBe(40);
  });
});
