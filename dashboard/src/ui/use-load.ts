import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again (after a change), keeping the current data on screen meanwhile. */
  reload: () => void;
}

/** Runs `load` when `deps` change; an answer that arrives after a newer request started is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const current = ++generation.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current === generation.current && setState({ data, loading: false }),
      (error) =>
        current === generation.current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    // The caller's deps decide when to load again: `load` is a new closure on every render.
  }, deps);
  useEffect(() => {
    run();
  }, [run]);
  return { data: state.data, error: state.error, loading: state.loading, reload: run };
}
