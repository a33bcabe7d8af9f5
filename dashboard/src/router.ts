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

/** The route's query as an object, and a setter that replaces it (a filter change is not a new history entry). */
export function useQuery(): [URLSearchParams, (next: Record<string, string | number | undefined | null>) => void] {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const set = (next: Record<string, string | number | undefined | null>) => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(next))
      if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
    const text = query.toString();
    navigate(hashPath() + (text ? `?${text}` : ''), { replace: true });
  };
  return [params, set];
}
