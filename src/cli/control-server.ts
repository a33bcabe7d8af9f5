import type { INestApplicationContext } from '@nestjs/common';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { type CliResult, runCliCommand } from './cli-commands';

export const controlSocketPath = (dataDir: string) => path.join(dataDir, 'promptgate.sock');

/**
 * Embedded mode keeps the database inside the service process, so the CLI sends its commands here: a Unix socket in
 * DATA_DIR, readable by the owner only, that runs the same commands as the CLI would in-process.
 */
export class ControlServer {
  private constructor(
    private readonly server: http.Server,
    private readonly socketPath: string,
  ) {}

  static async start(app: INestApplicationContext, dataDir: string): Promise<ControlServer> {
    const socketPath = controlSocketPath(dataDir);
    fs.rmSync(socketPath, { force: true }); // left by a process that died; the data-dir lock proves none runs
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        void (async () => {
          const result = await runCliCommand(app, argvOf(Buffer.concat(chunks).toString('utf8')));
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
        })();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    fs.chmodSync(socketPath, 0o600);
    return new ControlServer(server, socketPath);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    fs.rmSync(this.socketPath, { force: true });
  }
}

/** The command a request carries as `{"argv": [...]}`; none when the body has another shape. */
function argvOf(body: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const argv = typeof parsed === 'object' && parsed !== null && 'argv' in parsed ? parsed.argv : undefined;
  return Array.isArray(argv) ? argv.map(String) : [];
}

/** Sends a command to the running service; undefined when no service listens on the socket. */
export async function sendToRunningService(dataDir: string, argv: string[]): Promise<CliResult | undefined> {
  const socketPath = controlSocketPath(dataDir);
  if (!fs.existsSync(socketPath)) return undefined;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath, path: '/', method: 'POST', headers: { 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as CliResult);
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? resolve(undefined) : reject(error),
    );
    request.end(JSON.stringify({ argv }));
  });
}
