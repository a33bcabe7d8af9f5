import { Readable } from 'node:stream';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import type { EgressProxyConfig } from '../../config/app-config';

// A streamed answer holds its connection for as long as the model writes: the bound is per provider origin, and calls
// beyond it wait for a connection.
const POOL_OPTIONS = { connections: 1024, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 30_000 };
const agent = new Agent(POOL_OPTIONS);

export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ProviderFetch {
  readonly fetch: FetchFunction;
  /** Ends the connections of its own pool (the shared pool of httpFetch stays open). */
  readonly close: () => Promise<void>;
}

/**
 * The `fetch` the provider clients use: Node's global fetch (WHATWG streams, per-request transferable AbortSignals)
 * was the largest cost of a cache miss in the execution profile, and node:http's client (a ClientRequest and an
 * IncomingMessage stream per call) the next. This one sends through an undici connection pool and answers a standard
 * Response: buffered, except an event stream (a streamed answer), whose body is handed over as it arrives.
 */
export function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  return send(agent, input, init);
}

/**
 * The provider clients' `fetch` with an egress proxy: calls to https:// URLs go through `httpsProxy` (a CONNECT
 * tunnel), calls to http:// URLs through `httpProxy`, except to the hosts `noProxy` lists. The proxy settings come
 * from the configuration only (undici's own reading of the environment is overridden by passing every one of them).
 * Without a proxy, it is `httpFetch` on the shared pool. `close` ends the proxy's connections.
 */
export function createHttpFetch(proxy: EgressProxyConfig | undefined): {
  fetch: FetchFunction;
  close(): Promise<void>;
} {
  if (!proxy) return { fetch: httpFetch, close: () => Promise.resolve() };
  const dispatcher = new EnvHttpProxyAgent({
    ...POOL_OPTIONS,
    httpsProxy: proxy.httpsProxy ?? '',
    httpProxy: proxy.httpProxy ?? '',
    noProxy: proxy.noProxy ?? '',
  });
  return { fetch: (input, init = {}) => send(dispatcher, input, init), close: () => dispatcher.close() };
}

async function send(dispatcher: Dispatcher, input: string | URL | Request, init: RequestInit): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const signal = init.signal ?? undefined;
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
  const headers = headersFrom(response.headers);
  if (status === 200 && /^text\/event-stream/i.test(headers.get('content-type') ?? '')) {
    // Once the body flows, an abort ends it with the abort's error (undici destroys the body on abort).
    return new Response(Readable.toWeb(body) as ReadableStream<Uint8Array>, { status, headers });
  }
  let bytes: ArrayBuffer;
  try {
    bytes = await body.arrayBuffer();
  } catch (error) {
    throw failure(error as Error, signal);
  }
  return new Response(status === 204 || status === 304 ? null : bytes, { status, headers });
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
