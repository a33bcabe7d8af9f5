import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddedDatabase } from '../../src/database/embedded-database';
import { FakeLlmServer } from '../support/fake-llm-server';
import { OwnPostgres, startOwnPostgres } from '../support/own-servers';
import { executeUnderLoad, seedExecution, ServiceProcess, startService } from './service-process';

const ADMIN_KEY = 'epa_' + 'ShutdownUnderLoad'.repeat(3);
const CONNECTIONS = 40;
const PROVIDER_LATENCY_MS = 20;
/** How long the load runs before SIGTERM. */
const LOAD_BEFORE_SIGNAL_MS = 1_500;

/**
 * SIGTERM while many connections execute: every execution the service answered before it exited has its log row.
 * The built service runs as its own process, on a PostgreSQL server of the test's own and on an embedded DATA_DIR, with
 * a provider that takes ~20 ms per call; the rows are read from the database after the process has exited.
 */
describe('SIGTERM under load', () => {
  let fake: FakeLlmServer;
  let workDir: string;
  let modelsFile: string;
  let service: ServiceProcess | undefined;
  let postgres: OwnPostgres | undefined;

  beforeAll(async () => {
    fake = await FakeLlmServer.start();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-fault-shutdown-'));
    modelsFile = path.join(workDir, 'models.json');
    fs.writeFileSync(
      modelsFile,
      JSON.stringify({
        providers: [{ name: 'local', baseUrl: `${fake.url}/local/v1`, models: [{ id: 'llama-test' }] }],
      }),
    );
  });

  afterEach(async () => {
    await service?.kill();
    service = undefined;
  });

  afterAll(async () => {
    await fake.close();
    await postgres?.dispose();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  /** Load, SIGTERM in the middle of it, and the answers received; the service must exit 0. */
  async function loadAndStop(env: Record<string, string>): Promise<{ answered: string[]; endpointId: string }> {
    fake.reset();
    fake.reply(...Array.from({ length: 50_000 }, () => ({ text: 'hello back', delayMs: PROVIDER_LATENCY_MS })));
    service = await startService({
      INITIAL_ADMIN_KEY: ADMIN_KEY,
      INITIAL_TENANT: 'shutdown',
      MODELS_FILE: modelsFile,
      ...env,
    });
    const seeded = await seedExecution(service.base, ADMIN_KEY, 'llama-test').catch((error) => {
      throw new Error(`${error.message}\n${service!.output.join('\n')}`);
    });
    const running = executeUnderLoad(
      { base: service.base, path: seeded.path, key: seeded.key, connections: CONNECTIONS, maxMs: 20_000 },
      () => false,
    );
    await new Promise((resolve) => setTimeout(resolve, LOAD_BEFORE_SIGNAL_MS));
    service.child.kill('SIGTERM');
    const result = await running;
    const code = await service.exited;
    expect(code).toBe(0);
    // Every request either got its answer or was refused at the door: nothing answered with an error.
    expect({
      otherStatuses: result.otherStatuses,
      errors: service.output.filter((line) => /"level":"error"/.test(line)).slice(0, 3),
    }).toEqual({
      otherStatuses: {},
      errors: [],
    });
    // The load really overlapped the shutdown: answers arrived, and connections were refused once it stopped accepting.
    expect(result.answered.length).toBeGreaterThan(CONNECTIONS);
    expect(result.failed).toBeGreaterThan(0);
    return { answered: result.answered, endpointId: seeded.endpointId };
  }

  function expectEveryAnswerLogged(answered: string[], logged: string[]): void {
    const rows = new Set(logged);
    const missing = answered.filter((requestId) => !rows.has(requestId));
    expect({ answered: answered.length, missing }).toEqual({ answered: answered.length, missing: [] });
    expect(logged.length).toBeGreaterThanOrEqual(answered.length);
  }

  it('on PostgreSQL: every answered execution has its log row', async () => {
    postgres = await startOwnPostgres();
    await postgres.createDatabase('promptgate_fault_shutdown');
    const { answered, endpointId } = await loadAndStop({ DATABASE_URL: postgres.url('promptgate_fault_shutdown') });
    const rows = await postgres.query<{ request_id: string }>(
      'promptgate_fault_shutdown',
      'SELECT request_id FROM execution_logs WHERE endpoint_id = $1',
      [endpointId],
    );
    expectEveryAnswerLogged(
      answered,
      rows.map((row) => row.request_id),
    );
  });

  it('on the embedded database: every answered execution has its log row', async () => {
    const dataDir = path.join(workDir, 'data');
    const { answered, endpointId } = await loadAndStop({ DATA_DIR: dataDir });
    const embedded = EmbeddedDatabase.open(dataDir);
    try {
      const result = await embedded.query<{ request_id: string }>(
        'SELECT request_id FROM execution_logs WHERE endpoint_id = $1',
        [endpointId],
      );
      expectEveryAnswerLogged(
        answered,
        result.rows.map((row) => row.request_id),
      );
    } finally {
      await embedded.close();
    }
  });
});
