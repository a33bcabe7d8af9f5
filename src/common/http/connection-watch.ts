import { type HttpResponseLike, nodeResponseOf } from './http-context';

/**
 * Runs `listener` once when the connection of `response` closes, with whether the answer was sent in full by then
 * (false: the client left first, or the connection was closed for it). A connection closed already runs it at once.
 */
export function onConnectionClose(response: HttpResponseLike, listener: (answered: boolean) => void): void {
  const raw = nodeResponseOf(response);
  if (raw.closed || raw.destroyed) {
    listener(raw.writableFinished);
    return;
  }
  raw.once('close', () => listener(raw.writableFinished));
}

/**
 * Closes the connection of `response` once its client has taken nothing of it for `timeoutMs` while more waited to
 * be sent (the connection's buffer full, so the writer waits for it to drain): `onStalled` runs first. What a client
 * does not read would otherwise stay in memory, and its provider call keep running, for as long as it keeps the
 * connection open. A client that reads, however slowly, starts the time again.
 */
export function closeWhenStalled(response: HttpResponseLike, timeoutMs: number, onStalled: () => void): void {
  const raw = nodeResponseOf(response);
  let stalledSinceMs: number | null = null;
  const check = setInterval(
    () => {
      if (!raw.writableNeedDrain) {
        stalledSinceMs = null;
        return;
      }
      const nowMs = performance.now();
      stalledSinceMs ??= nowMs;
      if (nowMs - stalledSinceMs < timeoutMs) return;
      clearInterval(check);
      onStalled();
      raw.destroy();
    },
    Math.max(10, Math.min(1000, Math.floor(timeoutMs / 4))),
  );
  // A watch never keeps the process alive by itself.
  check.unref();
  onConnectionClose(response, () => clearInterval(check));
}
