import { type Attributes, context, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { AppError } from '../../common/errors/app-error';
import type { GenAiOperation, Metrics, ProviderCallSeries } from '../../common/metrics/metrics';
import { InvalidLlmOutputError, type TokenUsage } from './llm-client';
import type {
  ImageRequest,
  ImageResult,
  LlmClient,
  StreamedTextResult,
  TextRequest,
  TextResult,
  TextStreamEvent,
} from './llm-client';

/** How provider calls are observed: the metrics (when on) and the tracer (when tracing is on). */
export interface LlmObservation {
  metrics: Metrics | null;
  tracer: Tracer | null;
  /** Prompt and answer text on the spans. */
  captureContent: boolean;
}

/** What a call's span says when it starts and ends, and the tokens its result reports. */
interface CallDescription<T> {
  start(span: Span): void;
  end(span: Span, result: T): void;
  usage(result: T): TokenUsage;
}

/** The error.type of a failed call: the error's code (`timeout`, `upstream_error`, …), a bounded set. */
export function errorTypeOf(error: unknown): string {
  return error instanceof AppError ? error.code : '_OTHER';
}

/**
 * An LlmClient that observes each call of the client it wraps (one call = one attempt): its duration and tokens in the
 * `gen_ai_client_*` histograms, and a client span `{operation} {model}` with the OpenTelemetry GenAI attributes. The
 * span is the active one while the call runs, so the provider's HTTP request is its child.
 */
export class ObservedLlmClient implements LlmClient {
  private readonly series = new Map<string, ProviderCallSeries>();

  constructor(
    private readonly inner: LlmClient,
    private readonly provider: string,
    private readonly observation: LlmObservation,
  ) {}

  generateText(request: TextRequest): Promise<TextResult> {
    return this.observe('chat', request.model, () => this.inner.generateText(request), this.chat(request));
  }

  /** A streamed call is one chat call too: its span and duration cover the whole stream. */
  streamText(request: TextRequest, onEvent: (event: TextStreamEvent) => void): Promise<StreamedTextResult> {
    return this.observe('chat', request.model, () => this.inner.streamText(request, onEvent), this.chat(request));
  }

  /** How a text call (plain or streamed) is described on its span. */
  private chat<T extends TextResult>(request: TextRequest): CallDescription<T> {
    return {
      start: (span) => {
        span.setAttributes({
          'gen_ai.output.type': request.schema ? 'json' : 'text',
          'gen_ai.request.temperature': request.temperature,
          'gen_ai.request.max_tokens': request.maxOutputTokens,
        });
        if (this.observation.captureContent) {
          span.setAttribute('gen_ai.input.messages', inputMessages(request));
        }
      },
      end: (span, result) => {
        const attributes: Attributes = usageAttributes(result.usage);
        if (result.responseModel) attributes['gen_ai.response.model'] = result.responseModel;
        if (result.finishReason) attributes['gen_ai.response.finish_reasons'] = [result.finishReason];
        if (this.observation.captureContent) {
          attributes['gen_ai.output.messages'] = outputMessages(result.text, result.finishReason);
        }
        span.setAttributes(attributes);
      },
      usage: (result) => result.usage,
    };
  }

  generateImage(request: ImageRequest): Promise<ImageResult> {
    return this.observe('generate_content', request.model, () => this.inner.generateImage(request), {
      start: (span) => {
        span.setAttribute('gen_ai.output.type', 'image');
        if (this.observation.captureContent) {
          span.setAttribute('gen_ai.input.messages', inputMessages(request));
        }
      },
      end: (span, result) => span.setAttributes(usageAttributes(result.usage)),
      usage: (result) => result.usage,
    });
  }

  private async observe<T>(
    operation: GenAiOperation,
    model: string,
    call: () => Promise<T>,
    describe: CallDescription<T>,
  ): Promise<T> {
    const series = this.seriesOf(operation, model);
    const span = this.startSpan(operation, model);
    if (span) describe.start(span);
    const startedMs = performance.now();
    try {
      const result = span ? await context.with(trace.setSpan(context.active(), span), call) : await call();
      const usage = describe.usage(result);
      series?.succeeded((performance.now() - startedMs) / 1000, usage.inputTokens, usage.outputTokens);
      if (span) describe.end(span, result);
      return result;
    } catch (error) {
      const errorType = errorTypeOf(error);
      // A provider that answered unusable text still spent the tokens it reports.
      const usage = error instanceof InvalidLlmOutputError ? error.usage : null;
      series?.failed((performance.now() - startedMs) / 1000, errorType, usage);
      if (span) {
        span.setAttribute('error.type', errorType);
        if (usage) span.setAttributes(usageAttributes(usage));
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
      }
      throw error;
    } finally {
      span?.end();
    }
  }

  private seriesOf(operation: GenAiOperation, model: string): ProviderCallSeries | null {
    const { metrics } = this.observation;
    if (!metrics) return null;
    const key = operation === 'chat' ? model : `image:${model}`;
    let series = this.series.get(key);
    if (!series) this.series.set(key, (series = metrics.providerCallSeries(operation, this.provider, model)));
    return series;
  }

  private startSpan(operation: GenAiOperation, model: string): Span | null {
    const { tracer } = this.observation;
    if (!tracer) return null;
    return tracer.startSpan(`${operation} ${model}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': operation,
        'gen_ai.provider.name': this.provider,
        'gen_ai.request.model': model,
      },
    });
  }
}

function usageAttributes(usage: TokenUsage): Attributes {
  const attributes: Attributes = {};
  if (usage.inputTokens !== null) attributes['gen_ai.usage.input_tokens'] = usage.inputTokens;
  if (usage.outputTokens !== null) attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
  return attributes;
}

/** The GenAI conventions' message shape, as JSON text. */
/** The messages sent, with their roles; an image part names its media type (its bytes stay out of the span). */
function inputMessages(request: Pick<TextRequest, 'prompt' | 'messages'>): string {
  const messages = request.messages ?? [{ role: 'user', parts: [{ type: 'text', text: request.prompt }] }];
  return JSON.stringify(
    messages.map((message) => ({
      role: message.role,
      parts: message.parts.map((part) =>
        part.type === 'text'
          ? { type: 'text', content: part.text }
          : { type: 'blob', modality: 'image', mime_type: part.image.mediaType },
      ),
    })),
  );
}

function outputMessages(text: string, finishReason: string | undefined): string {
  return JSON.stringify([
    { role: 'assistant', parts: [{ type: 'text', content: text }], finish_reason: finishReason ?? 'stop' },
  ]);
}
