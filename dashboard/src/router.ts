import { useSyncExternalStore } from 'react';
import { type BaseLocationHook, useSearch } from 'wouter';

/**
 * Routes live in the URL's hash, query included (`#/logs?status=error`), so the server only ever serves one page and
 * the dashboard works under any base path; a view's filters stay in its link and can be shared.
 */
const subscribe = (callback: () => void) => {
  addEventListener('hashchange', callback);
  return () => removeEventListener('hashchange', callback);
};

const hashRoute = () => '/' + location.hash.replace(/^#?\/?/, '');
const hashPath = () => hashRoute().split('?')[0];
const hashSearch = () => hashRoute().split('?')[1] ?? '';

export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  const url = new URL(location.href);
  url.hash = '/' + to.replace(/^#?\/?/, '');
  if (url.href === location.href) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', url.href);
  dispatchEvent(new HashChangeEvent('hashchange'));
}

export const useHashPath: BaseLocationHook & { hrefs?: (href: string) => string; searchHook?: () => string } = () => [
  useSyncExternalStore(subscribe, hashPath),
  navigate,
];
useHashPath.hrefs = (href: string) => '#' + href;
useHashPath.searchHook = () => useSyncExternalStore(subscribe, hashSearch);

/** A query parameter's value: a list repeats the parameter (`tag=a&tag=b`); empty values are left out. */
export type QueryValue = string | number | undefined | null | readonly string[];

/** The route's query as an object, and a setter that replaces it (a filter change is not a new history entry). */
export function useQuery(): [URLSearchParams, (next: Record<string, QueryValue>) => void] {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const set = (next: Record<string, QueryValue>) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(next)) {
      const values = Array.isArray(value) ? value : [value];
      for (const one of values) if (one !== undefined && one !== null && one !== '') query.append(name, String(one));
    }
    const text = query.toString();
    navigate(hashPath() + (text ? `?${text}` : ''), { replace: true });
  };
  return [params, set];
}
