import * as http from 'node:http';
import * as net from 'node:net';
import { listenSpread } from './listeners';

const listenOf = (server: http.Server) => (options: net.ListenOptions) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => resolve());
  });

const get = (port: number) =>
  new Promise<number>((resolve, reject) =>
    http
      .get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject),
  );

describe('listenSpread', () => {
  const servers: { close(): void }[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  it('serves every connection of the port, spread over several sockets on Linux', async () => {
    const server = http.createServer((_request, response) => response.end('ok'));
    servers.push(server);
    const extras = await listenSpread(server, 0, '127.0.0.1', listenOf(server), 4);
    servers.push(extras);
    expect(extras.count).toBe(process.platform === 'linux' ? 3 : 0);
    const port = (server.address() as net.AddressInfo).port;
    const statuses = await Promise.all(Array.from({ length: 20 }, () => get(port)));
    expect(statuses).toEqual(Array(20).fill(200));
  });

  it('refuses a port another process holds, as a single socket would', async () => {
    const holder = net.createServer();
    servers.push(holder);
    await new Promise<void>((resolve) => holder.listen({ port: 0, host: '127.0.0.1' }, () => resolve()));
    const port = (holder.address() as net.AddressInfo).port;
    const server = http.createServer();
    servers.push(server);
    await expect(listenSpread(server, port, '127.0.0.1', listenOf(server), 4)).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });

  it('stops accepting on its own sockets once closed, with the server', async () => {
    const server = http.createServer((_request, response) => response.end('ok'));
    const extras = await listenSpread(server, 0, '127.0.0.1', listenOf(server), 4);
    const port = (server.address() as net.AddressInfo).port;
    extras.close();
    await new Promise((resolve) => server.close(resolve));
    await expect(get(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
