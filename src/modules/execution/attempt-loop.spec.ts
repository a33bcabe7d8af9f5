import { PromptError, UpstreamTimeoutError } from '../../common/errors/app-error';
import { ProviderError } from '../llm/llm-client';
import { type AttemptResult, type AttemptTime, runAttempts } from './attempt-loop';
import { type PlannedAttempt, planAttempts } from './attempt-plan';

const plan = planAttempts({
  llmModel: 'gpt-4o-mini',
  temperature: 0.7,
  maxTokens: 100,
  customParameters: {},
  retries: 1,
  fallbackModels: [{ llmModel: 'claude-sonnet-4-5' }],
});

/** A loop over `plan` on a simulated clock: each scripted attempt takes `ms` and ends as scripted. */
function simulate(script: { ms: number; result: AttemptResult }[], deadlineMs = 10_000, mayFailOver?: () => boolean) {
  let now = 0;
  const calls: { model: string; startedAt: number; time: AttemptTime }[] = [];
  const waits: number[] = [];
  const seen: string[] = [];
  const run = async (planned: PlannedAttempt, time: AttemptTime) => {
    calls.push({ model: planned.llmModel, startedAt: now, time });
    const step = script[calls.length - 1];
    now += Math.min(step.ms, time.budgetMs);
    return step.ms > time.budgetMs ? { ok: false as const, error: new UpstreamTimeoutError('late') } : step.result;
  };
  const done = runAttempts({
    plan,
    deadlineMs,
    elapsedMs: () => now,
    run,
    onAttempt: (result, planned) => seen.push(`${planned.llmModel}:${result.ok ? 'ok' : 'failed'}`),
    mayFailOver,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  return { done, calls, waits, seen };
}

const ok = { ok: true as const };
const failed = (error: unknown) => ({ ok: false as const, error });

describe('runAttempts', () => {
  it('answers with the first success, after reporting every attempt', async () => {
    const { done, calls, seen } = simulate([
      { ms: 100, result: failed(new ProviderError('busy', 503, null)) },
      { ms: 100, result: failed(new ProviderError('busy', 503, null)) },
      { ms: 100, result: ok },
    ]);
    const { result, planned } = await done;
    expect(result.ok).toBe(true);
    expect(planned).toMatchObject({ llmModel: 'claude-sonnet-4-5', position: 1 });
    expect(calls.map((call) => call.model)).toEqual(['gpt-4o-mini', 'gpt-4o-mini', 'claude-sonnet-4-5']);
    expect(seen).toEqual(['gpt-4o-mini:failed', 'gpt-4o-mini:failed', 'claude-sonnet-4-5:ok']);
  });

  it('stops at a failure that would fail over once the caller says it may not (a stream that answered)', async () => {
    let answering = false;
    const { done, calls } = simulate(
      [
        { ms: 100, result: failed(new ProviderError('busy', 503, null)) },
        { ms: 100, result: failed(new ProviderError('reset', null, null)) },
      ],
      10_000,
      () => {
        const may = !answering;
        answering = true;
        return may;
      },
    );
    const { result } = await done;
    expect(result).toMatchObject({ ok: false, error: { providerStatus: null } });
    expect(calls).toHaveLength(2);
  });

  it('stops at a failure that does not fail over, which is the answer', async () => {
    const error = new ProviderError('bad request', 400, null);
    const { done, calls } = simulate([{ ms: 50, result: failed(error) }]);
    const { result } = await done;
    expect(result).toEqual({ ok: false, error });
    expect(calls).toHaveLength(1);
  });

  it('lets the service own errors through, ending the loop', async () => {
    const throwing = runAttempts({
      plan,
      deadlineMs: 1000,
      elapsedMs: () => 0,
      run: () => Promise.reject(new PromptError('out of bounds')),
    });
    await expect(throwing).rejects.toBeInstanceOf(PromptError);
  });

  it('waits a Retry-After that fits before the retry', async () => {
    const { done, calls, waits } = simulate([
      { ms: 100, result: failed(new ProviderError('slow down', 429, 2000)) },
      { ms: 100, result: ok },
    ]);
    await done;
    expect(waits).toEqual([2000]);
    expect(calls[1]).toMatchObject({ model: 'gpt-4o-mini', startedAt: 2100 });
  });

  it('gives each model a share of the time left, so a hanging model leaves time for the next', async () => {
    const { done, calls } = simulate(
      [
        { ms: 60_000, result: ok },
        { ms: 60_000, result: ok },
        { ms: 100, result: ok },
      ],
      10_000,
    );
    const { result, planned } = await done;
    expect(result.ok).toBe(true);
    expect(planned.llmModel).toBe('claude-sonnet-4-5');
    // 10 s for two models: 5 s; the retry has 5 s left for two models: 2.5 s; the fallback all of the 2.5 s left.
    expect(calls.map((call) => [call.startedAt, call.time.budgetMs])).toEqual([
      [0, 5000],
      [5000, 2500],
      [7500, 2500],
    ]);
  });

  it('starts no attempt with less than a second left: the last failure is the answer', async () => {
    const error = new ProviderError('busy', 500, null);
    const { done, calls } = simulate(
      [
        { ms: 600, result: failed(error) },
        { ms: 600, result: failed(error) },
      ],
      2000,
    );
    const { result } = await done;
    expect(result).toEqual({ ok: false, error });
    expect(calls.map((call) => call.startedAt)).toEqual([0, 600]);
  });
});
