import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { freePort } from '../support/own-servers';

/** The built service (`nest build`) as its own process, for the tests that signal it. */
export const ROOT = path.join(__dirname, '..', '..');
export const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');

export interface ServiceProcess {
  child: ChildProcess;
  base: string;
  port: number;
  /** Standard output and standard error, line by line, as they arrived. */
  output: string[];
  /** Standard error alone. */
  stderr: string[];
  exited: Promise<number | null>;
  /** SIGKILL if it still runs (afterAll). */
  kill(): Promise<void>;
}

/** Starts the built service and waits until /health answers; throws with its output if it exits first. */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const service = await spawnService(env);
  await waitUntilHealthy(service);
  return service;
}

/**
 * Starts the built service without waiting for it. `env` adds to (and overrides) this process's environment, with
 * LOG_LEVEL warn, SHUTDOWN_DRAIN_MS 0 and without DATABASE_URL and REDIS_URL unless given; `unset` names variables to leave out.
 */
export async function spawnService(env: Record<string, string>, unset: string[] = []): Promise<ServiceProcess> {
  if (!fs.existsSync(MAIN))
    throw new Error(`${MAIN} is missing: run "npx nest build" (npm run test:fault does it first)`);
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    // No load balancer watches a test's service: it stops at once on SIGTERM unless a test sets a drain.
    SHUTDOWN_DRAIN_MS: '0',
    PORT: String(port),
    HOST: '127.0.0.1',
    ...env,
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL']) if (!(name in env)) delete childEnv[name];
  for (const name of unset) delete childEnv[name];
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: childEnv });
  const output: string[] = [];
  const stderr: string[] = [];
  const lines = (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean);
  child.stdout.on('data', (chunk: Buffer) => output.push(...lines(chunk)));
  child.stderr.on('data', (chunk: Buffer) => {
    output.push(...lines(chunk));
    stderr.push(...lines(chunk));
  });
  // 'close' rather than 'exit': the process's last lines have been read by then.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    port,
    output,
    stderr,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Resolves once the service's /health answers 200; throws with its output if it exits first or takes over 60 s. */
export async function waitUntilHealthy(service: ServiceProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  let hasExited = false;
  void service.exited.then(() => (hasExited = true));
  for (;;) {
    if (hasExited) throw new Error(`The service exited at start:\n${service.output.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`The service did not become healthy:\n${service.output.join('\n')}`);
    const status = await fetch(`${service.base}/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One JSON call through the admin API; throws unless it answers `expected`. */
export async function admin(
  base: string,
  key: string,
  method: string,
  url: string,
  body?: unknown,
  expected = [200, 201],
): Promise<any> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json().catch(() => null);
  if (!expected.includes(response.status))
    throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
  return json?.data;
}

/** An endpoint on the fake provider's OpenAI-compatible model, its default prompt Live, and an endpoint key without practical limits. */
export async function seedExecution(
  base: string,
  adminKey: string,
  model: string,
): Promise<{ path: string; endpointId: string; key: string }> {
  const endpointPath = `/api/v1/fault-${Date.now().toString(36)}`;
  const endpoint = await admin(base, adminKey, 'POST', '/admin/v1/endpoints', {
    name: 'Fault test',
    path: endpointPath,
  });
  await admin(base, adminKey, 'POST', `/admin/v1/endpoints/${endpoint.id}/input-fields`, {
    name: 'text',
    dataType: 'string',
    isRequired: true,
  });
  const prompt = await admin(base, adminKey, 'POST', '/admin/v1/prompts', {
    name: 'Echo',
    endpointId: endpoint.id,
    llmModel: model,
    template: 'Say {{ text }}',
  });
  await admin(base, adminKey, 'POST', `/admin/v1/prompts/${prompt.id}/promote`);
  await admin(base, adminKey, 'POST', `/admin/v1/prompts/${prompt.id}/set-default`);
  const created = await admin(base, adminKey, 'POST', '/admin/v1/keys', {
    name: 'load',
    type: 'endpoint',
    rateLimitPerMinute: 1_000_000,
    rateLimitPerHour: 1_000_000,
    rateLimitPerDay: 1_000_000,
  });
  return { path: endpointPath, endpointId: endpoint.id, key: created.key };
}

/**
 * Resident memory of a process and every process it started, in MB, from /proc (Linux): VmRSS summed over the tree
 * (threads share their process's memory). 0 once the process is gone.
 */
export function residentMb(pid: number): number {
  const pids = [pid];
  let totalKb = 0;
  for (let index = 0; index < pids.length; index++) {
    const each = pids[index];
    try {
      const status = fs.readFileSync(`/proc/${each}/status`, 'utf8');
      totalKb += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      for (const task of fs.readdirSync(`/proc/${each}/task`)) {
        const children = fs.readFileSync(`/proc/${each}/task/${task}/children`, 'utf8').trim();
        if (children) pids.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // gone meanwhile
    }
  }
  return totalKb / 1024;
}

export interface LoadResult {
  /** X-Request-Id of every execution answered 200. */
  answered: string[];
  /** Other statuses, by status. */
  otherStatuses: Record<number, number>;
  /** Requests that got no answer (connection refused or closed). */
  failed: number;
}

/**
 * `connections` keep-alive connections each sending one execution after the other until `until()` says stop or the
 * service stops answering on it (a connection refused: the server no longer accepts), bounded by `maxMs`.
 */
export async function executeUnderLoad(
  options: { base: string; path: string; key: string; connections: number; maxMs: number },
  until: () => boolean,
): Promise<LoadResult> {
  const url = new URL(options.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const result: LoadResult = { answered: [], otherStatuses: {}, failed: 0 };
  const deadline = Date.now() + options.maxMs;
  const body = JSON.stringify({ text: 'hello' });
  const once = () =>
    new Promise<'answered' | 'failed'>((resolve) => {
      const request = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: options.path,
          headers: {
            'x-api-key': options.key,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode === 200) result.answered.push(String(response.headers['x-request-id']));
            else result.otherStatuses[response.statusCode!] = (result.otherStatuses[response.statusCode!] ?? 0) + 1;
            resolve('answered');
          });
          response.on('error', () => {
            result.failed++;
            resolve('failed');
          });
        },
      );
      request.on('error', () => {
        result.failed++;
        resolve('failed');
      });
      request.end(body);
    });
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (Date.now() < deadline && !until()) {
        if ((await once()) === 'failed') return;
      }
    }),
  );
  agent.destroy();
  return result;
}
