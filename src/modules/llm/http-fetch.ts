import { Readable } from 'node:stream';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import type { AppConfig, EgressProxyConfig } from '../../config/app-config';
import { AnswerTooLargeError } from './llm-client';

// A streamed answer holds its connection for as long as the model writes: the bound is per provider origin, and calls
// beyond it wait for a connection.
const POOL_OPTIONS = { connections: 1024, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 30_000 };
const agent = new Agent(POOL_OPTIONS);

/** A request as a provider library would have sent it. */
export interface CapturedRequest {
  input: string | URL | Request;
  init: RequestInit;
}

/** An event stream answered with status 200, its body handed over as the connection delivers it. */
export interface OpenEventStream {
  body: Readable;
  headers: Headers;
  /** The bound its reader holds it to (MAX_ANSWER_BYTES). */
  maxAnswerBytes: number;
}

/**
 * What the fetch does, for the call of an abort signal, instead of sending: keep the request its provider library
 * built (`capture`), or answer with a response already had (`replay`). Keyed by the signal, the one thing of a call
 * that reaches its `fetch` unchanged through a provider library.
 */
type Instead = { capture: (request: CapturedRequest) => void } | { replay: Response };

const instead = new WeakMap<AbortSignal, Instead>();

/** What a captured call's fetch rejects with: one error made once, so no call pays for a stack trace. */
const CAPTURED = new Error('The request was captured, not sent');

/**
 * The request `build` (a provider library's call) would send for the call of `signal`, without sending it: the
 * library builds its request as usual, and its fetch keeps it and fails with a marker that ends the call there. Null
 * when the signal's call is being captured or replayed already (two calls sharing one signal). A failure of `build`
 * before its fetch (settings the library refuses) is its own.
 */
export async function captureRequest(
  signal: AbortSignal,
  build: () => PromiseLike<unknown>,
): Promise<CapturedRequest | null> {
  if (instead.has(signal)) return null;
  let captured: CapturedRequest | null = null;
  instead.set(signal, { capture: (request) => (captured = request) });
  try {
    await build();
  } catch (error) {
    if (error !== CAPTURED) throw error;
  } finally {
    instead.delete(signal);
  }
  if (captured === null) throw new Error('The provider library answered without sending its request');
  return captured;
}

/** `build` (a provider library's call) run once more, its fetch answered with `response` rather than sent. */
export async function replayResponse<T>(
  signal: AbortSignal,
  response: Response,
  build: () => PromiseLike<T>,
): Promise<T> {
  instead.set(signal, { replay: response });
  try {
    return await build();
  } finally {
    instead.delete(signal);
  }
}

/** A 200 JSON answer read whole (within its bound) and handed over as its text, with no Response made for it. */
export interface ReadJsonAnswer {
  json: string;
}

/** A `fetch` whose answers are read up to `maxAnswerBytes` (unbounded when it is left out). */
export type FetchFunction = (
  input: string | URL | Request,
  init?: RequestInit,
  maxAnswerBytes?: number,
) => Promise<Response>;

/** A fetch for event streams: a 200 event stream is handed over as its body (OpenEventStream), any other answer read. */
export type EventStreamFetch = (
  input: string | URL | Request,
  init: RequestInit,
  maxAnswerBytes: number,
) => Promise<Response | OpenEventStream>;

/** A fetch for plain answers read by their caller: a 200 JSON answer is handed over as its text, any other answered. */
export type JsonAnswerFetch = (
  input: string | URL | Request,
  init: RequestInit,
  maxAnswerBytes: number,
) => Promise<Response | ReadJsonAnswer>;

export interface ProviderFetch {
  readonly fetch: FetchFunction;
  readonly eventStream: EventStreamFetch;
  readonly jsonAnswer: JsonAnswerFetch;
  /** Ends the connections of its own pool (the shared pool of httpFetch stays open). */
  readonly close: () => Promise<void>;
}

/**
 * The bound of an image generation answer: up to `maxImagesPerCall` images of up to `maxImageBytes` each, as base64
 * (four characters for every three bytes), beside what a text answer may hold.
 */
export function imageAnswerBytes(
  config: Pick<AppConfig, 'maxAnswerBytes' | 'maxImagesPerCall' | 'maxImageBytes'>,
): number {
  return config.maxAnswerBytes + config.maxImagesPerCall * Math.ceil((config.maxImageBytes * 4) / 3);
}

/** The `fetch` of a provider client whose answers are read up to `maxAnswerBytes` (see httpFetch). */
export function answerBoundedFetch(maxAnswerBytes: number, send: FetchFunction = httpFetch): typeof fetch {
  return (input, init) => send(input, init, maxAnswerBytes);
}

/**
 * The `fetch` the provider clients use: Node's global fetch (WHATWG streams, per-request transferable AbortSignals)
 * was the largest cost of a cache miss in the execution profile, and node:http's client (a ClientRequest and an
 * IncomingMessage stream per call) the next. This one sends through an undici connection pool and answers a standard
 * Response: buffered, except an event stream (a streamed answer), whose body is handed over as it arrives. A body
 * longer than `maxAnswerBytes` is not read further: the connection is closed and the read fails with
 * AnswerTooLargeError (at once for a buffered body, as the stream's error for an event stream).
 */
export function httpFetch(
  input: string | URL | Request,
  init: RequestInit = {},
  maxAnswerBytes = Number.POSITIVE_INFINITY,
): Promise<Response> {
  return send(agent, input, init, maxAnswerBytes);
}

/**
 * The provider clients' `fetch` with an egress proxy: calls to https:// URLs go through `httpsProxy` (a CONNECT
 * tunnel), calls to http:// URLs through `httpProxy`, except to the hosts `noProxy` lists. The proxy settings come
 * from the configuration only (undici's own reading of the environment is overridden by passing every one of them).
 * Without a proxy, it is `httpFetch` on the shared pool. `close` ends the proxy's connections.
 */
export function createHttpFetch(proxy: EgressProxyConfig | undefined): ProviderFetch {
  if (!proxy) {
    return { fetch: httpFetch, ...handOversThrough(agent), close: () => Promise.resolve() };
  }
  const dispatcher = new EnvHttpProxyAgent({
    ...POOL_OPTIONS,
    httpsProxy: proxy.httpsProxy ?? '',
    httpProxy: proxy.httpProxy ?? '',
    noProxy: proxy.noProxy ?? '',
  });
  return {
    fetch: (input, init = {}, maxAnswerBytes = Number.POSITIVE_INFINITY) =>
      send(dispatcher, input, init, maxAnswerBytes),
    ...handOversThrough(dispatcher),
    close: () => dispatcher.close(),
  };
}

/** The fetches that hand a 200 event stream or JSON answer over, sent through `dispatcher`. */
function handOversThrough(dispatcher: Dispatcher): Pick<ProviderFetch, 'eventStream' | 'jsonAnswer'> {
  return {
    eventStream: (input, init, maxAnswerBytes) => send(dispatcher, input, init, maxAnswerBytes, 'event-stream'),
    jsonAnswer: (input, init, maxAnswerBytes) => send(dispatcher, input, init, maxAnswerBytes, 'json'),
  };
}

/** What `send` answers, by the kind of answer handed over, in place of a Response. */
interface HandedOver {
  'event-stream': OpenEventStream;
  json: ReadJsonAnswer;
}

/**
 * One request through `dispatcher`. With `handOver`, a 200 event stream (`event-stream`) is answered as its body
 * (OpenEventStream) for the caller to read, or a 200 JSON answer (`json`) as its text (ReadJsonAnswer); any other
 * answer as a Response (an event stream's body streams). A call whose signal is being captured or replayed
 * (captureRequest, replayResponse) sends nothing.
 */
function send(
  dispatcher: Dispatcher,
  input: string | URL | Request,
  init: RequestInit,
  maxAnswerBytes: number,
): Promise<Response>;
function send<K extends keyof HandedOver>(
  dispatcher: Dispatcher,
  input: string | URL | Request,
  init: RequestInit,
  maxAnswerBytes: number,
  handOver: K,
): Promise<Response | HandedOver[K]>;
async function send(
  dispatcher: Dispatcher,
  input: string | URL | Request,
  init: RequestInit,
  maxAnswerBytes: number,
  handOver?: keyof HandedOver,
): Promise<Response | HandedOver[keyof HandedOver]> {
  const signal = init.signal ?? undefined;
  const otherwise = signal ? instead.get(signal) : undefined;
  if (otherwise) {
    instead.delete(signal!);
    if ('replay' in otherwise) return otherwise.replay;
    otherwise.capture({ input, init });
    throw CAPTURED;
  }
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  if (signal?.aborted) throw abortError(signal);
  let response: Dispatcher.ResponseData;
  try {
    response = await dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: init.method ?? 'GET',
      headers: headersOf(init.headers),
      body: bodyOf(init.body),
      signal,
    });
  } catch (error) {
    throw failure(error as Error, signal);
  }
  const { statusCode: status, body } = response;
  // A body whose declared length is past the bound is refused before it is read.
  if (Number(response.headers['content-length'] ?? 0) > maxAnswerBytes) {
    discard(body);
    throw new AnswerTooLargeError();
  }
  if (handOver === 'json' && status === 200 && isJson(response.headers['content-type'])) {
    // Read as the Response below would be, without the Headers and Response made for it.
    return { json: (await readBody(body, maxAnswerBytes, signal)).toString('utf8') };
  }
  const headers = headersFrom(response.headers);
  if (status === 200 && /^text\/event-stream/i.test(headers.get('content-type') ?? '')) {
    if (handOver === 'event-stream') return { body, headers, maxAnswerBytes };
    // Once the body flows, an abort ends it with the abort's error (undici destroys the body on abort).
    const stream = Readable.toWeb(body) as ReadableStream<Uint8Array>;
    if (Number.isFinite(maxAnswerBytes)) endPast(body, maxAnswerBytes);
    return new Response(stream, { status, headers });
  }
  const bytes = await readBody(body, maxAnswerBytes, signal);
  // A view of the bytes read, not a copy.
  const view = new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  return new Response(status === 204 || status === 304 ? null : view, { status, headers });
}

/** The whole body within `max` (readWithin); a read that fails otherwise fails as fetch's would. */
async function readBody(
  body: Dispatcher.ResponseData['body'],
  max: number,
  signal: AbortSignal | undefined,
): Promise<Buffer> {
  try {
    return await readWithin(body, max);
  } catch (error) {
    if (error instanceof AnswerTooLargeError) throw error;
    throw failure(error as Error, signal);
  }
}

/**
 * The whole body, or AnswerTooLargeError (the body destroyed, which closes the connection) once it passes `max`. Read
 * by its events rather than an async iterator, which costs a promise per chunk.
 */
function readWithin(body: Dispatcher.ResponseData['body'], max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let ended = false;
    body.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > max) {
        reject(new AnswerTooLargeError());
        body.removeAllListeners('data');
        discard(body);
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total));
    });
    body.once('error', reject);
    // A body closed before its end without an error of its own (a settled promise ignores this).
    body.once('close', () => {
      if (!ended) reject(new Error('The answer ended before it was complete'));
    });
  });
}

/** Stops reading a body: destroying it closes the connection (undici then reports the abort, which nobody awaits). */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/**
 * Counts the bytes of a streamed body as they arrive, beside the web stream reading it: past `max` the body is
 * destroyed with AnswerTooLargeError, which closes the connection and errors the stream its reader holds.
 */
function endPast(body: Dispatcher.ResponseData['body'], max: number): void {
  let total = 0;
  body.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (total > max) body.destroy(new AnswerTooLargeError());
  });
}

/** `application/json`, or a JSON media type of its family (`application/problem+json`), with or without parameters. */
function isJson(contentType: string | string[] | undefined): boolean {
  return typeof contentType === 'string' && /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType);
}

function failure(error: Error, signal: AbortSignal | undefined): Error {
  return signal?.aborted ? abortError(signal) : new TypeError(`fetch failed: ${error.message}`, { cause: error });
}

function headersFrom(raw: Dispatcher.ResponseData['headers']): Headers {
  const headers = new Headers();
  for (const name in raw) {
    const value = raw[name];
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

function headersOf(headers: RequestInit['headers']): Record<string, string> {
  if (!headers) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return headers;
}

function bodyOf(body: RequestInit['body']): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('httpFetch sends string or byte bodies only');
}

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason as Error | undefined;
  if (reason instanceof Error) return reason;
  const error = new Error('The operation was aborted');
  error.name = 'AbortError';
  return error;
}
