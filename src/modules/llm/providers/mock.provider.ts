import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import { UpstreamTimeoutError } from '../../../common/errors/app-error';
import type { ProviderDefinition } from '../../models/model';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AnswerTooLargeError,
  type ImageRequest,
  type ImageResult,
  type JsonSchemaObject,
  type LlmClient,
  type StreamedTextResult,
  type TextRequest,
  type TextResult,
  type TextStreamEvent,
} from '../llm-client';

/** How many pieces the mock streams its answer in, and the pause between two of them. */
const MOCK_STREAM_CHUNKS = 4;
const MOCK_STREAM_PAUSE_MS = 5;
import type { LlmProvider } from '../llm-provider';

/** A 1×1 transparent PNG: what the mock provider "generates". */
const MOCK_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/**
 * The built-in offline provider. `mock-echo` answers with the rendered prompt; asked for structured
 * output, with an object whose string fields hold the prompt, and the neutral value of every other type (0, false,
 * {} and []). Image generation answers `n` (default 1) 1×1 PNGs whose revisedPrompt is the prompt. Streamed, the
 * same answer comes in a few pieces a few milliseconds apart: the raw text in slices, or for structured output
 * the object with its string fields growing.
 */
@Injectable()
export class MockProvider implements LlmProvider {
  readonly kind = 'mock' as const;

  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'maxAnswerBytes'>) {}

  createClient(_definition: ProviderDefinition): LlmClient {
    return new MockClient(this.config.maxAnswerBytes);
  }
}

export class MockClient implements LlmClient {
  /** Answers larger than `maxAnswerBytes` are refused as a provider's are, before they are built. */
  constructor(private readonly maxAnswerBytes: number) {}

  async generateText(request: TextRequest): Promise<TextResult> {
    ensureNotAborted(request.abortSignal);
    // The echo holds the prompt once, or once in every string field of the output schema.
    const copies = request.schema ? stringFieldsOf(request.schema.jsonSchema) : 1;
    if (copies * Buffer.byteLength(request.prompt, 'utf8') > this.maxAnswerBytes) throw new AnswerTooLargeError();
    if (!request.schema) {
      return { text: request.prompt, usage: estimateUsage(request.prompt, request.prompt), finishReason: 'stop' };
    }
    const object = echoObject(request.schema.jsonSchema, request.prompt);
    const text = JSON.stringify(object);
    return { text, object, usage: estimateUsage(request.prompt, text), finishReason: 'stop' };
  }

  async streamText(request: TextRequest, onEvent: (event: TextStreamEvent) => void): Promise<StreamedTextResult> {
    const answer = await this.generateText(request);
    const source = request.schema ? request.prompt : answer.text;
    const step = Math.max(1, Math.ceil(source.length / MOCK_STREAM_CHUNKS));
    for (let end = step; ; end += step) {
      await sleep(MOCK_STREAM_PAUSE_MS);
      ensureNotAborted(request.abortSignal);
      const done = end >= source.length;
      if (request.schema) {
        onEvent({ type: 'partial', output: echoObject(request.schema.jsonSchema, source.slice(0, end)) });
      } else {
        onEvent({ type: 'delta', text: source.slice(end - step, end) });
      }
      if (done) break;
    }
    return { ...answer, finishReason: 'stop' };
  }

  async generateImage(request: ImageRequest): Promise<ImageResult> {
    ensureNotAborted(request.abortSignal);
    const count =
      typeof request.settings.n === 'number' && request.settings.n >= 1 ? Math.floor(request.settings.n) : 1;
    return {
      images: Array.from({ length: count }, () => ({ base64Data: MOCK_PNG, revisedPrompt: request.prompt })),
      usage: estimateUsage(request.prompt, ''),
    };
  }
}

/** A property of an output schema, as far as the echo reads it. */
interface EchoedSchema {
  type?: string;
  properties?: Record<string, EchoedSchema>;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

function stringFieldsOf(schema: JsonSchemaObject): number {
  const properties = (schema.properties ?? {}) as Record<string, EchoedSchema>;
  return Object.values(properties).reduce(
    (count, property) =>
      count +
      (property.type === 'string' ? 1 : property.type === 'object' ? stringFieldsOf(property as JsonSchemaObject) : 0),
    0,
  );
}

/**
 * The object an output schema describes, with the prompt in every string property; each value keeps its constraints
 * (an enum's first value, the prompt cut to the maxLength, 0 moved into the bounds), so the echo is never off-schema.
 */
export function echoObject(schema: JsonSchemaObject, prompt: string): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, EchoedSchema>;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, neutralValue(property, prompt)]),
  );
}

function neutralValue(property: EchoedSchema, prompt: string): unknown {
  switch (property.type) {
    case 'string':
      if (property.enum?.length) return property.enum[0];
      return property.maxLength === undefined ? prompt : prompt.slice(0, property.maxLength);
    case 'integer':
    case 'number': {
      let value = 0;
      if (property.minimum !== undefined && value < property.minimum) value = property.minimum;
      if (property.maximum !== undefined && value > property.maximum) value = property.maximum;
      return property.type === 'integer' ? Math.ceil(value) : value;
    }
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return echoObject(property as JsonSchemaObject, prompt);
  }
}

/** About four characters per token, so usage and cost columns hold plausible numbers offline. */
function estimateUsage(input: string, output: string): { inputTokens: number; outputTokens: number } {
  return { inputTokens: Math.ceil(input.length / 4), outputTokens: Math.ceil(output.length / 4) };
}

function ensureNotAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new UpstreamTimeoutError("mock did not answer within the endpoint's timeout");
}
