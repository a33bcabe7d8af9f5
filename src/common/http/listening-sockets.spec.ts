import * as http from 'node:http';
import * as net from 'node:net';
import { shareAccepting } from './listening-sockets';

const HOST = '127.0.0.1';

/** An HTTP server listening on a free port of HOST with SO_REUSEPORT, as the service's own socket does. */
async function listening(handler: http.RequestListener = (_request, response) => response.end('ok')) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen({ port: 0, host: HOST, reusePort: true }, () => resolve()));
  return { server, port: (server.address() as net.AddressInfo).port };
}

const closed = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Opens `count` connections to `port` at once, then lets the event loop turn, each turn busy for 2 ms as a loaded
 * service's turns are, until `server` has seen them all; answers how many turns that took.
 */
async function turnsToAccept(server: http.Server, port: number, count: number): Promise<number> {
  let accepted = 0;
  server.on('connection', () => accepted++);
  const clients = Array.from({ length: count }, () => net.connect(port, HOST).on('error', () => undefined));
  // The system completes the connections without the event loop, which stays busy meanwhile, so none is accepted
  // before the turns are counted.
  busy(100);
  let turns = 0;
  await new Promise<void>((resolve) => {
    const turn = () => {
      if (accepted >= count || turns >= 10 * count) return resolve();
      turns++;
      busy(2);
      setImmediate(turn);
    };
    setImmediate(turn);
  });
  for (const client of clients) client.destroy();
  return turns;
}

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const onLinux = process.platform === 'linux' ? describe : describe.skip;

onLinux('shareAccepting', () => {
  it('accepts several connections a turn where one socket accepts one', async () => {
    const single = await listening();
    const singleTurns = await turnsToAccept(single.server, single.port, 64).finally(() => closed(single.server));

    const shared = await listening();
    await shareAccepting(shared.server, HOST, 7);
    const sharedTurns = await turnsToAccept(shared.server, shared.port, 64).finally(() => closed(shared.server));

    // One socket: one connection a turn. Eight: the system spreads the 64 over their queues (about 8 each).
    expect({ singleTurns: singleTurns >= 60, sharedTurns: sharedTurns <= 32 }).toEqual({
      singleTurns: true,
      sharedTurns: true,
    });
  });

  it("serves every connection, whichever socket accepted it, and closes with the server's close", async () => {
    const { server, port } = await listening();
    await shareAccepting(server, HOST, 3);
    const get = () =>
      new Promise<number>((resolve, reject) =>
        http
          .get({ host: HOST, port, path: '/', agent: false }, (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          })
          .on('error', reject),
      );
    expect(await Promise.all(Array.from({ length: 32 }, get))).toEqual(Array(32).fill(200));
    await closed(server);
    await expect(get()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it("completes the server's close only once every request in flight has been answered", async () => {
    let arrived = 0;
    let handedOver = 0;
    const { server, port } = await listening((request, response) => {
      arrived++;
      // A connection another socket accepted is answered late; one of the server's own socket at once (Node marks the
      // connections a server accepted with it as their _server).
      const ownSocket = (request.socket as net.Socket & { _server?: unknown })._server === server;
      if (!ownSocket) handedOver++;
      setTimeout(() => response.end('done'), ownSocket ? 0 : 300);
    });
    await shareAccepting(server, HOST, 7);
    const finished: number[] = [];
    const requests = Array.from(
      { length: 24 },
      () =>
        new Promise<void>((resolve, reject) =>
          http
            .get({ host: HOST, port, path: '/', agent: false }, (response) => {
              response.resume();
              response.on('end', () => {
                finished.push(performance.now());
                resolve();
              });
            })
            .on('error', reject),
        ),
    );
    while (arrived < 24) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(handedOver).toBeGreaterThan(0);
    await closed(server);
    const closedAt = performance.now();
    await Promise.all(requests);
    // Every answer had been written before the close completed (the clients may read the last of them just after).
    expect(finished.length).toBe(24);
    expect(finished.filter((at) => at > closedAt + 50)).toEqual([]);
  });
});
