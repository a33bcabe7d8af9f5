import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { RateLimitSurface } from './rate-limiter';

/**
 * The windows a route's requests count in (with KeyThrottlerGuard on the route): `admin` (the key's admin window) or
 * `execution` (the key's execution windows and the target endpoint's own). On a controller or a handler; a handler's
 * own choice wins.
 */
export const RateLimit = Reflector.createDecorator<RateLimitSurface>();

const reflector = new Reflector();
/** Each handler's windows, read from its metadata once. */
const surfaces = new WeakMap<object, RateLimitSurface>();

/** The windows the route of `context` counts in; a rate-limited route without @RateLimit is a programming error. */
export function rateLimitSurfaceOf(context: ExecutionContext): RateLimitSurface {
  const handler = context.getHandler();
  let surface = surfaces.get(handler);
  if (surface === undefined) {
    surface = reflector.getAllAndOverride(RateLimit, [handler, context.getClass()]);
    if (surface === undefined) throw new Error(`${context.getClass().name}.${handler.name} has no @RateLimit`);
    surfaces.set(handler, surface);
  }
  return surface;
}
