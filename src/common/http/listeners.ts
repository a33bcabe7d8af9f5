import * as net from 'node:net';
import type { Server } from 'node:http';

/**
 * How many listening sockets share the port where the system allows it. libuv accepts one connection per socket and
 * turn of the event loop; under load a turn takes tens of milliseconds, and new connections queue in the kernel behind
 * each other, so one tenant whose clients reconnect fast (each refusal followed by a new connection) made every other
 * caller's new connection wait seconds for its turn. With this many sockets each turn accepts up to this many.
 */
export const LISTENING_SOCKETS = 16;

/** The listening sockets beside the HTTP server's own; `close` stops them accepting (the server's own is its own). */
export interface ExtraListeners {
  count: number;
  close(): void;
}

/**
 * Listens on `port` of `host` for `server`, on LISTENING_SOCKETS sockets where the system spreads connections over
 * several sockets of one port (SO_REUSEPORT: Linux), on one elsewhere. A port another process holds is refused as
 * without them (EADDRINUSE): the port is first taken alone, and only then shared among the service's own sockets.
 * `listen` is the adapter's own (it starts the server).
 */
export async function listenSpread(
  server: Server,
  port: number,
  host: string,
  listen: (options: { port: number; host: string; reusePort?: boolean }) => Promise<unknown>,
  sockets = LISTENING_SOCKETS,
): Promise<ExtraListeners> {
  const spread = sockets > 1 && process.platform === 'linux';
  if (!spread) {
    await listen({ port, host });
    return { count: 0, close: () => undefined };
  }
  // EADDRINUSE when another process has the port, even one that shares it (which a shared bind would join).
  if (port !== 0) await listenOnce(net.createServer(), { port, host }).then((probe) => closeServer(probe));
  await listen({ port, host, reusePort: true });
  const bound = (server.address() as net.AddressInfo).port;
  const extras: net.Server[] = [];
  for (let index = 1; index < sockets; index++) {
    const extra = net.createServer((socket) => server.emit('connection', socket));
    try {
      extras.push(await listenOnce(extra, { port: bound, host, reusePort: true }));
    } catch {
      // A Node that cannot share the port (reusePort arrived in 22.12): the server's own socket alone.
      break;
    }
  }
  return {
    count: extras.length,
    close: () => {
      for (const extra of extras.splice(0)) extra.close();
    },
  };
}

function listenOnce(server: net.Server, options: net.ListenOptions): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once('error', failed);
    server.listen(options, () => {
      server.off('error', failed);
      resolve(server);
    });
  });
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
