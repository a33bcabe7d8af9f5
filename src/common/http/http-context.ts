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

/** Node's response under the adapter's: Fastify's `reply.raw`, or Express's response itself. */
export function nodeResponseOf(response: HttpResponseLike): ServerResponse {
  return (response.raw ?? response) as ServerResponse;
}
