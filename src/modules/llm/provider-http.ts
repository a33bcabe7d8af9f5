import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import {
  answerBoundedFetch,
  createHttpFetch,
  imageAnswerBytes,
  type OpenEventStream,
  type ProviderFetch,
  type ReadJsonAnswer,
} from './http-fetch';

/**
 * The `fetch` every provider adapter sends with: through the egress proxy when one is configured (HTTPS_PROXY), and
 * with each answer read up to its bound (MAX_ANSWER_BYTES for text; for images, what the images may weigh).
 */
@Injectable()
export class ProviderHttp implements OnApplicationShutdown {
  /** The fetch of text calls, plain and streamed. */
  readonly text: typeof fetch;
  /** The fetch of image generation calls. */
  readonly images: typeof fetch;
  /**
   * The fetch of streamed text calls read without the provider library's stream: a 200 event stream is handed over as
   * its body, held to MAX_ANSWER_BYTES by its reader.
   */
  readonly textEventStream: (input: string | URL | Request, init: RequestInit) => Promise<Response | OpenEventStream>;
  /**
   * The fetch of plain text calls whose answer is read without the provider library's response handling: a 200 JSON
   * answer is handed over as its text, read up to MAX_ANSWER_BYTES.
   */
  readonly textJsonAnswer: (input: string | URL | Request, init: RequestInit) => Promise<Response | ReadJsonAnswer>;
  private readonly sender: ProviderFetch;

  constructor(
    @Inject(APP_CONFIG)
    config: Pick<AppConfig, 'egressProxy' | 'maxAnswerBytes' | 'maxImagesPerCall' | 'maxImageBytes'>,
  ) {
    this.sender = createHttpFetch(config.egressProxy);
    this.text = answerBoundedFetch(config.maxAnswerBytes, this.sender.fetch);
    this.images = answerBoundedFetch(imageAnswerBytes(config), this.sender.fetch);
    this.textEventStream = (input, init) => this.sender.eventStream(input, init, config.maxAnswerBytes);
    this.textJsonAnswer = (input, init) => this.sender.jsonAnswer(input, init, config.maxAnswerBytes);
  }

  /**
   * A provider library's client for each kind of answer: image answers carry the images as base64, so their reads
   * are bounded by what the images may weigh rather than by the text bound.
   */
  perAnswer<T>(create: (fetch: typeof globalThis.fetch) => T): { text: T; images: T } {
    return { text: create(this.text), images: create(this.images) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sender.close();
  }
}
