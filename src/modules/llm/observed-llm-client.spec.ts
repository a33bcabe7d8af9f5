import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { UpstreamTimeoutError } from '../../common/errors/app-error';
import { Metrics } from '../../common/metrics/metrics';
import {
  InvalidLlmOutputError,
  type LlmClient,
  type StreamedTextResult,
  type TextRequest,
  type TextResult,
  type TextStreamEvent,
} from './llm-client';
import { ObservedLlmClient } from './observed-llm-client';

const request = (prompt = 'Say hi'): TextRequest => ({
  model: 'gpt-test',
  prompt,
  temperature: 0.2,
  maxOutputTokens: 64,
  abortSignal: new AbortController().signal,
});

class ScriptedClient implements LlmClient {
  constructor(private readonly next: () => Promise<TextResult>) {}
  generateText(): Promise<TextResult> {
    return this.next();
  }
  async streamText(_request: TextRequest, onEvent: (event: TextStreamEvent) => void): Promise<StreamedTextResult> {
    const result = await this.next();
    onEvent({ type: 'delta', text: result.text });
    return { ...result, finishReason: result.finishReason ?? 'stop' };
  }
  generateImage(): Promise<never> {
    return Promise.reject(new Error('not used'));
  }
}

async function sampleOf(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((entry) => name.startsWith(entry.name));
  const values = (metric?.values ?? []) as {
    metricName?: string;
    labels: Record<string, string | number>;
    value: number;
  }[];
  return values
    .filter((value) => (value.metricName ?? metric!.name) === name)
    .filter((value) => Object.entries(labels).every(([key, expected]) => String(value.labels[key]) === expected))
    .reduce((sum, value) => sum + value.value, 0);
}

describe('ObservedLlmClient', () => {
  let exporter: InMemorySpanExporter;
  let metrics: Metrics;
  const observed = (next: () => Promise<TextResult>, captureContent = false) =>
    new ObservedLlmClient(new ScriptedClient(next), 'openai', {
      metrics,
      tracer: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test'),
      captureContent,
    });

  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    metrics = new Metrics({ metricsEnabled: false });
  });

  it('records a successful call: its duration, its tokens, and a chat client span with the GenAI attributes', async () => {
    const client = observed(async () => ({
      text: 'hi',
      usage: { inputTokens: 12, outputTokens: 3 },
      finishReason: 'stop',
      responseModel: 'gpt-test-2025',
    }));
    await client.generateText(request());
    const model = { gen_ai_provider_name: 'openai', gen_ai_request_model: 'gpt-test' };
    expect(await sampleOf(metrics, 'gen_ai_client_operation_duration_seconds_count', model)).toBe(1);
    expect(await sampleOf(metrics, 'gen_ai_client_token_usage_sum', { ...model, gen_ai_token_type: 'input' })).toBe(12);
    expect(await sampleOf(metrics, 'gen_ai_client_token_usage_sum', { ...model, gen_ai_token_type: 'output' })).toBe(3);

    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('chat gpt-test');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.response.model': 'gpt-test-2025',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 64,
    });
    expect(span.attributes['gen_ai.input.messages']).toBeUndefined();
  });

  it('a streamed call is one chat call too: its events pass through, one span and one duration for the stream', async () => {
    const client = observed(async () => ({
      text: 'streamed',
      usage: { inputTokens: 5, outputTokens: 2 },
      finishReason: 'stop',
    }));
    const events: TextStreamEvent[] = [];
    const result = await client.streamText(request(), (event) => events.push(event));
    expect(result.text).toBe('streamed');
    expect(events).toEqual([{ type: 'delta', text: 'streamed' }]);
    const model = { gen_ai_provider_name: 'openai', gen_ai_request_model: 'gpt-test' };
    expect(await sampleOf(metrics, 'gen_ai_client_operation_duration_seconds_count', model)).toBe(1);
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0].name).toBe('chat gpt-test');
    expect(spans[0].attributes).toMatchObject({
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.response.finish_reasons': ['stop'],
    });
  });

  it('records a failed call under its error type, on the histogram and the span, and rethrows the error', async () => {
    const timeout = new UpstreamTimeoutError('too slow');
    await expect(observed(() => Promise.reject(timeout)).generateText(request())).rejects.toBe(timeout);
    const labels = { gen_ai_request_model: 'gpt-test', error_type: 'timeout' };
    expect(await sampleOf(metrics, 'gen_ai_client_operation_duration_seconds_count', labels)).toBe(1);
    const [span] = exporter.getFinishedSpans();
    expect(span.attributes['error.type']).toBe('timeout');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('counts the tokens of an unusable answer, and the error type of an unknown failure is _OTHER', async () => {
    const unusable = new InvalidLlmOutputError('not JSON', 'oops', { inputTokens: 40, outputTokens: 2 });
    await expect(observed(() => Promise.reject(unusable)).generateText(request())).rejects.toBe(unusable);
    await expect(observed(() => Promise.reject(new Error('boom'))).generateText(request())).rejects.toThrow('boom');
    expect(await sampleOf(metrics, 'gen_ai_client_token_usage_sum', { gen_ai_token_type: 'input' })).toBe(40);
    expect(
      await sampleOf(metrics, 'gen_ai_client_operation_duration_seconds_count', { error_type: 'upstream_error' }),
    ).toBe(1);
    expect(await sampleOf(metrics, 'gen_ai_client_operation_duration_seconds_count', { error_type: '_OTHER' })).toBe(1);
  });

  it('puts the prompt and the answer on the span only when content capture is on', async () => {
    const answer = async () => ({
      text: 'the answer',
      usage: { inputTokens: 1, outputTokens: 1 },
      finishReason: 'stop',
    });
    await observed(answer).generateText(request('secret prompt'));
    await observed(answer, true).generateText(request('secret prompt'));
    const [plain, captured] = exporter.getFinishedSpans();
    expect(JSON.stringify(plain.attributes)).not.toContain('secret prompt');
    expect(JSON.stringify(plain.attributes)).not.toContain('the answer');
    expect(JSON.parse(String(captured.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'secret prompt' }] },
    ]);
    expect(JSON.parse(String(captured.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'the answer' }], finish_reason: 'stop' },
    ]);
  });

  it('captures the messages with their roles, an image by its media type only', async () => {
    const answer = async () => ({ text: 'ok', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop' });
    await observed(answer, true).generateText({
      ...request('Be brief. Look'),
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'Look' },
            { type: 'image', image: { mediaType: 'image/png', dataUri: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
    });
    const [span] = exporter.getFinishedSpans();
    const captured = String(span.attributes['gen_ai.input.messages']);
    expect(JSON.parse(captured)).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'Be brief.' }] },
      {
        role: 'user',
        parts: [
          { type: 'text', content: 'Look' },
          { type: 'blob', modality: 'image', mime_type: 'image/png' },
        ],
      },
    ]);
    expect(captured).not.toContain('base64');
  });
});
