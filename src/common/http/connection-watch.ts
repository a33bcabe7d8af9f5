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
 * be sent: while the writer waits for the connection's buffer to drain, or, once the answer has ended, while what is
 * left of it still waits in that buffer (an answer produced faster than its client reads is ended long before it is
 * sent). `onStalled` runs first. What a client does not read would otherwise stay in memory, and its provider call keep
 * running, for as long as it keeps the connection open. A client that reads, however slowly, starts the time again.
 */
export function closeWhenStalled(response: HttpResponseLike, timeoutMs: number, onStalled: () => void): void {
  const raw = nodeResponseOf(response);
  let stalledSinceMs: number | null = null;
  // Once the answer has ended, nothing is added to what waits: the client takes some of it when that shrinks.
  let waitingAfterEnd = Infinity;
  const check = setInterval(
    () => {
      let waiting = raw.writableNeedDrain;
      if (!waiting && raw.writableEnded && !raw.writableFinished) {
        const left = raw.writableLength;
        waiting = left > 0 && left >= waitingAfterEnd;
        waitingAfterEnd = left;
      }
      if (!waiting) {
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
