import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How much of a body nobody reads is still taken from a client after its answer, before the connection closes. */
export interface DrainBounds {
  /** Bytes read and discarded at most. */
  maxBytes: number;
  /** Time spent at most. */
  maxMs: number;
  /** A client that sends nothing for this long is done. */
  idleMs: number;
}

export const DRAIN_BOUNDS: DrainBounds = { maxBytes: 16 * 1024 * 1024, maxMs: 5_000, idleMs: 1_000 };

/** How often a draining connection's time bounds are looked at. */
const CHECK_EVERY_MS = 50;

/** What a connection whose answer went out before its request's body arrived is doing with that body. */
interface Draining {
  /** Node's server asked to close the connection (the answer said Connection: close): once the body has ended. */
  closeWhenDone(): void;
}

const drainingOn = new WeakMap<Socket, Draining>();

/**
 * Some answers are given before the request's body has arrived: a refusal without a valid key, a declared body over
 * the route's limit, a body on a route that takes none, a body over the limit found while reading it. Closing the
 * connection right after such an answer while the client is still sending makes the server's system reset the
 * connection, and an ordinary client (Node's fetch, curl) then reports a write error instead of the answer it was
 * sent. So once the answer is written, what the client still sends of that body is read and discarded, and a
 * connection the answer closes is only half-closed meanwhile (the answer, then end of stream) and closed when the body
 * has ended. Draining stops, and the connection is closed at once, when `bounds.maxBytes` more have arrived,
 * `bounds.maxMs` have passed, or nothing arrived for `bounds.idleMs`: a client cannot hold a connection, or the
 * service's bandwidth, with a body nobody reads.
 */
export function drainAfterEarlyAnswers(server: Server, bounds: DrainBounds = DRAIN_BOUNDS): void {
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    // The answer is complete and queued: a body still to come is taken from here on (before Node's server, which
    // would read it without bound, or close the connection under the client).
    response.once('prefinish', () => {
      if (!request.complete && !drainingOn.has(request.socket)) drainingOn.set(request.socket, drain(request, bounds));
    });
  });
  server.on('connection', (socket: Socket) => {
    // Node's server closes a connection after an answer with Connection: close through destroySoon().
    const closeSoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      const draining = drainingOn.get(socket);
      if (draining) draining.closeWhenDone();
      else closeSoon();
    };
  });
}

function drain(request: IncomingMessage, bounds: DrainBounds): Draining {
  const socket = request.socket;
  const startedAt = Date.now();
  let lastDataAt = startedAt;
  let received = 0;
  let closeRequested = false;
  const stop = () => {
    clearInterval(timer);
    request.off('data', onData);
    drainingOn.delete(socket);
  };
  /** Closes the connection once the answer has gone out (at maxMs in any case: a client that does not read it). */
  const closeAfterAnswer = () => {
    stop();
    if (socket.destroyed) return;
    socket.end();
    if (socket.writableFinished) return void socket.destroy();
    socket.once('finish', () => socket.destroy());
    setTimeout(() => socket.destroy(), Math.max(0, startedAt + bounds.maxMs - Date.now())).unref();
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    lastDataAt = Date.now();
    if (received > bounds.maxBytes) closeAfterAnswer();
  };
  const timer = setInterval(() => {
    const now = Date.now();
    if (now - startedAt >= bounds.maxMs || now - lastDataAt >= bounds.idleMs) closeAfterAnswer();
  }, CHECK_EVERY_MS);
  timer.unref();
  request.on('data', onData);
  request.once('end', () => {
    // The whole body arrived: a kept-alive connection serves the next request; a closing one closes now.
    stop();
    if (closeRequested) closeAfterAnswer();
  });
  socket.once('close', stop);
  return {
    closeWhenDone() {
      closeRequested = true;
      // The answer, then end of stream; the client may go on sending the body meanwhile.
      socket.end();
    },
  };
}
