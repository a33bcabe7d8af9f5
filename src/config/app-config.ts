import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { isIP } from 'node:net';
import * as path from 'node:path';
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
  /** Largest `n` an image prompt may ask for in one call. */
  maxImagesPerCall: number;
  /** Each logged field (inputs, rendered prompt, raw response, parsed output) is cut to this many bytes of JSON. */
  logFieldMaxBytes: number;
  /** Whether GET /metrics is served and the service counts what it does. */
  metricsEnabled: boolean;
  /** Bearer token GET /metrics requires; open when absent. */
  metricsToken?: string;
  /** Tracing: set when spans are exported over OTLP/HTTP. */
  tracing?: TracingConfig;
}

export interface TracingConfig {
  /** The collector's base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
  /** Prompt and answer text on the model-call spans. */
  captureContent: boolean;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {}

/** Validates the environment once; throws a one-line `ConfigError` naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const raw = Object.fromEntries(ENV_KEYS.map((key) => [key, emptyToUndefined(env[key])]));
  const parsed = plainToInstance(EnvSchema, raw);
  const errors = validateSync(parsed, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const first = errors[0];
    const constraints = first.constraints ?? {};
    // A value of the wrong type says so, rather than which bound it misses (`PORT=abc` is not "greater than 65535").
    const reason = constraints.isInt ?? constraints.isBoolean ?? Object.values(constraints)[0] ?? 'is invalid';
    throw new ConfigError(
      `Invalid configuration: ${reason.startsWith(first.property) ? reason : `${first.property} ${reason}`}`,
    );
  }
  const dataDir = parsed.DATA_DIR ?? './data';
  const config: AppConfig = {
    port: parsed.PORT ?? 3000,
    host: parsed.HOST ?? '0.0.0.0',
    dataDir: dataDir.startsWith('memory://') ? dataDir : path.resolve(dataDir),
    databaseUrl: parsed.DATABASE_URL,
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
    maxImagesPerCall: parsed.MAX_IMAGES_PER_CALL ?? 4,
    logFieldMaxBytes: parsed.LOG_FIELD_MAX_BYTES ?? 65_536,
    metricsEnabled: parsed.METRICS_ENABLED ?? true,
    metricsToken: parsed.METRICS_TOKEN,
    tracing: parsed.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          endpoint: parsed.OTEL_EXPORTER_OTLP_ENDPOINT,
          serviceName: parsed.OTEL_SERVICE_NAME ?? 'promptgate',
          captureContent: parsed.OTEL_CAPTURE_CONTENT ?? false,
        }
      : undefined,
  };
  return Object.freeze({ ...config, ...overrides });
}

function modelsFileOf(file: string, env: NodeJS.ProcessEnv): ModelsFileContent {
  try {
    return readModelsFile(file, env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** TRUSTED_PROXIES as a list of addresses and CIDR blocks, each checked. */
function trustedProxiesOf(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxPrefix = family === 6 ? 128 : 32;
    const isValidPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !isValidPrefix || rest.length > 0) {
      throw new ConfigError(
        `Invalid configuration: TRUSTED_PROXIES must be comma-separated IP addresses or CIDR blocks (${entry})`,
      );
    }
  }
  return entries;
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Every variable of `EnvSchema`; `env.schema.ts` documents each. */
const ENV_KEYS: (keyof EnvSchema)[] = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'MIGRATIONS_RUN',
  'REDIS_URL',
  'BASE_DOMAIN',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GOOGLE_BASE_URL',
  'MODELS_FILE',
  'INITIAL_ADMIN_KEY',
  'INITIAL_TENANT',
  'MAX_IMAGE_BYTES',
  'MAX_BODY_BYTES',
  'LOG_RETENTION_DAYS',
  'LOG_LEVEL',
  'ADMIN_RATE_LIMIT_PER_MINUTE',
  'AUTH_FAILURES_PER_MINUTE',
  'TRUSTED_PROXIES',
  'HTTP_ADAPTER',
  'MAX_ADMIN_BODY_BYTES',
  'REQUEST_TIMEOUT_MS',
  'RENDER_TIMEOUT_MS',
  'MAX_RENDERED_PROMPT_BYTES',
  'MAX_IMAGES_PER_CALL',
  'LOG_FIELD_MAX_BYTES',
  'METRICS_ENABLED',
  'METRICS_TOKEN',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_SERVICE_NAME',
  'OTEL_CAPTURE_CONTENT',
];
