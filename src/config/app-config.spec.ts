import * as path from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      migrationsRun: true,
      redisUrl: undefined,
      baseDomain: 'localhost',
      providers: { openai: {}, anthropic: {}, google: {} },
      modelsFile: undefined,
      initialAdminKey: undefined,
      initialTenant: 'default',
      maxImageBytes: 5 * 1024 * 1024,
      maxBodyBytes: 10 * 1024 * 1024,
      logRetentionDays: 30,
      statsExactPercentileRows: 20_000,
      logLevel: 'info',
      adminRateLimitPerMinute: 600,
      authFailuresPerMinute: 100,
      trustedProxies: [],
      httpAdapter: 'fastify',
      maxAdminBodyBytes: 1024 * 1024,
      requestTimeoutMs: 30_000,
      renderTimeoutMs: 100,
      maxRenderedPromptBytes: 1024 * 1024,
      maxImagesPerCall: 4,
      logFieldMaxBytes: 65_536,
      metricsEnabled: true,
      metricsToken: undefined,
      tracing: undefined,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const key = 'epa_' + 'A1'.repeat(16);
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/pg-data',
      DATABASE_URL: 'postgres://u@db:5432/app',
      MIGRATIONS_RUN: 'false',
      REDIS_URL: 'redis://cache:6379',
      BASE_DOMAIN: 'API.Example.com',
      OPENAI_API_KEY: 'sk-1',
      OPENAI_BASE_URL: 'http://127.0.0.1:9000/v1',
      ANTHROPIC_API_KEY: 'sk-2',
      ANTHROPIC_BASE_URL: 'https://anthropic.example',
      GOOGLE_GENERATIVE_AI_API_KEY: 'g-3',
      GOOGLE_BASE_URL: 'https://google.example',
      INITIAL_ADMIN_KEY: key,
      INITIAL_TENANT: 'acme',
      MAX_IMAGE_BYTES: '1000',
      MAX_BODY_BYTES: '2000',
      LOG_RETENTION_DAYS: '7',
      LOG_LEVEL: 'debug',
      ADMIN_RATE_LIMIT_PER_MINUTE: '120',
      AUTH_FAILURES_PER_MINUTE: '30',
      TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1,2001:db8::/32',
      MAX_ADMIN_BODY_BYTES: '4096',
      REQUEST_TIMEOUT_MS: '5000',
      RENDER_TIMEOUT_MS: '50',
      MAX_RENDERED_PROMPT_BYTES: '10000',
      MAX_IMAGES_PER_CALL: '2',
      LOG_FIELD_MAX_BYTES: '2048',
      METRICS_ENABLED: 'false',
      METRICS_TOKEN: 'scrape-token-0123456789',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'gateway-eu',
      OTEL_CAPTURE_CONTENT: 'true',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/tmp/pg-data',
      databaseUrl: 'postgres://u@db:5432/app',
      migrationsRun: false,
      redisUrl: 'redis://cache:6379',
      baseDomain: 'api.example.com',
      providers: {
        openai: { apiKey: 'sk-1', baseUrl: 'http://127.0.0.1:9000/v1' },
        anthropic: { apiKey: 'sk-2', baseUrl: 'https://anthropic.example' },
        google: { apiKey: 'g-3', baseUrl: 'https://google.example' },
      },
      initialAdminKey: key,
      initialTenant: 'acme',
      maxImageBytes: 1000,
      maxBodyBytes: 2000,
      logRetentionDays: 7,
      logLevel: 'debug',
      adminRateLimitPerMinute: 120,
      authFailuresPerMinute: 30,
      trustedProxies: ['10.0.0.0/8', '192.0.2.1', '2001:db8::/32'],
      maxAdminBodyBytes: 4096,
      requestTimeoutMs: 5000,
      renderTimeoutMs: 50,
      maxRenderedPromptBytes: 10000,
      maxImagesPerCall: 2,
      logFieldMaxBytes: 2048,
      metricsEnabled: false,
      metricsToken: 'scrape-token-0123456789',
      tracing: { endpoint: 'http://collector:4318', serviceName: 'gateway-eu', captureContent: true },
    });
  });

  it('leaves tracing off without OTEL_EXPORTER_OTLP_ENDPOINT, and names the service promptgate by default', () => {
    expect(loadConfig({ OTEL_CAPTURE_CONTENT: 'true' }).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example' }).tracing).toEqual({
      endpoint: 'https://otel.example',
      serviceName: 'promptgate',
      captureContent: false,
    });
  });

  it('treats empty values as unset and keeps memory:// data dirs as they are', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' })).toMatchObject({ port: 3000, databaseUrl: undefined });
    expect(loadConfig({ DATA_DIR: 'memory://' }).dataDir).toBe('memory://');
    expect(loadConfig({ MIGRATIONS_RUN: '0' }).migrationsRun).toBe(false);
    expect(loadConfig({ MIGRATIONS_RUN: 'TRUE' }).migrationsRun).toBe(true);
  });

  it('lets tests override values after validation', () => {
    expect(loadConfig({ PORT: '1' }, { port: 2 }).port).toBe(2);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['DATABASE_URL', 'mysql://x'],
    ['MIGRATIONS_RUN', 'maybe'],
    ['REDIS_URL', 'http://cache'],
    ['BASE_DOMAIN', 'bad domain!'],
    ['OPENAI_BASE_URL', 'ftp://x'],
    ['ANTHROPIC_BASE_URL', 'nope'],
    ['GOOGLE_BASE_URL', 'nope'],
    ['INITIAL_ADMIN_KEY', 'ep_live_' + 'a'.repeat(40)],
    ['INITIAL_ADMIN_KEY', 'epa_short'],
    ['INITIAL_TENANT', 'Not A Slug'],
    ['MAX_IMAGE_BYTES', '0'],
    ['MAX_BODY_BYTES', '1.5'],
    ['LOG_RETENTION_DAYS', 'ten'],
    ['LOG_LEVEL', 'loud'],
    ['HTTP_ADAPTER', 'koa'],
    ['MAX_ADMIN_BODY_BYTES', '0'],
    ['REQUEST_TIMEOUT_MS', 'soon'],
    ['RENDER_TIMEOUT_MS', '-5'],
    ['MAX_RENDERED_PROMPT_BYTES', '0'],
    ['MAX_IMAGES_PER_CALL', '1000'],
    ['LOG_FIELD_MAX_BYTES', '10'],
    ['METRICS_ENABLED', 'sometimes'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has spaces in it, sixteen+'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'grpc://collector:4317'],
    ['OTEL_SERVICE_NAME', 'no spaces please'],
    ['OTEL_CAPTURE_CONTENT', 'yes'],
  ])('%s=%s fails with one line naming the variable', (name, value) => {
    let thrown: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const message = (thrown as Error).message;
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} `));
    expect(message).not.toContain('\n');
  });

  it('refuses a TRUSTED_PROXIES entry that is not an address or a CIDR block, and an AUTH_FAILURES_PER_MINUTE of 0', () => {
    for (const value of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129', '10.0.0.0/x']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(
        `Invalid configuration: TRUSTED_PROXIES must be comma-separated IP addresses or CIDR blocks (${value})`,
      );
    }
    expect(() => loadConfig({ AUTH_FAILURES_PER_MINUTE: '0' })).toThrow(/AUTH_FAILURES_PER_MINUTE/);
  });

  it('names the type problem of a value of the wrong type', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow('Invalid configuration: PORT must be an integer number');
    expect(() => loadConfig({ PORT: '70000' })).toThrow('Invalid configuration: PORT must not be greater than 65535');
  });
});
