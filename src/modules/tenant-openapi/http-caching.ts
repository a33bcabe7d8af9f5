import { headerOf, type HttpRequestLike } from '../../common/http/http-context';
import type { CallerHost } from './tenant-openapi.service';

/**
 * Whether an `If-None-Match` header names the entity tag: `*`, or one of its comma-separated tags compared weakly
 * (a `W/` prefix is ignored), as HTTP compares them for GET.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag));
}

export function callerHostOf(request: HttpRequestLike): CallerHost {
  return { host: headerOf(request, 'host'), forwardedProto: headerOf(request, 'x-forwarded-proto') };
}
