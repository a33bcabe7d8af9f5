import { PromptError, UpstreamError, UpstreamTimeoutError } from '../../common/errors/app-error';
import { InvalidLlmOutputError, ProviderError, retryAfterMsOf } from '../llm/llm-client';
import {
  attemptBudgetMs,
  failoverTrigger,
  MIN_ATTEMPT_START_MS,
  nextAttempt,
  planAttempts,
  type FailoverSettings,
} from './attempt-plan';

const prompt: FailoverSettings = {
  llmModel: 'gpt-4o-mini',
  temperature: 0.7,
  maxTokens: 300,
  customParameters: { topP: 0.9 },
  retries: 0,
  fallbackModels: [],
};
const status = (code: number, retryAfterMs: number | null = null) =>
  new ProviderError(`HTTP ${code}`, code, retryAfterMs);
const noUsage = { inputTokens: null, outputTokens: null };

describe('planAttempts', () => {
  it('is the prompt own model once without retries or fallbacks', () => {
    expect(planAttempts(prompt)).toEqual([
      { llmModel: 'gpt-4o-mini', temperature: 0.7, maxTokens: 300, customParameters: { topP: 0.9 }, position: 0 },
    ]);
  });

  it('tries each model 1 + retries times, fallbacks in order, with the prompt settings where a fallback omits them', () => {
    const plan = planAttempts({
      ...prompt,
      retries: 1,
      fallbackModels: [
        { llmModel: 'claude-3-5-haiku-latest', temperature: 0.1 },
        { llmModel: 'mock-echo', maxTokens: 50, customParameters: {} },
      ],
    });
    expect(plan.map((p) => [p.llmModel, p.position])).toEqual([
      ['gpt-4o-mini', 0],
      ['gpt-4o-mini', 0],
      ['claude-3-5-haiku-latest', 1],
      ['claude-3-5-haiku-latest', 1],
      ['mock-echo', 2],
      ['mock-echo', 2],
    ]);
    expect(plan[2]).toMatchObject({ temperature: 0.1, maxTokens: 300, customParameters: { topP: 0.9 } });
    expect(plan[4]).toMatchObject({ temperature: 0.7, maxTokens: 50, customParameters: {} });
  });
});

describe('failoverTrigger', () => {
  it.each([
    ['a provider 429', status(429), 'rate_limited'],
    ['a provider 500', status(500), 'provider_error'],
    ['a provider 503', status(503), 'provider_error'],
    ['a provider that could not be reached', new ProviderError('unreachable', null, null), 'network_error'],
    ['an attempt out of time', new UpstreamTimeoutError('late'), 'timeout'],
    ['an answer off the output fields', new InvalidLlmOutputError('off', '{}', noUsage), 'off_schema'],
  ])('fails over on %s', (_name, error, trigger) => {
    expect(failoverTrigger(error)).toBe(trigger);
  });

  it.each([
    ['a provider 400', status(400)],
    ['a provider 401', status(401)],
    ['a provider 404', status(404)],
    ['a provider 422', status(422)],
    ['the service own upstream error (provider not configured)', new UpstreamError('not configured')],
    ['settings out of bounds', new PromptError('out of bounds')],
    ['an unexpected error', new Error('boom')],
  ])('does not fail over on %s', (_name, error) => {
    expect(failoverTrigger(error)).toBeNull();
  });
});

describe('nextAttempt', () => {
  const plan = planAttempts({ ...prompt, retries: 1, fallbackModels: [{ llmModel: 'mock-echo' }] });

  it('retries the same model at once, then moves to the fallback, then stops', () => {
    expect(nextAttempt(plan, 0, status(500), 10_000)).toEqual({ index: 1, waitMs: 0 });
    expect(nextAttempt(plan, 1, status(500), 10_000)).toEqual({ index: 2, waitMs: 0 });
    expect(nextAttempt(plan, 3, status(500), 10_000)).toBeNull();
  });

  it('never follows a failure that is not a trigger', () => {
    expect(nextAttempt(plan, 0, status(400), 10_000)).toBeNull();
    expect(nextAttempt(plan, 0, new PromptError('x'), 10_000)).toBeNull();
  });

  it('waits a Retry-After that leaves time for the retry', () => {
    expect(nextAttempt(plan, 0, status(429, 2000), 3000)).toEqual({ index: 1, waitMs: 2000 });
  });

  it('skips to the next model, without waiting, when the Retry-After does not fit', () => {
    expect(nextAttempt(plan, 0, status(429, 2500), 3000)).toEqual({ index: 2, waitMs: 0 });
    const noFallback = planAttempts({ ...prompt, retries: 2 });
    expect(nextAttempt(noFallback, 0, status(429, 60_000), 3000)).toBeNull();
  });

  it('retries at once after a Retry-After of 0', () => {
    expect(nextAttempt(plan, 0, status(503, 0), 1500)).toEqual({ index: 1, waitMs: 0 });
  });

  it('does not wait a Retry-After before a different model', () => {
    expect(nextAttempt(plan, 1, status(429, 2000), 10_000)).toEqual({ index: 2, waitMs: 0 });
  });

  it('starts no attempt with less than a second left', () => {
    expect(nextAttempt(plan, 0, status(503), MIN_ATTEMPT_START_MS)).toEqual({ index: 1, waitMs: 0 });
    expect(nextAttempt(plan, 0, status(503), MIN_ATTEMPT_START_MS - 1)).toBeNull();
    expect(nextAttempt(plan, 0, new UpstreamTimeoutError('late'), 0)).toBeNull();
  });
});

describe('attemptBudgetMs', () => {
  it('shares the time left among the models still to try; the last model gets all of it', () => {
    const plan = planAttempts({
      ...prompt,
      retries: 1,
      fallbackModels: [{ llmModel: 'mock-echo' }, { llmModel: 'gpt-4o' }],
    });
    expect(attemptBudgetMs(plan, 0, 9000)).toBe(3000);
    expect(attemptBudgetMs(plan, 1, 6000)).toBe(2000);
    expect(attemptBudgetMs(plan, 2, 6000)).toBe(3000);
    expect(attemptBudgetMs(plan, 4, 2500.5)).toBe(2500.5);
    expect(attemptBudgetMs(planAttempts(prompt), 0, 30_000)).toBe(30_000);
  });
});

describe('retryAfterMsOf', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads retry-after-ms first, then retry-after seconds or an HTTP date, in any header case', () => {
    expect(retryAfterMsOf({ 'retry-after-ms': '1500', 'retry-after': '9' }, now)).toBe(1500);
    expect(retryAfterMsOf({ 'Retry-After': '2' }, now)).toBe(2000);
    expect(retryAfterMsOf({ 'retry-after': '0.5' }, now)).toBe(500);
    expect(retryAfterMsOf({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterMsOf({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
  });

  it('is null without a readable value', () => {
    expect(retryAfterMsOf(undefined, now)).toBeNull();
    expect(retryAfterMsOf({}, now)).toBeNull();
    expect(retryAfterMsOf({ 'retry-after': 'soon' }, now)).toBeNull();
    expect(retryAfterMsOf({ 'retry-after': '-3' }, now)).toBeNull();
  });
});
