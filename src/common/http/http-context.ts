import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * The few request/response operations our code needs, written against what Express and Fastify share, so modules
 * stay adapter-neutral (the bootstrap alone picks the HTTP adapter).
 */
export interface HttpRequestLike {
  headers: IncomingHttpHeaders;
  url?: string;
  originalUrl?: string;
  method?: string;
  query?: unknown;
  body?: unknown;
  /** Set by RequestIdMiddleware. */
  requestId?: string;
  raw?: HttpRequestLike;
}

export interface HttpResponseLike {
  status?(code: number): unknown;
  header?(name: string, value: string | number): unknown;
  setHeader?(name: string, value: string | number): unknown;
  raw?: HttpResponseLike;
}

export function headerOf(request: HttpRequestLike, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function setHeader(response: HttpResponseLike, name: string, value: string | number): void {
  if (typeof response.header === 'function') response.header(name, value);
  else response.setHeader?.(name, value);
}

/** The id RequestIdMiddleware stored on the underlying Node request. */
export function requestIdOf(request: HttpRequestLike): string | undefined {
  return request.requestId ?? request.raw?.requestId;
}

export function pathOf(request: HttpRequestLike): string {
  const url = request.originalUrl ?? request.url ?? request.raw?.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

export function setStatus(response: HttpResponseLike, code: number): void {
  response.status?.(code);
}

/** Node's request under the adapter's: Fastify's `request.raw`, or Express's request itself. */
export function nodeRequestOf(request: HttpRequestLike): IncomingMessage {
  return (request.raw ?? request) as IncomingMessage;
}

/**
 * Node's response under the adapter's, handed over to a caller that writes the whole answer itself: Fastify's reply
 * is hijacked (it then sends nothing of its own), the headers set on it so far carried over to the Node response;
 * Express's response is the Node one, its headers already there.
 */
export function takeOverResponse(response: HttpResponseLike): ServerResponse {
  const raw = nodeResponseOf(response);
  const reply = response as HttpResponseLike & {
    hijack?: () => void;
    getHeaders?: () => Record<string, string | number | string[] | undefined>;
  };
  if (response.raw && typeof reply.hijack === 'function') {
    const headers = reply.getHeaders?.() ?? {};
    reply.hijack();
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined) raw.setHeader(name, value);
    }
  }
  return raw;
}

/** Node's response under the adapter's: Fastify's `reply.raw`, or Express's response itself. */
export function nodeResponseOf(response: HttpResponseLike): ServerResponse {
  return (response.raw ?? response) as ServerResponse;
}
