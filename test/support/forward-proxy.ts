import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A forward proxy on 127.0.0.1 that counts what passes through it: plain HTTP requests (absolute-form targets) are
 * forwarded to their origin and answered with its answer; CONNECT requests (the tunnel of an https:// call) are
 * recorded and refused with 403, since no test serves TLS.
 */
export class ForwardProxy {
  /** `METHOD host:port/path` of each forwarded request, and `CONNECT host:port` of each tunnel asked for. */
  readonly seen: string[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ForwardProxy> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new ForwardProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (socket: Socket) => {
      proxy.sockets.add(socket);
      socket.on('close', () => proxy.sockets.delete(socket));
    });
    server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) =>
      proxy.forward(request, response),
    );
    server.on('connect', (request: http.IncomingMessage, socket: Socket) => {
      proxy.seen.push(`CONNECT ${request.url}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    });
    return proxy;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(request: http.IncomingMessage, response: http.ServerResponse): void {
    const target = new URL(request.url ?? '/');
    this.seen.push(`${request.method} ${target.host}${target.pathname}`);
    const upstream = http.request(
      target,
      { method: request.method, headers: { ...request.headers, host: target.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  }
}
