import type { INestApplicationContext } from '@nestjs/common';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { runCliCommand } from './cli-commands';

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
          let argv: string[] = [];
          try {
            argv = JSON.parse(Buffer.concat(chunks).toString('utf8')).argv;
          } catch {
            argv = [];
          }
          const result = await runCliCommand(app, Array.isArray(argv) ? argv.map(String) : []);
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

/** Sends a command to the running service; undefined when no service listens on the socket. */
export async function sendToRunningService(
  dataDir: string,
  argv: string[],
): Promise<{ exitCode: number; stdout: string[]; stderr: string[] } | undefined> {
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
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
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
