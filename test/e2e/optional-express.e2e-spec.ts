import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { untilHealthy } from '../support/eventually';
import { freePort } from '../support/own-servers';

/**
 * @nestjs/platform-express is an optional dependency. The built service is run as a production install without it
 * (its resolution fails as a missing package's does): it starts on Fastify, and HTTP_ADAPTER=express stops with a
 * one-line message naming the package and exit code 1.
 */
const ROOT = path.join(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const WITHOUT_EXPRESS = path.join(ROOT, 'test', 'support', 'without-express.js');

interface Started {
  exited: Promise<number | null>;
  stderr: () => string;
  kill: () => void;
}

function startWithoutExpress(env: Record<string, string>): Started {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'INITIAL_ADMIN_KEY', 'INITIAL_TENANT']) delete childEnv[name];
  if (!env.HTTP_ADAPTER) delete childEnv.HTTP_ADAPTER;
  const child = spawn(process.execPath, ['--require', WITHOUT_EXPRESS, MAIN], { cwd: ROOT, env: childEnv });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { exited, stderr: () => stderr, kill: () => child.kill('SIGKILL') };
}

describe('the Express adapter as an optional dependency', () => {
  let dataDir: string;

  beforeAll(() => {
    if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" (npm test does it first)`);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-no-express-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts on Fastify, the default, when the package is not installed', async () => {
    const port = await freePort();
    const service = startWithoutExpress({ PORT: String(port), DATA_DIR: path.join(dataDir, 'fastify') });
    try {
      const status = await untilHealthy(`http://127.0.0.1:${port}/health`, service.exited).then(
        () => 200,
        () => 0,
      );
      expect({ status, stderr: service.stderr() }).toEqual({ status: 200, stderr: '' });
    } finally {
      service.kill();
      await service.exited;
    }
  }, 120_000);

  it('refuses HTTP_ADAPTER=express with a message naming the missing package, exit code 1', async () => {
    const service = startWithoutExpress({
      PORT: String(await freePort()),
      DATA_DIR: path.join(dataDir, 'express'),
      HTTP_ADAPTER: 'express',
    });
    await expect(service.exited).resolves.toBe(1);
    expect(service.stderr()).toBe(
      'HTTP_ADAPTER=express needs the optional package @nestjs/platform-express, which is not installed: ' +
        'install it (npm install --include=optional) or leave HTTP_ADAPTER unset to run on Fastify\n',
    );
  }, 120_000);
});
