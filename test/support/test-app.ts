import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createApplication } from '../../src/app.setup';
import type { Clock } from '../../src/common/time/clock';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { openTemplateDatabase } from './database-template';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  http: TestAgent;
  close(): Promise<void>;
}

/**
 * The real application on a real database: an in-memory PGlite loaded from the migrated template, or the PostgreSQL
 * of DATABASE_URL (and Redis of REDIS_URL). Each test file seeds its own tenants, so nothing is truncated. A test that
 * checks an expiry passes a TestClock (test/support/test-clock.ts) and moves it forward rather than waiting.
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  env: NodeJS.ProcessEnv = {},
  { clock }: { clock?: Clock } = {},
): Promise<TestApp> {
  const config = loadConfig(
    {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      HTTP_ADAPTER: process.env.HTTP_ADAPTER,
      LOG_LEVEL: 'error',
      // Every test request comes from one address, and many suites send hundreds of requests without a valid key
      // on purpose: the failed-authentication limit is tested where it is set explicitly.
      AUTH_FAILURES_PER_MINUTE: '1000000',
      ...env,
    },
    { dataDir: 'memory://', ...overrides },
  );
  const embedded = config.databaseUrl ? null : openTemplateDatabase();
  const app = await createApplication({ config, embedded, clock });
  return {
    app,
    config,
    http: request(app.getHttpServer()),
    close: () => app.close(),
  };
}
