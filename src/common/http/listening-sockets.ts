import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import * as net from 'node:net';

/** Where the service listens, and through how many sockets. */
export interface ListenTarget {
  port: number;
  host: string;
  /** Listening sockets on the port; 1 where the system cannot share a port between sockets. */
  sockets: number;
}

/** Systems on which Node opens a port with SO_REUSEPORT, so that several sockets share it. */
const SHARED_PORT_PLATFORMS: readonly NodeJS.Platform[] = ['linux', 'freebsd', 'aix', 'sunos'];

/**
 * Listens on `target.port` through `target.sockets` listening sockets, every connection served by the one HTTP server.
 *
 * Node's event loop accepts one new connection per listening socket on each of its turns. Under load a turn takes tens
 * of milliseconds, so one socket accepts a few dozen connections a second, and a client that opens and drops
 * connections faster than that (a tenant whose refused or stalled streams reconnect) keeps the accept queue full:
 * every other client's new connection then waits seconds in the system's queue before the service sees its request.
 * With several sockets sharing the port (SO_REUSEPORT), the system spreads new connections over their queues and each
 * turn accepts one from each.
 *
 * The port stays the service's own: it is first taken by an ordinary socket, so a port already in use (by another
 * program, or by another instance of this service) fails the start with EADDRINUSE as it would with one socket.
 */
export async function listenOn(app: INestApplication, target: ListenTarget): Promise<void> {
  const sockets = SHARED_PORT_PLATFORMS.includes(process.platform) ? target.sockets : 1;
  if (sockets === 1) {
    await app.listen(target.port, target.host);
    return;
  }
  if (target.port !== 0) await assertPortFree(target.port, target.host);
  // Both HTTP adapters hand an options object to Node's server.listen as it is.
  await app.listen({ port: target.port, host: target.host, reusePort: true } as never);
  await shareAccepting(app.getHttpServer() as Server, target.host, sockets - 1);
}

/**
 * Opens `extra` more listening sockets on the port `server` listens on (with SO_REUSEPORT, as it does), each handing
 * the connections it accepts to `server`. From then on the server's close also closes them, and completes only once
 * every connection has ended, whichever socket accepted it.
 */
export async function shareAccepting(server: Server, host: string, extra: number): Promise<void> {
  const { port } = server.address() as net.AddressInfo;
  const acceptors: net.Server[] = [];
  const handedOver = new Set<net.Socket>();
  let drained: (() => void) | undefined;
  const handOver = (socket: net.Socket) => {
    handedOver.add(socket);
    socket.once('close', () => {
      handedOver.delete(socket);
      if (handedOver.size === 0) drained?.();
    });
    server.emit('connection', socket);
  };
  try {
    for (let n = 0; n < extra; n++) {
      // Node's HTTP server disables Nagle's algorithm on the connections it accepts; these sockets do the same.
      const acceptor = net.createServer({ noDelay: true }, handOver);
      acceptors.push(acceptor);
      await new Promise<void>((resolve, reject) => {
        acceptor.once('error', reject);
        acceptor.listen({ port, host, reusePort: true }, () => {
          acceptor.off('error', reject);
          resolve();
        });
      });
    }
  } catch (error) {
    for (const acceptor of acceptors) acceptor.close();
    throw error;
  }
  // Node's close waits only for the connections its own socket accepted; the last logs are written after it.
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    for (const acceptor of acceptors) acceptor.close();
    return close((error?: Error) => {
      if (handedOver.size === 0) callback?.(error);
      else drained = () => callback?.(error);
    });
  };
}

/** Resolves if `port` can be bound by a socket that does not share it; rejects with EADDRINUSE otherwise. */
function assertPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
