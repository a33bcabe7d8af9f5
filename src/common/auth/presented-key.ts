import { UnauthorizedError, ValidationError } from '../errors/app-error';
import { headerOf, HttpRequestLike } from '../http/http-context';

/**
 * The key a request presents: `x-api-key`, or (admin surface) `Authorization: Bearer`. When both are
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

/**
 * `name[:port]` with the name a DNS name or an IPv4 address (one trailing root dot allowed) or a bracketed IPv6
 * address, and the port digits only (RFC 3986 host syntax, restricted to what clients actually send).
 */
const HOST = /^(?:\[[0-9a-f:.]+\]|([a-z0-9_-]+(?:\.[a-z0-9_-]+)*)\.?)(?::\d*)?$/;

/**
 * The part of `Host: <part>.<baseDomain>[:port]` before the base domain (`acme` for `acme.localhost:3000`), or null
 * for a host outside the base domain (localhost, an IP). A trailing dot is ignored (`acme.localhost.` is
 * `acme.localhost`), and the part is returned whole, so `x.acme.localhost` gives `x.acme`, which no tenant's slug
 * matches. A Host that is not a host name with an optional numeric port is refused (400).
 */
export function tenantOfHost(host: string | undefined, baseDomain: string): string | null {
  if (!host) return null;
  const match = HOST.exec(host.toLowerCase());
  if (!match)
    throw new ValidationError('The Host header must be a host name or address, optionally followed by :<port digits>');
  const name = match[1];
  if (name === undefined) return null;
  const base = baseDomain.toLowerCase().replace(/\.$/, '');
  return name.endsWith(`.${base}`) ? name.slice(0, -base.length - 1) : null;
}
