import { type Attributes, type Context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { REQUEST_ID_ATTRIBUTE } from './common/telemetry/trace-context';
import type { TracingConfig } from './config/app-config';

/** What main keeps of the tracing setup: the flush of the spans still buffered, at shutdown. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK: spans are exported in batches over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`, and the
 * maintained instrumentations give a server span per request (an incoming W3C `traceparent` is its parent), a span
 * per outgoing HTTP request (the providers' calls, under their `chat <model>` span), per PostgreSQL query (the
 * embedded database too: it is reached through node-postgres) and per Redis command. Loaded by main only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, and before anything it instruments is loaded.
 */
export function startTracing(config: TracingConfig): Tracing {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
    spanProcessors: [
      new RequestIdSpanProcessor(),
      new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(config.endpoint) })),
    ],
  });
  // The AsyncLocalStorage context manager and the W3C trace-context and baggage propagators.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Outgoing requests are the providers' (node:http, see llm/http-fetch.ts); only those made within a traced
      // request get a span (the exporter's own requests never do).
      new HttpInstrumentation({ requireParentforOutgoingSpans: true }),
      new UndiciInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
      new RedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  return { shutdown: () => provider.shutdown() };
}

/** OTEL_EXPORTER_OTLP_ENDPOINT is the collector's base URL; traces go to its /v1/traces. */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Puts the request id on every span of a request: the request hook sets it on the server span, and each span started
 * under a span that has it gets it too (PostgreSQL and Redis commands, the model calls, their HTTP requests).
 */
class RequestIdSpanProcessor implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    const parent = trace.getSpan(parentContext);
    if (!parent || !('attributes' in parent)) return;
    const requestId = (parent.attributes as Attributes)[REQUEST_ID_ATTRIBUTE];
    if (typeof requestId === 'string') span.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
