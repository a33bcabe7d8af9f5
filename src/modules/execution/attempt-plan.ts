import { UpstreamTimeoutError } from '../../common/errors/app-error';
import { InvalidLlmOutputError, ProviderError } from '../llm/llm-client';
import type { VersionContent } from '../prompts/executable-prompt';

/** No attempt starts with less than this left of the endpoint's timeout. */
export const MIN_ATTEMPT_START_MS = 1000;

/** What a prompt's failover settings are made of: its version's content but the template. */
export type FailoverSettings = Omit<VersionContent, 'template'>;

/** One planned model call: the model and the settings it is called with. */
export interface PlannedAttempt {
  llmModel: string;
  temperature: number;
  maxTokens: number;
  customParameters: Record<string, unknown>;
  /** 0 for the prompt's own model, i for its i-th fallback model. */
  position: number;
}

/**
 * Every attempt a prompt may make, in order: its own model, then each fallback model, each tried up to 1 + `retries`
 * times. A fallback's omitted settings are the prompt's own.
 */
export function planAttempts(settings: FailoverSettings): PlannedAttempt[] {
  const models: PlannedAttempt[] = [
    {
      llmModel: settings.llmModel,
      temperature: settings.temperature,
      maxTokens: settings.maxTokens,
      customParameters: settings.customParameters,
      position: 0,
    },
    ...settings.fallbackModels.map((fallback, index) => ({
      llmModel: fallback.llmModel,
      temperature: fallback.temperature ?? settings.temperature,
      maxTokens: fallback.maxTokens ?? settings.maxTokens,
      customParameters: fallback.customParameters ?? settings.customParameters,
      position: index + 1,
    })),
  ];
  const tries = 1 + Math.max(0, Math.floor(settings.retries));
  return models.flatMap((model) => Array.from({ length: tries }, () => model));
}

/** Why a failed attempt may be followed by another; null when it may not (the failure is the answer). */
export type FailoverTrigger = 'rate_limited' | 'provider_error' | 'network_error' | 'timeout' | 'off_schema';

/**
 * A provider's 429 or 5xx, a provider that could not be reached, an attempt out of time and an answer that does not
 * match the output fields fail over; any other provider 4xx and the service's own errors (a provider not configured,
 * settings out of bounds, anything unexpected) do not.
 */
export function failoverTrigger(error: unknown): FailoverTrigger | null {
  if (error instanceof InvalidLlmOutputError) return 'off_schema';
  if (error instanceof UpstreamTimeoutError) return 'timeout';
  if (!(error instanceof ProviderError)) return null;
  if (error.providerStatus === null) return 'network_error';
  if (error.providerStatus === 429) return 'rate_limited';
  if (error.providerStatus >= 500) return 'provider_error';
  return null;
}

/** The next attempt after a failed one: its index in the plan and how long to wait before it. */
export interface NextAttempt {
  index: number;
  waitMs: number;
}

/**
 * What follows the failed attempt `failedIndex`, with `remainingMs` of the endpoint's timeout left: null when the
 * failure is not a trigger, the plan is done, or the next attempt could not start with MIN_ATTEMPT_START_MS left.
 * A retry of the same model waits the provider's Retry-After when it asked for one and the wait leaves time for the
 * attempt; when it does not, that model's retries are skipped for the next fallback model, which does not wait.
 */
export function nextAttempt(
  plan: PlannedAttempt[],
  failedIndex: number,
  error: unknown,
  remainingMs: number,
): NextAttempt | null {
  if (failoverTrigger(error) === null || remainingMs < MIN_ATTEMPT_START_MS) return null;
  let index = failedIndex + 1;
  if (index >= plan.length) return null;
  const { position } = plan[failedIndex];
  if (plan[index].position !== position) return { index, waitMs: 0 };
  const retryAfterMs = error instanceof ProviderError ? (error.retryAfterMs ?? 0) : 0;
  if (remainingMs - retryAfterMs >= MIN_ATTEMPT_START_MS) return { index, waitMs: retryAfterMs };
  // The wait does not leave time for the retry: the next fallback model, at once.
  while (index < plan.length && plan[index].position === position) index++;
  return index < plan.length ? { index, waitMs: 0 } : null;
}

/**
 * How long attempt `index` may run with `remainingMs` left: the time left shared equally among the models still to
 * try (its own and the fallbacks after it), so a model that hangs leaves time for the next one; the last model gets
 * all that is left.
 */
export function attemptBudgetMs(plan: PlannedAttempt[], index: number, remainingMs: number): number {
  const models = plan[plan.length - 1].position - plan[index].position + 1;
  return remainingMs / models;
}
