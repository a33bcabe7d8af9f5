import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, ValidationError, validateSync } from 'class-validator';
import { isIP } from 'node:net';
import * as path from 'node:path';
import { type DatabaseTlsMode, resolveDatabaseTls } from './database-tls';
import { EnvSchema } from './env.schema';
import { ModelsFileContent, readModelsFile } from './models-file';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface ProviderConfig {
  apiKey?: string;
  baseUrl?: string;
}

export interface AppConfig {
  port: number;
  host: string;
  /** Absolute path of the embedded database directory, or `memory://` (tests). */
  dataDir: string;
  databaseUrl?: string;
  /** Connections each instance opens to PostgreSQL at most. */
  databasePoolMax: number;
  /** TLS to PostgreSQL, from DATABASE_SSL or the URL's sslmode; unset leaves the driver's default. */
  databaseTls?: DatabaseTlsMode;
  migrationsRun: boolean;
  redisUrl?: string;
  baseDomain: string;
  providers: { openai: ProviderConfig; anthropic: ProviderConfig; google: ProviderConfig };
  modelsFile?: string;
  /** MODELS_FILE, parsed and validated at start (API keys resolved from apiKeyEnv). */
  modelsFileContent?: ModelsFileContent;
  initialAdminKey?: string;
  initialTenant: string;
  maxImageBytes: number;
  maxBodyBytes: number;
  logRetentionDays: number;
  /**
   * GET /stats computes latency percentiles exactly from the logs when the period holds at most this many executions,
   * and estimates them from the hourly latency histograms above it.
   */
  statsExactPercentileRows: number;
  logLevel: LogLevel;
  adminRateLimitPerMinute: number;
  /**
   * Failed authentications (401s) one client address may have per minute on an instance; beyond it its requests get
   * 429 until the minute ends, unless they present a key the instance knows to be valid.
   */
  authFailuresPerMinute: number;
  /** Addresses and CIDR blocks of the proxies whose X-Forwarded-For names the client address. */
  trustedProxies: string[];
  httpAdapter: 'fastify' | 'express';
  /** Largest admin and MCP request body; larger bodies get 413. */
  maxAdminBodyBytes: number;
  /** Time a request's headers and body may take to arrive before it is answered 408 and closed. */
  requestTimeoutMs: number;
  /** Wall-clock budget of one template render. */
  renderTimeoutMs: number;
  /** Largest rendered prompt, in bytes of UTF-8. */
  maxRenderedPromptBytes: number;
  /** Renders that may wait for a render thread (all tenants); past it the tenant holding most of the queue gets 503. */
  renderQueueMax: number;
  /** Provider calls one tenant may have in flight on this instance; past it 429. */
  maxProviderCallsPerTenant: number;
  /** Provider calls one key may have in flight on this instance; past it 429. */
  maxProviderCallsPerKey: number;
  /** Largest answer body read from a provider (or produced by the mock), in bytes: a larger one is a 502. */
  maxAnswerBytes: number;
  /** The response cache's bounds, in bytes of stored JSON (see ResponseCacheModule). */
  cache: CacheBounds;
  /** Largest `n` an image prompt may ask for in one call. */
  maxImagesPerCall: number;
  /** An event stream whose client reads nothing for this long, while more waits to be sent, is closed. */
  streamWriteTimeoutMs: number;
  /** Event streams one key may have open at once on this instance; one more is answered 429. */
  maxStreamsPerKey: number;
  /** Each logged field (inputs, rendered prompt, raw response, parsed output) is cut to this many bytes of JSON. */
  logFieldMaxBytes: number;
  /** Whether GET /metrics is served and the service counts what it does. */
  metricsEnabled: boolean;
  /** Bearer token GET /metrics requires; open when absent. */
  metricsToken?: string;
  /** Time between readiness failing on SIGTERM and the server closing, for load balancers to take the instance out. */
  shutdownDrainMs: number;
  /** Tracing: set when spans are exported over OTLP/HTTP. */
  tracing?: TracingConfig;
  /** The egress proxy of the provider calls: set when HTTPS_PROXY or HTTP_PROXY is. */
  egressProxy?: EgressProxyConfig;
}

export interface EgressProxyConfig {
  /** Proxy of the calls to https:// URLs (tunnelled with CONNECT). */
  httpsProxy?: string;
  /** Proxy of the calls to http:// URLs. */
  httpProxy?: string;
  /** Hosts reached directly, as NO_PROXY lists them. */
  noProxy?: string;
}

export interface CacheBounds {
  /** What the in-process cache holds at most, over every tenant. */
  maxBytes: number;
  /** What one tenant's answers may hold of the in-process cache. */
  maxTenantBytes: number;
  /** The largest answer stored, in memory or Redis; a larger one is served but not stored. */
  maxEntryBytes: number;
}

export interface TracingConfig {
  /** The collector's base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
  /** Prompt and answer text on the model-call spans. */
  captureContent: boolean;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Every invalid variable, one per line of `problems`; the message puts them on one line. */
export class ConfigError extends Error {
  constructor(
    readonly problems: string[],
    message = `Invalid configuration: ${problems.join('; ')}`,
  ) {
    super(message);
  }
}

/** Validates the environment once; throws a `ConfigError` naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const raw = Object.fromEntries(ENV_KEYS.map((key) => [key, emptyToUndefined(env[key])]));
  // The proxy variables are also read in lower case, as curl and most HTTP clients read them; upper case wins.
  for (const key of PROXY_KEYS) raw[key] ??= emptyToUndefined(env[key.toLowerCase()]);
  const parsed = plainToInstance(EnvSchema, raw);
  const problems = validateSync(parsed, { forbidUnknownValues: false }).map(problemOf);
  const tls = resolveDatabaseTls(raw.DATABASE_SSL, parsed.DATABASE_URL);
  problems.push(...tls.problems.filter((problem) => !problem.startsWith('DATABASE_SSL must')));
  problems.push(...trustedProxyProblems(raw.TRUSTED_PROXIES));
  if (problems.length > 0) throw new ConfigError(problems);
  const dataDir = parsed.DATA_DIR ?? './data';
  const config: AppConfig = {
    port: parsed.PORT ?? 3000,
    host: parsed.HOST ?? '0.0.0.0',
    dataDir: dataDir.startsWith('memory://') ? dataDir : path.resolve(dataDir),
    databaseUrl: parsed.DATABASE_URL,
    databasePoolMax: parsed.DATABASE_POOL_MAX ?? 10,
    databaseTls: tls.mode,
    migrationsRun: parsed.MIGRATIONS_RUN ?? true,
    redisUrl: parsed.REDIS_URL,
    baseDomain: (parsed.BASE_DOMAIN ?? 'localhost').toLowerCase(),
    providers: {
      openai: { apiKey: parsed.OPENAI_API_KEY, baseUrl: parsed.OPENAI_BASE_URL },
      anthropic: { apiKey: parsed.ANTHROPIC_API_KEY, baseUrl: parsed.ANTHROPIC_BASE_URL },
      google: { apiKey: parsed.GOOGLE_GENERATIVE_AI_API_KEY, baseUrl: parsed.GOOGLE_BASE_URL },
    },
    modelsFile: parsed.MODELS_FILE,
    modelsFileContent: parsed.MODELS_FILE ? modelsFileOf(parsed.MODELS_FILE, env) : undefined,
    initialAdminKey: parsed.INITIAL_ADMIN_KEY,
    initialTenant: parsed.INITIAL_TENANT ?? 'default',
    maxImageBytes: parsed.MAX_IMAGE_BYTES ?? 5 * 1024 * 1024,
    maxBodyBytes: parsed.MAX_BODY_BYTES ?? 10 * 1024 * 1024,
    logRetentionDays: parsed.LOG_RETENTION_DAYS ?? 30,
    statsExactPercentileRows: parsed.STATS_EXACT_PERCENTILE_ROWS ?? 20_000,
    logLevel: (parsed.LOG_LEVEL as LogLevel | undefined) ?? 'info',
    adminRateLimitPerMinute: parsed.ADMIN_RATE_LIMIT_PER_MINUTE ?? 600,
    authFailuresPerMinute: parsed.AUTH_FAILURES_PER_MINUTE ?? 100,
    trustedProxies: trustedProxiesOf(parsed.TRUSTED_PROXIES),
    httpAdapter: (parsed.HTTP_ADAPTER as 'fastify' | 'express' | undefined) ?? 'fastify',
    maxAdminBodyBytes: parsed.MAX_ADMIN_BODY_BYTES ?? 1024 * 1024,
    requestTimeoutMs: parsed.REQUEST_TIMEOUT_MS ?? 30_000,
    renderTimeoutMs: parsed.RENDER_TIMEOUT_MS ?? 100,
    maxRenderedPromptBytes: parsed.MAX_RENDERED_PROMPT_BYTES ?? 1024 * 1024,
    renderQueueMax: parsed.RENDER_QUEUE_MAX ?? 256,
    maxProviderCallsPerTenant: parsed.MAX_PROVIDER_CALLS_PER_TENANT ?? 256,
    maxProviderCallsPerKey: parsed.MAX_PROVIDER_CALLS_PER_KEY ?? 64,
    maxAnswerBytes: parsed.MAX_ANSWER_BYTES ?? 4 * 1024 * 1024,
    cache: cacheBoundsOf(parsed),
    maxImagesPerCall: parsed.MAX_IMAGES_PER_CALL ?? 4,
    streamWriteTimeoutMs: parsed.STREAM_WRITE_TIMEOUT_MS ?? 30_000,
    maxStreamsPerKey: parsed.MAX_STREAMS_PER_KEY ?? 100,
    logFieldMaxBytes: parsed.LOG_FIELD_MAX_BYTES ?? 65_536,
    metricsEnabled: parsed.METRICS_ENABLED ?? true,
    metricsToken: parsed.METRICS_TOKEN,
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS ?? 5_000,
    tracing: parsed.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          endpoint: parsed.OTEL_EXPORTER_OTLP_ENDPOINT,
          serviceName: parsed.OTEL_SERVICE_NAME ?? 'promptgate',
          captureContent: parsed.OTEL_CAPTURE_CONTENT ?? false,
        }
      : undefined,
    egressProxy:
      parsed.HTTPS_PROXY || parsed.HTTP_PROXY
        ? { httpsProxy: parsed.HTTPS_PROXY, httpProxy: parsed.HTTP_PROXY, noProxy: parsed.NO_PROXY }
        : undefined,
  };
  return Object.freeze({ ...config, ...overrides });
}

/** One variable's problem, naming it; a value of the wrong type says so, rather than which bound it misses. */
function problemOf(error: ValidationError): string {
  const constraints = error.constraints ?? {};
  const reason = constraints.isInt ?? constraints.isBoolean ?? Object.values(constraints)[0] ?? 'is invalid';
  return reason.startsWith(error.property) ? reason : `${error.property} ${reason}`;
}

/** The cache's bounds; a tenant's share and an entry never exceed the whole. */
function cacheBoundsOf(parsed: EnvSchema): CacheBounds {
  const maxBytes = parsed.CACHE_MAX_BYTES ?? 256 * 1024 * 1024;
  const maxTenantBytes = Math.min(maxBytes, parsed.CACHE_MAX_TENANT_BYTES ?? Math.floor(maxBytes / 4));
  const maxEntryBytes = Math.min(maxTenantBytes, parsed.CACHE_MAX_ENTRY_BYTES ?? 1024 * 1024);
  return { maxBytes, maxTenantBytes, maxEntryBytes };
}

function modelsFileOf(file: string, env: NodeJS.ProcessEnv): ModelsFileContent {
  try {
    return readModelsFile(file, env);
  } catch (error) {
    throw new ConfigError([(error as Error).message], (error as Error).message);
  }
}

/** TRUSTED_PROXIES as a list of addresses and CIDR blocks. */
function trustedProxiesOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The problem of each TRUSTED_PROXIES entry that is not an IP address or a CIDR block. */
function trustedProxyProblems(value: string | undefined): string[] {
  return trustedProxiesOf(value)
    .filter((entry) => {
      const [address, prefix, ...rest] = entry.split('/');
      const family = isIP(address);
      const maxPrefix = family === 6 ? 128 : 32;
      const isValidPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
      return family === 0 || !isValidPrefix || rest.length > 0;
    })
    .map((entry) => `TRUSTED_PROXIES must be comma-separated IP addresses or CIDR blocks (${entry})`);
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Every variable `EnvSchema` declares (each has at least `@IsOptional`), so declaring one there is enough. */
export const ENV_KEYS: readonly (keyof EnvSchema)[] = [
  ...new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(EnvSchema, '', true, false)
      .map((metadata) => metadata.propertyName as keyof EnvSchema),
  ),
];

const PROXY_KEYS = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'] as const;
