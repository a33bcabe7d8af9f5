import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { createApplication } from '../../src/app.setup';
import { loadConfig } from '../../src/config/app-config';
import { EmbeddedDatabase } from '../../src/database/embedded-database';
import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { openTemplateDatabase } from '../support/database-template';
import { createEndpoint, logEntry } from '../support/log-fixtures';
import { auth, seedTenant } from '../support/seed';

// The embedded database only: PGlite in its worker thread.
const describeEmbedded = process.env.DATABASE_URL ? describe.skip : describe;

const UNAVAILABLE = { succeeded: false, messages: ['The database is unavailable; retry shortly'], data: null };

describeEmbedded('the embedded database thread', () => {
  const config = loadConfig({ LOG_LEVEL: 'error', HTTP_ADAPTER: process.env.HTTP_ADAPTER }, { dataDir: 'memory://' });

  it('runs with the settings sized for one small instance', async () => {
    const embedded = openTemplateDatabase();
    try {
      const { rows } = await embedded.query<{ name: string; setting: string; unit: string | null }>(
        `SELECT name, setting, unit FROM pg_settings
          WHERE name IN ('shared_buffers', 'wal_buffers', 'temp_buffers', 'maintenance_work_mem', 'max_connections')
          ORDER BY name`,
      );
      // Buffers are counted in 8 kB pages, the others in kB.
      expect(rows).toEqual([
        { name: 'maintenance_work_mem', setting: '16384', unit: 'kB' },
        { name: 'max_connections', setting: '10', unit: null },
        { name: 'shared_buffers', setting: '2048', unit: '8kB' },
        { name: 'temp_buffers', setting: '128', unit: '8kB' },
        { name: 'wal_buffers', setting: '128', unit: '8kB' },
      ]);
    } finally {
      await embedded.close();
    }
  });

  it('once the thread has ended, requests that need the database answer 503 and the service still closes', async () => {
    const embedded = openTemplateDatabase();
    const app = await createApplication({ config, embedded });
    try {
      const http = request(app.getHttpServer());
      const tenant = await seedTenant(app);
      await expect(http.get('/admin/v1/endpoints').set(auth(tenant.admin))).resolves.toMatchObject({ status: 200 });
      // Logs queued when the thread ends wait for a database that is not coming back; shutdown gives up on them.
      await embedded.crash();

      const endpoints = await http.get('/admin/v1/endpoints').set(auth(tenant.admin));
      expect(endpoints.status).toBe(503);
      expect(endpoints.headers['retry-after']).toBe('5');
      expect(endpoints.body).toEqual(UNAVAILABLE);
      // A key this instance has not seen must be looked up: that needs the database too.
      const coldKey = await http.get('/admin/v1/endpoints').set(auth(tenant.readOnly));
      expect(coldKey.status).toBe(503);
      expect(coldKey.body).toEqual(UNAVAILABLE);
      await expect(http.get('/health/ready')).resolves.toMatchObject({ status: 503 });
      await expect(http.get('/health')).resolves.toMatchObject({ status: 200 });
    } finally {
      await app.close();
    }
  });

  it('at shutdown, the queued logs are written through the thread before it ends', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-thread-'));
    try {
      const onDisk = { ...config, dataDir: path.join(dataDir, 'data') };
      const embedded = EmbeddedDatabase.open(onDisk.dataDir);
      const app = await createApplication({ config: onDisk, embedded });
      const t = { app, config: onDisk, http: request(app.getHttpServer()), close: () => app.close() };
      const tenant = await seedTenant(app);
      const endpoint = await createEndpoint(t, tenant, 'queued');
      const logs = app.get(ExecutionLogsService);
      for (let i = 0; i < 50; i++) logs.record(logEntry(tenant.id, endpoint, { requestId: `queued-${i}` }));
      await app.close();

      const reopened = EmbeddedDatabase.open(path.join(dataDir, 'data'));
      try {
        const { rows } = await reopened.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM execution_logs WHERE tenant_id = $1',
          [tenant.id],
        );
        expect(rows).toEqual([{ count: 50 }]);
      } finally {
        await reopened.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a data directory that cannot be initialised says so', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-thread-'));
    try {
      // pgdata is a file, not a directory: initdb cannot make a database there.
      fs.writeFileSync(path.join(dataDir, 'pgdata'), 'not a directory');
      const embedded = EmbeddedDatabase.open(dataDir);
      await expect(embedded.waitReady).rejects.toThrow(/^Could not initialise the embedded database in /);
      await embedded.close();
      expect(fs.existsSync(path.join(dataDir, 'promptgate.pid'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
