import { trace } from '@opentelemetry/api';

/** The span attribute carrying the request id; the tracing setup copies it from a span to its children. */
export const REQUEST_ID_ATTRIBUTE = 'promptgate.request_id';

/** The trace and span ids of the active span, for a log line (none outside a traced request). */
export function activeTraceIds(): { trace_id: string; span_id: string } | null {
  const span = trace.getActiveSpan();
  if (!span) return null;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Puts the request id on the request's server span (the active span when the request hook runs). */
export function tagActiveSpanWithRequestId(requestId: string): void {
  trace.getActiveSpan()?.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
}

/** The prefix of the span attributes carrying an execution's tags (`promptgate.tag.team`). */
export const TAG_ATTRIBUTE_PREFIX = 'promptgate.tag.';

/** Puts an execution's tags on the request's server span, one attribute per tag; no metric is labelled by a tag. */
export function tagActiveSpanWithTags(tags: Readonly<Record<string, string>>): void {
  const span = trace.getActiveSpan();
  if (!span) return;
  for (const key in tags) span.setAttribute(`${TAG_ATTRIBUTE_PREFIX}${key}`, tags[key]);
}
