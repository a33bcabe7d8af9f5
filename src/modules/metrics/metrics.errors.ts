import { type ErrorFactories, NotFoundError } from '../../common/errors/app-error';

/** What the metrics endpoint refuses; `MetricsErrorCode` names each refusal. */
export const MetricsErrors = {
  metricsOff: () => new NotFoundError('Metrics are turned off on this server (METRICS_ENABLED)'),
} satisfies ErrorFactories;

export type MetricsErrorCode = keyof typeof MetricsErrors;
