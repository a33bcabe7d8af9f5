import * as http from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';

// A streamed answer holds its connection for as long as the model writes: the bound is per provider host, and calls
// beyond it wait for a connection.
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 1024, keepAliveMsecs: 30_000 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 1024, keepAliveMsecs: 30_000 });

/**
 * The `fetch` the provider clients use: Node's global fetch (WHATWG streams, per-request transferable AbortSignals)
 * was the largest cost of a cache miss in the execution profile. This one speaks node:http over keep-alive agents and
 * answers a standard Response: buffered, except an event stream (a streamed answer), whose body is handed over as it
 * arrives.
 */
export function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const isHttps = url.protocol === 'https:';
  const signal = init.signal ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    let streamed: http.IncomingMessage | null = null;
    const request = (isHttps ? https : http).request(
      url,
      { method: init.method ?? 'GET', headers: headersOf(init.headers), agent: isHttps ? httpsAgent : httpAgent },
      (response) => {
        const status = response.statusCode ?? 502;
        if (status === 200 && /^text\/event-stream/i.test(response.headers['content-type'] ?? '')) {
          // Once the body flows, an abort ends it with the abort's error.
          streamed = response;
          response.once('close', () => signal?.removeEventListener('abort', onAbort));
          const body = Readable.toWeb(response) as ReadableStream<Uint8Array>;
          return resolve(
            new Response(body, { status, statusText: response.statusMessage, headers: headersFrom(response) }),
          );
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          signal?.removeEventListener('abort', onAbort);
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: response.statusMessage, headers: headersFrom(response) }));
        });
      },
    );
    function fail(error: Error) {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? abortError(signal) : new TypeError(`fetch failed: ${error.message}`, { cause: error }));
    }
    function onAbort() {
      streamed?.destroy(abortError(signal!));
      request.destroy(abortError(signal!));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', fail);
    request.end(bodyOf(init.body));
  });
}

function headersFrom(response: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
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
