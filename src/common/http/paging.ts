import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { MAX_INTEGER } from './integer-bounds';
import { type HttpRequestLike, type HttpResponseLike, setHeader } from './http-context';
import { Omittable } from './optional.decorator';

/** The admin lists that answer a plain array (keys, endpoints): 100 rows by default, at most 500. */
export const LIST_PAGE_SIZE = { default: 100, max: 500 } as const;

/** `page` of a paged query: an integer from 1 to MAX_INTEGER, default 1 (query strings arrive as text). */
export const PageNumber = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      maximum: MAX_INTEGER,
      default: 1,
      description: 'Page number, from 1.',
    }),
    Omittable(),
    Type(() => Number),
    IsInt({ message: '$property must be an integer' }),
    Min(1),
    Max(MAX_INTEGER),
  );

/** `pageSize` of a paged query: an integer in 1..max; above max is a 400 naming the field and the maximum. */
export const PageSize = (size: { default: number; max: number }) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      maximum: size.max,
      default: size.default,
      description: `Rows per page, 1..${size.max}.`,
    }),
    Omittable(),
    Type(() => Number),
    IsInt({ message: '$property must be an integer' }),
    Min(1),
    Max(size.max),
  );

/** `page` and `pageSize` of GET /admin/v1/keys and /endpoints; a following page is announced in a `Link` header. */
export class ListPageQuery {
  @PageNumber()
  page?: number;

  @PageSize(LIST_PAGE_SIZE)
  pageSize?: number;
}

/** OpenAPI description of the `Link` response header of a paged admin list. */
export const NEXT_PAGE_LINK = {
  Link: {
    description: 'Present when another page follows: `<same path and query with page=N+1>; rel="next"` (RFC 8288).',
    schema: { type: 'string' },
  },
};

export interface PageRequest {
  page?: number;
  pageSize?: number;
}

/** Which rows a page is: `limit` is one more than the page holds, so the extra row tells whether another page follows. */
export interface PageWindow {
  page: number;
  pageSize: number;
  offset: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  hasNextPage: boolean;
}

export function pageWindow(request: PageRequest, defaultSize: number = LIST_PAGE_SIZE.default): PageWindow {
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? defaultSize;
  return { page, pageSize, offset: (page - 1) * pageSize, limit: pageSize + 1 };
}

/** The page out of the `limit` rows read for `window` (the extra row, if any, is dropped). */
export function pageOf<T>(rows: T[], window: PageWindow): Page<T> {
  return {
    items: rows.slice(0, window.pageSize),
    page: window.page,
    pageSize: window.pageSize,
    hasNextPage: rows.length > window.pageSize,
  };
}

/** Every item of a paged list, for callers that have no paging of their own (the CLI, MCP resource listing). */
export async function allPages<T>(fetchPage: (request: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const result = await fetchPage({ page, pageSize: LIST_PAGE_SIZE.max });
    items.push(...result.items);
    if (!result.hasNextPage) return items;
  }
}

/**
 * The request's own path and query with `page` set to `page` (every other parameter kept as sent), as a reference
 * relative to the request URI: RFC 8288 resolves it against that, so it is right whatever host or proxy answered.
 */
export function pageUrl(request: HttpRequestLike, page: number): string {
  const url = request.originalUrl ?? request.url ?? request.raw?.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const params =
    mark === -1
      ? []
      : url
          .slice(mark + 1)
          .split('&')
          .filter(Boolean);
  const kept: string[] = [];
  let replaced = false;
  for (const param of params) {
    if (decodeName(param.split('=', 1)[0]) !== 'page') {
      kept.push(param);
    } else if (!replaced) {
      kept.push(`page=${page}`);
      replaced = true;
    }
  }
  if (!replaced) kept.push(`page=${page}`);
  // Characters that may not appear inside <…> of a Link header value.
  return `${path}?${kept.join('&')}`.replace(/[<>"\s]/g, (c) => encodeURIComponent(c));
}

/**
 * The response side of a paged admin list: `data` stays the contract's plain array, and when another page follows,
 * `Link: <…page=N+1…>; rel="next"` (RFC 8288, as GitHub's REST API does) points at it.
 */
export function sendPage<T>(request: HttpRequestLike, response: HttpResponseLike, page: Page<T>): T[] {
  if (page.hasNextPage) setHeader(response, 'Link', `<${pageUrl(request, page.page + 1)}>; rel="next"`);
  return page.items;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
