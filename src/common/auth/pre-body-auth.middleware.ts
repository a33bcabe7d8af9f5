import type { ExceptionFilter } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../../config/app-config';
import { PayloadTooLargeError } from '../errors/app-error';
import { type HttpRequestLike, type HttpResponseLike, nodeRequestOf, setHeader } from '../http/http-context';
import { httpHost } from '../http/http-host';
import type { RequestContext } from '../http/request-context';
import {
  acceptsBearer,
  announcesBody,
  bodyLimitOf,
  declaredLength,
  isOpenPage,
  type KeyedSurface,
  type Surface,
  takesBody,
} from '../http/surface';
import type { KeyAuthenticator } from './key-authenticator';

/**
 * How each surface renders a refusal (its exception filter), so an early answer is the one its guards would give;
 * `open` renders one for any other path as the router's own answers there are.
 */
export type SurfaceFilters = Record<Surface, ExceptionFilter>;

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
 * without a valid key is a 401 first). This is the one place a key is checked: the principal found goes into the
 * request's context, where the surface's guards read it to decide permissions. The surface's rules (prefix, key
 * forms, body limit) come from the surface table. Chunked bodies are bounded by each adapter's parser.
 */
export class PreBodyAuthMiddleware {
  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly config: AppConfig,
    private readonly filters: SurfaceFilters,
  ) {}

  /** `request` and `response` are the adapter's own objects (Fastify's request and reply, or Express's), as guards see them. */
  use(context: RequestContext, request: HttpRequestLike, response: HttpResponseLike, next: () => void): void {
    const node = nodeRequestOf(request);
    const { surface } = context;
    if (surface === 'open' || isOpenPage(node.method, node.url)) {
      if (!announcesBody(node)) return next();
      return this.refuse('open', bodyNotTaken(), request, response, node);
    }
    this.admit(context, request, node, surface).then(
      () => next(),
      (error: unknown) => this.refuse(surface, error, request, response, node),
    );
  }

  private async admit(
    context: RequestContext,
    request: HttpRequestLike,
    node: IncomingMessage,
    surface: KeyedSurface,
  ): Promise<void> {
    // The execution surface takes the key in x-api-key only; admin and MCP also as a Bearer token.
    context.authenticate(await this.keys.authenticate(request, acceptsBearer(surface)));
    if (announcesBody(node) && !takesBody(node.method, surface)) throw bodyNotTaken();
    if ((declaredLength(node) ?? 0) > bodyLimitOf(surface, this.config))
      throw new PayloadTooLargeError('Request body is too large');
  }

  private refuse(
    surface: Surface,
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
