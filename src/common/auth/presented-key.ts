import { UnauthorizedError } from '../errors/app-error';
import { headerOf, HttpRequestLike } from '../http/http-context';

/**
 * The key a request presents: `x-api-key`, or (admin surface) `Authorization: Bearer`. decisions.md §4: when both are
 * present and differ, the request is refused rather than guessing which one was meant.
 */
export function presentedKey(request: HttpRequestLike, acceptBearer: boolean): string | undefined {
  const headerKey = headerOf(request, 'x-api-key')?.trim() || undefined;
  const authorization = acceptBearer ? headerOf(request, 'authorization') : undefined;
  const bearer = authorization && /^Bearer\s+(.+)$/i.exec(authorization.trim())?.[1].trim();
  if (headerKey && bearer && headerKey !== bearer) {
    throw new UnauthorizedError('The x-api-key and Authorization headers name different keys');
  }
  return headerKey ?? (bearer || undefined);
}

/** The tenant part of `Host: <tenant>.<baseDomain>[:port]`, or null for a host without one (localhost, an IP). */
export function tenantOfHost(host: string | undefined, baseDomain: string): string | null {
  if (!host) return null;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  const suffix = `.${baseDomain}`;
  if (!name.endsWith(suffix)) return null;
  const tenant = name.slice(0, -suffix.length);
  return tenant && !tenant.includes('.') ? tenant : null;
}
