import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MIGRATIONS } from '../../src/database/migrations';
import { serviceVersion } from '../../src/common/logging/service-version';
import { ServiceProcess, spawnService, startService } from '../fault/service-process';
import { eventually } from '../support/eventually';

/**
 * The built service as operators run it, on the embedded database: what it says at start (configuration problems,
 * warnings, the start line, its migrations), the shape of its log, and how it stops on SIGTERM, while starting and
 * while serving. Each test reads the process's own output and exit code.
 */
const ADMIN_KEY = 'epa_' + 'OperationsTestKey'.repeat(2);

/** The JSON lines of standard output (the service writes nothing else there). */
const entriesOf = (service: ServiceProcess) =>
  service.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the built service, as operated', () => {
  let workDir: string;
  const services: ServiceProcess[] = [];
  const spawn = async (env: Record<string, string>) => {
    const service = await spawnService(env);
    services.push(service);
    return service;
  };
  const start = async (env: Record<string, string>) => {
    const service = await startService(env);
    services.push(service);
    return service;
  };

  beforeAll(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-operations-'));
  });

  afterAll(async () => {
    await Promise.all(services.map((service) => service.kill()));
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  describe('configuration', () => {
    it('reports every invalid variable at once, on one line of standard error, and exits 1', async () => {
      const service = await spawn({
        DATA_DIR: path.join(workDir, 'never'),
        PORT: 'abc',
        LOG_LEVEL: 'loud',
        DATABASE_POOL_MAX: '0',
        DATABASE_SSL: 'maybe',
      });
      expect(await service.exited).toBe(1);
      expect(service.stderr).toHaveLength(1);
      const [line] = service.stderr;
      expect(line).toMatch(/^Invalid configuration: PORT must be an integer number; /);
      for (const name of ['LOG_LEVEL', 'DATABASE_POOL_MAX', 'DATABASE_SSL']) expect(line).toContain(`; ${name} `);
      expect(fs.existsSync(path.join(workDir, 'never'))).toBe(false);
    });

    it('warns of a misspelt variable, then names the storage in its start line', async () => {
      const dataDir = path.join(workDir, 'typo');
      const service = await start({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        DATABSE_URL: 'postgres://app:s3cret@db.example:5432/app',
        REDIS_PASSWORD: 'hunter2',
      });
      await eventually(() => entriesOf(service).some((entry) => /listening on/.test(String(entry.msg))), 'start line');
      const entries = entriesOf(service);
      expect(entries.filter((entry) => entry.context === 'Config')).toEqual([
        expect.objectContaining({
          level: 'warn',
          msg: 'Unknown environment variable DATABSE_URL is ignored (did you mean DATABASE_URL?)',
        }),
        expect.objectContaining({ level: 'warn', msg: 'Unknown environment variable REDIS_PASSWORD is ignored' }),
      ]);
      const listening = entries.find((entry) => /listening on/.test(String(entry.msg)))!;
      expect(listening).toMatchObject({ level: 'info', storage: 'embedded', database: dataDir });
      expect(listening).not.toHaveProperty('redis');
      expect(listening.msg).toBe(
        `Promptgate listening on http://127.0.0.1:${service.port} (storage: embedded in ${dataDir}; no Redis)`,
      );
      expect(service.output.join('\n')).not.toMatch(/s3cret|hunter2/);
    });
  });

  describe('logging', () => {
    let service: ServiceProcess;
    const dataDir = () => path.join(workDir, 'logging');

    beforeAll(async () => {
      service = await start({ DATA_DIR: dataDir(), LOG_LEVEL: 'info', INITIAL_ADMIN_KEY: ADMIN_KEY });
      const answered = await fetch(`${service.base}/admin/v1/endpoints`, {
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      });
      expect(answered.status).toBe(200);
      await eventually(
        () => entriesOf(service).some((entry) => entry.path === '/admin/v1/endpoints'),
        'the access line of the admin call',
      );
    }, 120_000);

    it('writes JSON lines carrying the pid and version, and request lines their request id', () => {
      const entries = entriesOf(service);
      expect(entries.length).toBe(service.output.length);
      for (const entry of entries) {
        expect(entry).toMatchObject({ pid: service.child.pid, version: serviceVersion(), time: expect.any(String) });
      }
      const requests = entries.filter((entry) => entry.msg === 'request');
      expect(requests.length).toBeGreaterThan(0);
      for (const entry of requests) expect(entry).toMatchObject({ level: 'info', requestId: expect.any(String) });
      expect(requests.filter((entry) => entry.path === '/admin/v1/endpoints')).toEqual([
        expect.objectContaining({ method: 'GET', status: 200 }),
      ]);
      expect(service.output.join('\n')).not.toContain(ADMIN_KEY.slice(4));
    });

    it('says one line per migration applied on a new database, and maps routes only at debug', async () => {
      const entries = entriesOf(service);
      const applied = entries.filter((entry) => String(entry.msg).startsWith('Applied migration '));
      expect(applied.map((entry) => entry.migration)).toEqual(MIGRATIONS.map((migration) => migration.name));
      expect(entries.filter((entry) => /Mapped \{|dependencies initialized/.test(String(entry.msg)))).toEqual([]);
      // A handful of lines for a start, rather than one per route and module.
      expect(entries.length).toBeLessThan(30);

      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      // The same data directory again, at debug: nothing left to migrate, and Nest's mapping lines are there.
      const again = await start({ DATA_DIR: dataDir(), LOG_LEVEL: 'debug', SHUTDOWN_DRAIN_MS: '0' });
      // The service writes its log asynchronously: its start-up lines may reach the pipe after /health answers.
      const mapsReadiness = (entry: Record<string, unknown>) =>
        /^Mapped \{\/health\/ready, GET\} route/.test(String(entry.msg));
      await eventually(() => entriesOf(again).some(mapsReadiness), 'the route mapping line at debug');
      const restarted = entriesOf(again);
      expect(restarted.filter((entry) => String(entry.msg).startsWith('Applied migration '))).toEqual([]);
      expect(restarted.filter(mapsReadiness)).toEqual([
        expect.objectContaining({ level: 'debug', context: 'RouterExplorer' }),
      ]);
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    }, 120_000);

    it('writes out its pending log lines before a failed start exits; a second signal ends the drain of the first', async () => {
      const holder = await start({
        DATA_DIR: path.join(workDir, 'held'),
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_MS: '600000',
      });
      const second = await spawn({ DATA_DIR: path.join(workDir, 'held'), LOG_LEVEL: 'info', DATABSE_URL: 'x' });
      expect(await second.exited).toBe(1);
      expect(entriesOf(second)).toEqual([
        expect.objectContaining({ level: 'warn', msg: expect.stringContaining('DATABSE_URL') }),
      ]);
      expect(second.stderr).toEqual([
        `The data directory ${path.join(workDir, 'held')} is in use by process ${holder.child.pid}; only one process may open an embedded database`,
      ]);

      // A second signal ends the (here ten-minute) drain.
      holder.child.kill('SIGTERM');
      await eventually(() => holder.output.some((line) => line.includes('readiness fails')), 'the drain');
      holder.child.kill('SIGINT');
      expect(await holder.exited).toBe(0);
      expect(holder.output.filter((line) => line.includes('SIGTERM: shutting down'))).toHaveLength(1);
    }, 120_000);
  });

  describe('its port', () => {
    it('is its own though several sockets share it: a second service on the port exits 1 saying it is in use', async () => {
      const first = await start({ DATA_DIR: path.join(workDir, 'port-first'), LISTEN_SOCKETS: '8' });
      const second = await spawn({
        DATA_DIR: path.join(workDir, 'port-second'),
        LISTEN_SOCKETS: '8',
        PORT: String(first.port),
      });
      expect(await second.exited).toBe(1);
      expect(second.stderr.join('\n')).toMatch(/EADDRINUSE|address already in use/);
      // The first one still answers every connection, spread over its sockets.
      const statuses = await Promise.all(
        Array.from({ length: 32 }, () =>
          fetch(`${first.base}/health`, { headers: { connection: 'close' } }).then((response) => response.status),
        ),
      );
      expect(statuses).toEqual(Array(32).fill(200));
    }, 120_000);
  });

  describe('shutdown', () => {
    it('on SIGTERM fails readiness at once, keeps answering for SHUTDOWN_DRAIN_MS, then drains and exits 0', async () => {
      const drainMs = 1_500;
      const service = await start({
        DATA_DIR: path.join(workDir, 'drain'),
        LOG_LEVEL: 'info',
        INITIAL_ADMIN_KEY: ADMIN_KEY,
        SHUTDOWN_DRAIN_MS: String(drainMs),
      });
      const ready = await fetch(`${service.base}/health/ready`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok', checks: { database: 'ok' } }]);

      const signalled = Date.now();
      service.child.kill('SIGTERM');
      await eventually(async () => (await fetch(`${service.base}/health/ready`)).status === 503, 'readiness failing');
      const stopping = await fetch(`${service.base}/health/ready`);
      expect([stopping.status, await stopping.json()]).toEqual([503, { status: 'stopping' }]);
      // Still serving while load balancers notice.
      expect((await fetch(`${service.base}/health`)).status).toBe(200);
      const admin = await fetch(`${service.base}/admin/v1/endpoints`, { headers: { 'x-api-key': ADMIN_KEY } });
      expect(admin.status).toBe(200);

      expect(await service.exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(drainMs);
      const said = entriesOf(service).map((entry) => String(entry.msg));
      const failing = said.indexOf(`SIGTERM: readiness fails; closing in ${drainMs} ms`);
      expect(failing).toBeGreaterThanOrEqual(0);
      expect(said.indexOf('SIGTERM: shutting down')).toBeGreaterThan(failing);
      expect(fs.existsSync(path.join(workDir, 'drain', 'promptgate.pid'))).toBe(false);
    }, 120_000);

    it('on SIGTERM during start-up, stops cleanly with exit code 0', async () => {
      const dataDir = path.join(workDir, 'starting');
      // The misspelt variable's warning is the first thing the service writes: it is running, and starting.
      const service = await spawn({ DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABSE_URL: 'x' });
      await eventually(() => service.output.length > 0, 'the first line');
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      expect(service.child.signalCode).toBeNull();
      const said = entriesOf(service).map((entry) => String(entry.msg));
      expect(said).toContain('SIGTERM during start-up: stopping once the current step has finished');
      expect(said.filter((message) => /listening on/.test(message))).toEqual([]);
      expect(service.stderr).toEqual([]);
      expect(fs.existsSync(path.join(dataDir, 'promptgate.pid'))).toBe(false);
    }, 120_000);
  });
});
