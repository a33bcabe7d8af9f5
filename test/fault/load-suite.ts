import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeLlmServer } from '../support/fake-llm-server';
import type { ServiceProcess } from './service-process';

/** The streamed answer of the load tests: an 80 KB object of one string field, sent as 20,000 deltas. */
export const STREAMED_OBJECT = JSON.stringify({ answer: 'y'.repeat(80_000) });
export const STREAM_DELTAS = 20_000;

/** What a load test holds: the fake provider, a data directory, the service it starts and what to stop at the end. */
export interface LoadSuite {
  fake: FakeLlmServer;
  workDir: string;
  service: ServiceProcess | undefined;
  /** What the test started besides the service (timers, agents, load loops), stopped however it ends. */
  cleanups: (() => void)[];
}

/**
 * Registers the hooks of a load test file: the fake provider and a fresh data directory before, and after, the
 * cleanups, the service (if started), the provider and the directory. The test sets `service` once it starts one.
 */
export function useLoadSuite(name: string): LoadSuite {
  const suite = { service: undefined, cleanups: [] } as unknown as LoadSuite;
  beforeAll(async () => {
    suite.fake = await FakeLlmServer.start();
    suite.workDir = fs.mkdtempSync(path.join(os.tmpdir(), `promptgate-fault-${name}-`));
  });
  afterAll(async () => {
    for (const cleanup of suite.cleanups.splice(0)) cleanup();
    await suite.service?.kill();
    await suite.fake?.close();
    if (suite.workDir) fs.rmSync(suite.workDir, { recursive: true, force: true });
  });
  return suite;
}
