import type { Clock } from '../../src/common/time/clock';
import type { AppConfig } from '../../src/config/app-config';
import type { Plan } from '../../src/modules/tenants/tenant.entity';
import { FakeLlmServer, fakeProviderEnv, localModelsFile } from './fake-llm-server';
import { seedTenant, type SeededTenant } from './seed';
import { createTestApp, type TestApp } from './test-app';

export interface SuiteOptions {
  config?: Partial<AppConfig>;
  /** Environment variables; a function of the fake LLM server when they name its address. */
  env?: NodeJS.ProcessEnv | ((fake: FakeLlmServer) => NodeJS.ProcessEnv);
  clock?: Clock;
  /**
   * Starts the fake LLM server with a MODELS_FILE whose `llama-test` it answers (`unconfigured`: also a provider
   * without a key), clearing it before each test; `providers` also points the OpenAI, Anthropic and Google adapters
   * at it; `priced` also lists the fake server's priced model (PRICED_MODEL).
   */
  fake?: { providers?: boolean; unconfigured?: boolean; priced?: boolean };
  /** Listens on a port of 127.0.0.1 (for clients that need a URL: `t.url`). */
  listen?: boolean;
  /** Seeds the second tenant, `other`. */
  other?: boolean;
  /** The plan of the tenants (free unless given). */
  plan?: Plan;
}

export interface AppSuite {
  /** The application, once `beforeAll` ran; `url` and `port` are set when it listens. */
  t: TestApp & { url: string; port: number };
  /** A tenant with one key of each kind, and (with `other`) a second one to show that tenants do not see each other. */
  tenant: SeededTenant;
  other: SeededTenant;
  fake: FakeLlmServer;
}

/**
 * Registers the hooks that start the real application (see createTestApp) with a seeded tenant before the tests
 * of the enclosing `describe`, and stop it after them. The objects returned are filled in by `beforeAll`, so a test
 * file can destructure them at once: `const { t, tenant } = useTestApp();`. `options` may be a function, read when
 * `beforeAll` runs.
 */
export function useTestApp(options: SuiteOptions | (() => SuiteOptions) = {}): AppSuite {
  const suite = { t: {}, tenant: {}, other: {}, fake: new FakeLlmServer() } as AppSuite;
  let removeModels = () => {};
  beforeAll(async () => {
    const {
      config,
      env: envOption = {},
      clock,
      fake,
      listen,
      other,
      plan,
    } = typeof options === 'function' ? options() : options;
    const fakeEnv: NodeJS.ProcessEnv = {};
    if (fake) {
      await suite.fake.listen();
      const models = localModelsFile(suite.fake, { unconfigured: fake.unconfigured, priced: fake.priced });
      removeModels = models.remove;
      Object.assign(fakeEnv, fake.providers ? fakeProviderEnv(suite.fake) : {}, { MODELS_FILE: models.file });
    }
    const env = typeof envOption === 'function' ? envOption(suite.fake) : envOption;
    Object.assign(suite.t, await createTestApp(config, { ...fakeEnv, ...env }, { clock }));
    if (listen) {
      await suite.t.app.listen(0, '127.0.0.1');
      suite.t.url = await suite.t.app.getUrl();
      suite.t.port = Number(new URL(suite.t.url).port);
    }
    Object.assign(suite.tenant, await seedTenant(suite.t.app, plan));
    if (other) Object.assign(suite.other, await seedTenant(suite.t.app, plan));
  });
  afterAll(async () => {
    await suite.t.close?.();
    if (suite.fake.url) await suite.fake.close();
    removeModels();
  });
  beforeEach(() => suite.fake.reset());
  return suite;
}

/**
 * Two instances of the application on the database (and Redis) of the run, as two processes of one deployment would
 * be, with a tenant seeded through the first; started before the tests of the enclosing `describe`, stopped after them.
 */
export function useTwoInstances(): { a: TestApp; b: TestApp; tenant: SeededTenant } {
  const suite = { a: {}, b: {}, tenant: {} } as { a: TestApp; b: TestApp; tenant: SeededTenant };
  beforeAll(async () => {
    const [a, b] = await Promise.all([createTestApp(), createTestApp()]);
    Object.assign(suite.a, a);
    Object.assign(suite.b, b);
    Object.assign(suite.tenant, await seedTenant(a.app));
  }, 60_000);
  afterAll(async () => {
    await Promise.all([suite.a.close?.(), suite.b.close?.()]);
  });
  return suite;
}

/** The lines the tests of the enclosing `describe` write to standard output (which still receives them). */
export function captureStdout(): string[] {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  beforeAll(() => {
    process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    };
  });
  afterAll(() => {
    process.stdout.write = write;
  });
  return lines;
}
