import type { IncomingMessage } from 'node:http';
import type { Principal } from '../auth/principal';
import type { EndpointRateLimits } from '../rate-limit/rate-limiter';
import { type HttpRequestLike, nodeRequestOf } from './http-context';
import { type Surface, surfaceOf } from './surface';

/**
 * What the request path has established about one request, in one typed object: created once, as the request
 * arrives (its surface, from the surface table), then filled in by the stage that knows each part: the key's
 * principal by the pre-body check, the endpoint an execution targets by the execution access guard. Guards, the
 * rate limits and controllers read it here instead of from fields set on the adapter's request.
 */
export class RequestContext {
  private authenticated: Principal | null = null;
  /** The endpoint an execution resolved to: its own per-key limits join the key's execution windows. */
  executionTarget: EndpointRateLimits | null = null;

  constructor(readonly surface: Surface) {}

  /** Records the key the request authenticated with (once). */
  authenticate(principal: Principal): void {
    this.authenticated = principal;
  }

  get isAuthenticated(): boolean {
    return this.authenticated !== null;
  }

  /** The authenticated key; a route of a keyed surface always has one (the pre-body check refuses any other). */
  get principal(): Principal {
    if (!this.authenticated) throw new Error('No key was authenticated for this request');
    return this.authenticated;
  }
}

/**
 * Each request's context, on Node's request (the adapter's own request object wraps it on Fastify) under a property
 * only this module knows: it lives and goes with the request, with no weak table for the garbage collector to keep.
 */
const CONTEXT = Symbol('requestContext');
type WithContext = IncomingMessage & { [CONTEXT]?: RequestContext };

/** Creates the context of a request as it arrives. */
export function openRequestContext(request: IncomingMessage): RequestContext {
  const context = new RequestContext(surfaceOf(request.url ?? '/'));
  (request as WithContext)[CONTEXT] = context;
  return context;
}

/** The context of a request (the adapter's request or Node's). */
export function requestContextOf(request: HttpRequestLike): RequestContext {
  const context = (nodeRequestOf(request) as WithContext)[CONTEXT];
  if (!context) throw new Error('The request has no context: it did not pass the request hook');
  return context;
}

/** The authenticated key of a request of a keyed surface. */
export function principalOf(request: HttpRequestLike): Principal {
  return requestContextOf(request).principal;
}
