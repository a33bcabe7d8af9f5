import { useEffect, useSyncExternalStore } from 'react';
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

/** The questions of the pages that ask before they are left (unsaved changes), the newest last. */
const leaveQuestions = new Set<{ question: string }>();

/**
 * While `question` is not null, going to another page of the dashboard asks it first (and stays when the answer is
 * no), and so does closing or reloading the tab (in the browser's own words). A change of the page's query alone
 * (a filter) does not ask.
 */
export function useLeaveGuard(question: string | null): void {
  useEffect(() => {
    if (question === null) return;
    const entry = { question };
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    leaveQuestions.add(entry);
    addEventListener('beforeunload', warn);
    return () => {
      leaveQuestions.delete(entry);
      removeEventListener('beforeunload', warn);
    };
  }, [question]);
}

/**
 * Goes to `to` (a route, query included). Another page is asked of the leave guards first, unless `force` (the page
 * itself leaving once its work is saved).
 */
export function navigate(
  to: string,
  { replace = false, force = false }: { replace?: boolean; force?: boolean } = {},
): void {
  const url = new URL(location.href);
  url.hash = '/' + to.replace(/^#?\/?/, '');
  if (url.href === location.href) return;
  const nextPath = '/' + url.hash.replace(/^#?\/?/, '').split('?')[0];
  if (!force && nextPath !== hashPath()) {
    for (const { question } of leaveQuestions) if (!confirm(question)) return;
  }
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
