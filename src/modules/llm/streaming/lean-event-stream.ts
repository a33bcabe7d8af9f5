import type { Readable } from 'node:stream';
import { AnswerTooLargeError, type StreamBackpressure, type TokenUsage } from '../llm-client';
import type { OpenEventStream } from '../http-fetch';
import { type ProviderStream, providerStreamOf, type StreamFailure, type StreamFormat } from './provider-streams';
import { SseDecoder } from './sse-decoder';

/** What a provider's event stream answered, read to its end. */
export interface LeanStreamResult {
  text: string;
  usage: TokenUsage;
  finishReason: string;
  responseModel: string | undefined;
}

/** The provider reported an error inside its event stream (see StreamFailure). */
export class ProviderStreamError extends Error {
  constructor(readonly failure: StreamFailure) {
    super(failure.message);
  }
}

/**
 * One streamed call's answer, read from the pooled connection's body as its bytes arrive rather than through the
 * provider library's web streams (a fetch body, a text decoder, an event parser, JSON and schema validation and the
 * provider's transform: a stage of promises per chunk). The provider library still builds the request and reads a
 * refusal; an answering event stream is read here by SseDecoder and the provider's ProviderStream, each piece of text
 * handed to `onText` as it comes.
 *
 * Reading stops, and the connection is closed, at the first error the provider reports, past `maxAnswerBytes`, or when
 * the call's signal aborts (the pool destroys the body). While `backpressure` says its reader is full, the body is
 * paused: what the caller cannot take waits in the provider's connection, not in memory here.
 *
 */
export class LeanEventStream {
  private body: Readable | null = null;
  private readonly provider: ProviderStream;
  private readonly decoder: SseDecoder;
  private text = '';
  private settled = false;
  private resolve!: (result: LeanStreamResult) => void;
  private reject!: (error: unknown) => void;
  readonly result: Promise<LeanStreamResult>;

  constructor(
    format: StreamFormat,
    onText: (text: string) => void,
    private readonly backpressure: StreamBackpressure | undefined,
  ) {
    this.provider = providerStreamOf(format, (text) => {
      this.text += text;
      onText(text);
    });
    this.decoder = new SseDecoder((name, data) => {
      if (this.provider.failure === null) this.provider.event(name, data);
    });
    this.result = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Settled only once the body is taken; a rejection nobody awaits must not be reported as unhandled.
    this.result.catch(() => undefined);
  }

  /** Reads `stream` to its end (or its first error); the result settles with it. */
  read(stream: OpenEventStream): void {
    this.readBody(stream.body, stream.maxAnswerBytes);
  }

  private readBody(body: Readable, maxAnswerBytes: number): void {
    this.body = body;
    let total = 0;
    let ended = false;
    body.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      total += chunk.length;
      if (total > maxAnswerBytes) {
        this.stop(new AnswerTooLargeError());
        return;
      }
      this.decoder.push(chunk);
      const failure = this.provider.failure;
      if (failure !== null) {
        this.stop(new ProviderStreamError(failure));
        return;
      }
      if (this.backpressure?.isFull()) {
        body.pause();
        this.backpressure.onceDrained(() => {
          if (!this.settled) body.resume();
        });
      }
    });
    body.once('end', () => {
      ended = true;
      if (this.settled) return;
      this.decoder.end();
      this.provider.end();
      const failure = this.provider.failure;
      if (failure !== null) {
        this.stop(new ProviderStreamError(failure));
        return;
      }
      this.settled = true;
      this.resolve({
        text: this.text,
        usage: this.provider.usage,
        finishReason: this.provider.finishReason,
        responseModel: this.provider.responseModel,
      });
    });
    body.on('error', (error) => this.stop(error));
    // A body closed before its end without an error of its own.
    body.once('close', () => {
      if (!ended) this.stop(new Error('The answer ended before it was complete'));
    });
  }

  /** Ends the read with `error`: the body is destroyed, which closes its connection. */
  private stop(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
    const body = this.body;
    if (body && !body.destroyed) {
      body.on('error', () => undefined);
      body.destroy();
    }
  }
}
