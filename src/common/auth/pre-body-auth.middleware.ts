import type { ExceptionFilter } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../../config/app-config';
import { PayloadTooLargeError } from '../errors/app-error';
import { type HttpRequestLike, type HttpResponseLike, nodeRequestOf, setHeader } from '../http/http-context';
import { httpHost } from '../http/http-host';
import type { AuthenticatedRequest, KeyAuthenticator } from './api-key.guard';

/** The surfaces that need a key. */
export type KeyedSurface = 'admin' | 'execution' | 'mcp';

/**
 * How each surface renders a refusal (its exception filter), so an early answer is the one its guards would give;
 * `open` renders one for any other path as the router's own answers there are.
 */
export type SurfaceFilters = Record<KeyedSurface | 'open', ExceptionFilter>;

const KEYED_PATH = /^\/+(?:(api\/+v1)|(admin\/+v1)|(mcp))(?:[/?#]|$)/;

/**
 * The keyed surface a request target belongs to, or null for the open routes (/health, /docs, unknown paths).
 * Matched more loosely than the routers match (case-insensitively, after percent-decoding, repeated slashes
 * allowed), so no spelling a router accepts escapes the check.
 */
export function keyedSurfaceOf(url: string): KeyedSurface | null {
  let path = url;
  try {
    path = decodeURIComponent(url);
  } catch {
    // A malformed escape: the routers do not decode it either.
  }
  const match = KEYED_PATH.exec(path.toLowerCase());
  if (!match) return null;
  return match[1] ? 'execution' : match[2] ? 'admin' : 'mcp';
}

/**
 * The largest body a surface takes: MAX_BODY_BYTES, and for admin and MCP requests MAX_ADMIN_BODY_BYTES too. Open
 * routes (null) take MAX_BODY_BYTES.
 */
export function bodyLimitOf(
  surface: KeyedSurface | null,
  config: Pick<AppConfig, 'maxBodyBytes' | 'maxAdminBodyBytes'>,
): number {
  return surface === 'admin' || surface === 'mcp'
    ? Math.min(config.maxAdminBodyBytes, config.maxBodyBytes)
    : config.maxBodyBytes;
}

/**
 * Pages under /api/v1 that hold no tenant data and so need no key: the Swagger UI page of a tenant's OpenAPI document
 * and its script and style (the page asks for a key and fetches the document with it). Matched exactly (a GET or
 * HEAD of one of these paths, with any query), so no other spelling skips authentication.
 */
const OPEN_EXECUTION_PAGES = new Set(['/api/v1/docs', '/api/v1/docs/tenant-docs.js', '/api/v1/docs/tenant-docs.css']);

export function isOpenPage(method: string | undefined, url = '/'): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const query = url.indexOf('?');
  return OPEN_EXECUTION_PAGES.has(query === -1 ? url : url.slice(0, query));
}

/** The Content-Length a request declares, or null when it has none (no body, or a chunked one). */
function declaredLength(request: Pick<IncomingMessage, 'headers'>): number | null {
  const value = request.headers['content-length'];
  return value === undefined ? null : Number(value);
}

/** Whether a request comes with a body: a Content-Length above 0, or a chunked one. */
export function announcesBody(request: Pick<IncomingMessage, 'headers'>): boolean {
  return request.headers['transfer-encoding'] !== undefined || (declaredLength(request) ?? 0) > 0;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a request may carry a body: only a POST, PUT, PATCH or DELETE of a keyed surface does, within the
 * surface's limit (clients commonly send `{}` with a DELETE); no GET, HEAD or OPTIONS, and no open route (/health,
 * /metrics, /docs, the dashboard, an unknown path) reads one.
 */
export function takesBody(method: string | undefined, surface: KeyedSurface | null): boolean {
  return surface !== null && BODY_METHODS.has(method ?? '');
}

/** The refusal of a body sent to a route that reads none: 413, since the route's limit is no body at all. */
function bodyNotTaken(): PayloadTooLargeError {
  return new PayloadTooLargeError('This route takes no request body');
}

/**
 * Runs before the body is read, as part of the adapter's request hook: a request to /api/v1, /admin/v1 or /mcp is
 * authenticated here (no key, an unknown or revoked key, a malformed Host or another tenant's host are refused
 * without reading the body), and a declared Content-Length above the surface's limit (MAX_BODY_BYTES for
 * executions, MAX_ADMIN_BODY_BYTES for admin and MCP) is a 413. A body sent to a route that takes none (takesBody)
 * is a 413 too, before it is read: on an open route at once, on a keyed surface once the key is accepted (a request
 * without a valid key is a 401 first). The principal found is kept for the surface's guards (KeyAuthenticator),
 * which still decide permissions. Chunked bodies are bounded by each adapter's parser.
 */
export class PreBodyAuthMiddleware {
  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly config: AppConfig,
    private readonly filters: SurfaceFilters,
  ) {}

  /** `request` and `response` are the adapter's own objects (Fastify's request and reply, or Express's), as guards see them. */
  use(request: HttpRequestLike, response: HttpResponseLike, next: () => void): void {
    const node = nodeRequestOf(request);
    const surface = keyedSurfaceOf(node.url ?? '/');
    if (!surface || isOpenPage(node.method, node.url)) {
      if (!announcesBody(node)) return next();
      return this.refuse('open', bodyNotTaken(), request, response, node);
    }
    this.admit(request, node, surface).then(
      () => next(),
      (error: unknown) => this.refuse(surface, error, request, response, node),
    );
  }

  private async admit(request: AuthenticatedRequest, node: IncomingMessage, surface: KeyedSurface): Promise<void> {
    // The execution surface takes the key in x-api-key only; admin and MCP also as a Bearer token.
    await this.keys.authenticate(request, surface !== 'execution');
    if (announcesBody(node) && !takesBody(node.method, surface)) throw bodyNotTaken();
    if ((declaredLength(node) ?? 0) > bodyLimitOf(surface, this.config))
      throw new PayloadTooLargeError('Request body is too large');
  }

  private refuse(
    surface: KeyedSurface | 'open',
    error: unknown,
    request: HttpRequestLike,
    response: HttpResponseLike,
    node: IncomingMessage,
  ): void {
    try {
      // The body is never read: the connection closes after the answer (what the client still sends meanwhile is
      // taken and discarded for a bounded time, common/http/drain-after-answer.ts) instead of serving another request.
      if (announcesBody(node)) setHeader(response, 'Connection', 'close');
      this.filters[surface].catch(error, httpHost(request, response));
    } catch {
      node.socket?.destroy();
    }
  }
}
