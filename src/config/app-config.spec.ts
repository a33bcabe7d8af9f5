import * as path from 'node:path';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    // A subset: a variable added later is checked by variables.spec.ts (its declared default is the effective one).
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      databasePoolMax: 10,
      databaseTls: undefined,
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
      renderQueueMax: 256,
      maxProviderCallsPerTenant: 256,
      maxProviderCallsPerKey: 64,
      maxAnswerBytes: 4 * 1024 * 1024,
      cache: { maxBytes: 256 * 1024 * 1024, maxTenantBytes: 64 * 1024 * 1024, maxEntryBytes: 1024 * 1024 },
      maxImagesPerCall: 4,
      streamWriteTimeoutMs: 30_000,
      maxStreamsPerKey: 100,
      logFieldMaxBytes: 65_536,
      metricsEnabled: true,
      metricsToken: undefined,
      shutdownDrainMs: 5_000,
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
      DATABASE_POOL_MAX: '25',
      DATABASE_SSL: 'require',
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
      STATS_EXACT_PERCENTILE_ROWS: '500',
      SHUTDOWN_DRAIN_MS: '250',
      LOG_LEVEL: 'debug',
      ADMIN_RATE_LIMIT_PER_MINUTE: '120',
      AUTH_FAILURES_PER_MINUTE: '30',
      TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1,2001:db8::/32',
      MAX_ADMIN_BODY_BYTES: '4096',
      REQUEST_TIMEOUT_MS: '5000',
      RENDER_TIMEOUT_MS: '50',
      MAX_RENDERED_PROMPT_BYTES: '10000',
      RENDER_QUEUE_MAX: '32',
      MAX_PROVIDER_CALLS_PER_TENANT: '100',
      MAX_PROVIDER_CALLS_PER_KEY: '10',
      MAX_IMAGES_PER_CALL: '2',
      MAX_ANSWER_BYTES: '65536',
      CACHE_MAX_BYTES: '8388608',
      CACHE_MAX_TENANT_BYTES: '2097152',
      CACHE_MAX_ENTRY_BYTES: '131072',
      STREAM_WRITE_TIMEOUT_MS: '2500',
      MAX_STREAMS_PER_KEY: '8',
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
      databasePoolMax: 25,
      databaseTls: 'require',
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
      statsExactPercentileRows: 500,
      shutdownDrainMs: 250,
      logLevel: 'debug',
      adminRateLimitPerMinute: 120,
      authFailuresPerMinute: 30,
      trustedProxies: ['10.0.0.0/8', '192.0.2.1', '2001:db8::/32'],
      maxAdminBodyBytes: 4096,
      requestTimeoutMs: 5000,
      renderTimeoutMs: 50,
      maxRenderedPromptBytes: 10000,
      renderQueueMax: 32,
      maxProviderCallsPerTenant: 100,
      maxProviderCallsPerKey: 10,
      maxImagesPerCall: 2,
      maxAnswerBytes: 65536,
      cache: { maxBytes: 8388608, maxTenantBytes: 2097152, maxEntryBytes: 131072 },
      streamWriteTimeoutMs: 2500,
      maxStreamsPerKey: 8,
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

  it("keeps a tenant's cache share and a cache entry within the whole cache", () => {
    expect(loadConfig({ CACHE_MAX_BYTES: '4096', CACHE_MAX_TENANT_BYTES: '8192' }).cache).toEqual({
      maxBytes: 4096,
      maxTenantBytes: 4096,
      maxEntryBytes: 4096,
    });
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
    ['MAX_ANSWER_BYTES', '100'],
    ['CACHE_MAX_BYTES', 'lots'],
    ['CACHE_MAX_ENTRY_BYTES', '-5'],
    ['MAX_BODY_BYTES', '1.5'],
    ['LOG_RETENTION_DAYS', 'ten'],
    ['LOG_LEVEL', 'loud'],
    ['HTTP_ADAPTER', 'koa'],
    ['MAX_ADMIN_BODY_BYTES', '0'],
    ['REQUEST_TIMEOUT_MS', 'soon'],
    ['RENDER_TIMEOUT_MS', '-5'],
    ['MAX_RENDERED_PROMPT_BYTES', '0'],
    ['RENDER_QUEUE_MAX', '0'],
    ['MAX_PROVIDER_CALLS_PER_TENANT', '513'],
    ['MAX_PROVIDER_CALLS_PER_KEY', 'many'],
    ['MAX_IMAGES_PER_CALL', '1000'],
    ['STREAM_WRITE_TIMEOUT_MS', '0'],
    ['MAX_STREAMS_PER_KEY', 'many'],
    ['LOG_FIELD_MAX_BYTES', '10'],
    ['METRICS_ENABLED', 'sometimes'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has spaces in it, sixteen+'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'grpc://collector:4317'],
    ['OTEL_SERVICE_NAME', 'no spaces please'],
    ['OTEL_CAPTURE_CONTENT', 'yes'],
    ['DATABASE_POOL_MAX', '0'],
    ['DATABASE_POOL_MAX', '5000'],
    ['DATABASE_SSL', 'maybe'],
    ['SHUTDOWN_DRAIN_MS', '-1'],
    ['STATS_EXACT_PERCENTILE_ROWS', 'many'],
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

  it('sets the egress proxy of provider calls only when HTTPS_PROXY or HTTP_PROXY is set, reading lower case too', () => {
    expect(loadConfig({ NO_PROXY: 'localhost' }).egressProxy).toBeUndefined();
    expect(
      loadConfig({ HTTPS_PROXY: 'http://proxy.internal:3128', NO_PROXY: 'localhost,.svc.internal' }).egressProxy,
    ).toEqual({ httpsProxy: 'http://proxy.internal:3128', httpProxy: undefined, noProxy: 'localhost,.svc.internal' });
    expect(loadConfig({ http_proxy: 'http://lower:3128', no_proxy: '*' }).egressProxy).toEqual({
      httpsProxy: undefined,
      httpProxy: 'http://lower:3128',
      noProxy: '*',
    });
    expect(
      loadConfig({ HTTP_PROXY: 'http://upper:3128', http_proxy: 'http://lower:3128' }).egressProxy?.httpProxy,
    ).toBe('http://upper:3128');
    expect(() => loadConfig({ HTTPS_PROXY: 'proxy.internal:3128' })).toThrow(
      'Invalid configuration: HTTPS_PROXY must be an http(s) URL',
    );
    expect(() => loadConfig({ NO_PROXY: 'a b;c' })).toThrow(/^Invalid configuration: NO_PROXY must be/);
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

  it('reports every invalid variable at once, in one line', () => {
    let thrown: unknown;
    try {
      loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_POOL_MAX: '0', REDIS_URL: 'http://cache' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems.map((problem) => problem.split(' ')[0]).sort()).toEqual([
      'DATABASE_POOL_MAX',
      'LOG_LEVEL',
      'PORT',
      'REDIS_URL',
    ]);
    expect((thrown as Error).message).toMatch(/^Invalid configuration: PORT must be an integer number; /);
    expect((thrown as Error).message).not.toContain('\n');
  });

  it('takes the TLS mode from DATABASE_SSL or the sslmode of DATABASE_URL, and refuses the two disagreeing', () => {
    const url = 'postgres://u@db:5432/app';
    expect(loadConfig({ DATABASE_URL: `${url}?sslmode=verify-full` }).databaseTls).toBe('verify-full');
    expect(loadConfig({ DATABASE_URL: url, DATABASE_SSL: 'TRUE' }).databaseTls).toBe('verify-full');
    expect(loadConfig({ DATABASE_URL: `${url}?sslmode=require`, DATABASE_SSL: 'require' }).databaseTls).toBe('require');
    expect(() => loadConfig({ DATABASE_URL: `${url}?sslmode=disable`, DATABASE_SSL: 'verify-full' })).toThrow(
      'Invalid configuration: DATABASE_SSL (verify-full) and the sslmode of DATABASE_URL (disable) disagree',
    );
    expect(() => loadConfig({ DATABASE_URL: `${url}?sslmode=prefer` })).toThrow(
      'Invalid configuration: DATABASE_URL sslmode=prefer is not supported',
    );
  });
});
