import { useSyncExternalStore } from 'react';

/**
 * The signed-in admin key lives in this tab's sessionStorage only: never in a URL, a cookie or localStorage, so it
 * leaves with the tab.
 */
const KEY = 'promptgate.adminKey';

export interface SessionInfo {
  tenantName: string;
  tenantSlug: string;
  keyName: string;
  readOnly: boolean;
}

interface State {
  info: SessionInfo | null;
  /** Why the last session ended, shown on the sign-in page. */
  notice: string | null;
}

let state: State = { info: null, notice: null };
const listeners = new Set<() => void>();

function set(next: State): void {
  state = next;
  for (const listener of listeners) listener();
}

export const session = {
  key(): string | null {
    return sessionStorage.getItem(KEY);
  },
  start(key: string, info: SessionInfo): void {
    sessionStorage.setItem(KEY, key);
    set({ info, notice: null });
  },
  restore(info: SessionInfo): void {
    set({ info, notice: null });
  },
  signOut(): void {
    sessionStorage.removeItem(KEY);
    set({ info: null, notice: null });
  },
  expire(notice: string): void {
    sessionStorage.removeItem(KEY);
    set({ info: null, notice });
  },
  // Arrow functions, not methods: React calls these two detached from `session`.
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: (): State => state,
};

export function useSession(): State {
  return useSyncExternalStore(session.subscribe, session.snapshot);
}

/** Why the signed-in key may not write, or null when it may. */
export function useWriteBlock(): string | null {
  const { info } = useSession();
  return info?.readOnly ? 'Your key is ReadOnly: it can look at everything but change nothing.' : null;
}
