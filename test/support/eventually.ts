import type { ChildProcess } from 'node:child_process';

/** How often a poll looks again, and how long it may take before it fails (generous: the machine may be loaded). */
const INTERVAL_MS = 25;
const DEADLINE_MS = 60_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `probe` every few milliseconds until it returns something other than `undefined` or `false`, and returns that;
 * fails naming `what` once `timeoutMs` has gone by, or as soon as `gaveUp()` says waiting is pointless (a process exited).
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  { timeoutMs = DEADLINE_MS, gaveUp }: { timeoutMs?: number; gaveUp?: () => boolean } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline || gaveUp?.()) throw new Error(`Timed out waiting for ${what}`);
    await sleep(INTERVAL_MS);
  }
}

/** Polls `url` until it answers 200 (a spawned service came up); `exited` stops the wait early with the failure. */
export async function untilHealthy(
  url: string,
  exited: Promise<unknown>,
  describeFailure: () => string = () => '',
): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  await eventually(
    () =>
      fetch(url).then(
        (res) => res.status === 200,
        () => false,
      ),
    `${url} to answer 200`,
    { timeoutMs: 90_000, gaveUp: () => gone },
  ).catch((error: Error) => {
    throw new Error(`${error.message}${gone ? ' (the service exited)' : ''} ${describeFailure()}`);
  });
}

/** Stops a spawned process that still runs (SIGKILL) and waits for it to be gone. */
export async function killAndWait(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGKILL');
  await exited;
}
