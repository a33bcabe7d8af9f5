import { bool, defineSlice, matching } from '../variable';
import { HTTP_URL } from './patterns';

export interface TracingConfig {
  /** The collector's base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
  /** Prompt and answer text on the model-call spans. */
  captureContent: boolean;
}

/** Metrics and traces. */
export const observabilitySlice = defineSlice({
  variables: {
    METRICS_ENABLED: bool({
      default: true,
      meaning:
        'Serve `GET /metrics` (Prometheus text) and count requests, executions and provider calls. `false` removes the route (404) and the counting. See [metrics](operations.md#metrics).',
    }),
    METRICS_TOKEN: matching(
      /^[\x21-\x7e]{16,512}$/,
      'METRICS_TOKEN must be 16 to 512 printable characters without spaces',
      {
        meaning:
          'When set (16 to 512 printable characters, no spaces), `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>` and answers 401 otherwise. Unset, `/metrics` is open: keep it off public networks.',
      },
    ),
    OTEL_EXPORTER_OTLP_ENDPOINT: matching(HTTP_URL, 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL', {
      meaning:
        "An OTLP/HTTP collector's base URL (`http://collector:4318`): spans are exported as JSON to `<url>/v1/traces`. Unset, no tracing code is loaded. See [traces](operations.md#traces).",
    }),
    OTEL_SERVICE_NAME: matching(
      /^[A-Za-z0-9._-]{1,100}$/,
      'OTEL_SERVICE_NAME must be 1 to 100 letters, digits, ".", "_" or "-"',
      {
        default: 'promptgate',
        meaning: 'The `service.name` of the exported spans.',
      },
    ),
    OTEL_CAPTURE_CONTENT: bool({
      default: false,
      meaning:
        "`true` puts the rendered prompt and the model's answer on the model-call spans (`gen_ai.input.messages`, `gen_ai.output.messages`). They may hold personal data: leave it off unless your collector may keep it.",
    }),
  },
  config: (values): { metricsEnabled: boolean; metricsToken?: string; tracing?: TracingConfig } => ({
    /** Whether GET /metrics is served and the service counts what it does. */
    metricsEnabled: values.METRICS_ENABLED,
    /** Bearer token GET /metrics requires; open when absent. */
    metricsToken: values.METRICS_TOKEN,
    /** Tracing: set when spans are exported over OTLP/HTTP. */
    tracing: values.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          endpoint: values.OTEL_EXPORTER_OTLP_ENDPOINT,
          serviceName: values.OTEL_SERVICE_NAME,
          captureContent: values.OTEL_CAPTURE_CONTENT,
        }
      : undefined,
  }),
});
