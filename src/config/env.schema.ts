import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { DATABASE_SSL_VALUES } from './database-tls';

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : isScalar(value) && /^-?\d+$/.test(String(value))
      ? Number(value)
      : value;
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  const text = isScalar(value) ? String(value).toLowerCase() : '';
  return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : value;
};

/**
 * Every environment variable the service reads. Only `config/` reads `process.env`.
 * Defaults live in `app-config.ts`.
 */
export class EnvSchema {
  /** HTTP port. Default 3000. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  /** Interface to bind. Default 0.0.0.0. */
  @IsOptional()
  @IsString()
  HOST?: string;

  /** Directory of the embedded database (used when DATABASE_URL is unset). Default ./data. */
  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  /** postgres://… selects a real PostgreSQL instead of the embedded database. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  /** Largest number of connections each instance opens to PostgreSQL. Default 10. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  DATABASE_POOL_MAX?: number;

  /** TLS to PostgreSQL: true (verify-full), false (disable), require, verify-ca or verify-full. Default: the URL's sslmode. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsIn(DATABASE_SSL_VALUES, {
    message: 'DATABASE_SSL must be one of true, false, disable, require, verify-ca or verify-full',
  })
  DATABASE_SSL?: string;

  /** Apply migrations at start. Default true. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean({ message: 'MIGRATIONS_RUN must be true or false' })
  MIGRATIONS_RUN?: boolean;

  /** redis://… moves the response cache and rate-limit counters to Redis. */
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** Domain under which `<tenant>.<BASE_DOMAIN>` hosts route to a tenant. Default localhost. */
  @IsOptional()
  @Matches(/^[a-z0-9.-]+$/i, { message: 'BASE_DOMAIN must be a host name such as localhost or example.com' })
  BASE_DOMAIN?: string;

  @IsOptional() @IsString() OPENAI_API_KEY?: string;
  @IsOptional()
  @Matches(/^https?:\/\/.+/, { message: 'OPENAI_BASE_URL must be an http(s) URL' })
  OPENAI_BASE_URL?: string;
  @IsOptional() @IsString() ANTHROPIC_API_KEY?: string;
  @IsOptional()
  @Matches(/^https?:\/\/.+/, { message: 'ANTHROPIC_BASE_URL must be an http(s) URL' })
  ANTHROPIC_BASE_URL?: string;
  @IsOptional() @IsString() GOOGLE_GENERATIVE_AI_API_KEY?: string;
  @IsOptional()
  @Matches(/^https?:\/\/.+/, { message: 'GOOGLE_BASE_URL must be an http(s) URL' })
  GOOGLE_BASE_URL?: string;

  /** JSON or YAML file adding OpenAI-compatible providers and models, or overriding catalog entries. */
  @IsOptional() @IsString() MODELS_FILE?: string;

  /** epa_… admin key created at start (with INITIAL_TENANT) when it does not exist yet. */
  @IsOptional()
  @Matches(/^epa_[A-Za-z0-9]{32,}$/, {
    message: 'INITIAL_ADMIN_KEY must be epa_ followed by at least 32 letters or digits',
  })
  INITIAL_ADMIN_KEY?: string;

  /** Slug of the tenant INITIAL_ADMIN_KEY belongs to. Default "default". */
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'INITIAL_TENANT must be a slug: lower-case letters, digits and -' })
  INITIAL_TENANT?: string;

  /** Largest decoded image input in bytes. Default 5 MiB. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_IMAGE_BYTES?: number;

  /** Largest request body in bytes. Default 10 MiB. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_BODY_BYTES?: number;

  /** Days execution logs are kept. Default 30. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOG_RETENTION_DAYS?: number;

  /** Largest number of executions in a GET /stats period whose latency percentiles are computed exactly. Default 20000. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  STATS_EXACT_PERCENTILE_ROWS?: number;

  /** debug | info | warn | error | silent. Default info. */
  @IsOptional()
  @IsIn(['debug', 'info', 'warn', 'error', 'silent'])
  LOG_LEVEL?: string;

  /** Milliseconds between readiness failing on SIGTERM and the server closing (load balancers notice). Default 5000. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_DRAIN_MS?: number;

  /** HTTP server under Nest: fastify (default, measured faster: BENCHMARKS.md) or express. */
  @IsOptional()
  @IsIn(['fastify', 'express'])
  HTTP_ADAPTER?: string;

  /** Requests per minute each key may make to the admin API. Default 600. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ADMIN_RATE_LIMIT_PER_MINUTE?: number;

  /**
   * Failed authentications one client address may have per minute (per instance) before its requests get 429 until
   * the minute ends; a key the instance knows to be valid still passes. Default 100.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_FAILURES_PER_MINUTE?: number;

  /**
   * Comma-separated addresses or CIDR blocks of the proxies in front of the service: a request from one of them is
   * counted for failed authentications under the client address its X-Forwarded-For names. Default none.
   */
  @IsOptional()
  @IsString()
  TRUSTED_PROXIES?: string;

  /** Largest admin and MCP request body in bytes. Default 1 MiB. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_ADMIN_BODY_BYTES?: number;

  /** Milliseconds a request's headers and body may take to arrive (then 408). Default 30000. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  REQUEST_TIMEOUT_MS?: number;

  /** Milliseconds one template render may take. Default 100. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RENDER_TIMEOUT_MS?: number;

  /** Largest rendered prompt in bytes. Default 1 MiB. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_RENDERED_PROMPT_BYTES?: number;

  /** Renders that may wait for a render thread, all tenants together. Default 256. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  RENDER_QUEUE_MAX?: number;

  /**
   * Provider calls one tenant may have in flight on this instance. Default 256. At most 512: half the connections
   * the service keeps to one provider, so one tenant at its bound leaves the other half to the rest.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(512)
  MAX_PROVIDER_CALLS_PER_TENANT?: number;

  /** Provider calls one API key may have in flight on this instance. Default 64. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(512)
  MAX_PROVIDER_CALLS_PER_KEY?: number;
  /** Largest answer body read from a provider (or produced by the mock) in bytes; a larger one is a 502. Default 4 MiB. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  MAX_ANSWER_BYTES?: number;

  /** Bytes the in-process response cache holds at most, over every tenant. Default 256 MiB. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  CACHE_MAX_BYTES?: number;

  /** Bytes of the in-process response cache one tenant's answers may hold. Default a quarter of CACHE_MAX_BYTES. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  CACHE_MAX_TENANT_BYTES?: number;

  /** Largest answer stored in the response cache (memory or Redis); a larger one is served, not stored. Default 1 MiB. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  CACHE_MAX_ENTRY_BYTES?: number;

  /** Largest number of images one call may ask for (`n`). Default 4. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  MAX_IMAGES_PER_CALL?: number;

  /** Milliseconds an event stream may wait on a client that reads nothing before it is closed. Default 30000. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  STREAM_WRITE_TIMEOUT_MS?: number;

  /** Event streams one key may have open at once on an instance (429 beyond). Default 100. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  MAX_STREAMS_PER_KEY?: number;

  /** Bytes of JSON kept of each logged field before it is cut with a marker. Default 65536. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  LOG_FIELD_MAX_BYTES?: number;

  /** Serve GET /metrics and count requests, executions and provider calls (Prometheus). Default true. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean({ message: 'METRICS_ENABLED must be true or false' })
  METRICS_ENABLED?: boolean;

  /** Bearer token GET /metrics requires when set; unset, /metrics is open. */
  @IsOptional()
  @Matches(/^[\x21-\x7e]{16,512}$/, {
    message: 'METRICS_TOKEN must be 16 to 512 printable characters without spaces',
  })
  METRICS_TOKEN?: string;

  /** OTLP/HTTP collector base URL; set, traces are exported to <url>/v1/traces. Unset: no tracing is loaded. */
  @IsOptional()
  @Matches(/^https?:\/\/.+/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** service.name of the exported spans. Default promptgate. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{1,100}$/, {
    message: 'OTEL_SERVICE_NAME must be 1 to 100 letters, digits, ".", "_" or "-"',
  })
  OTEL_SERVICE_NAME?: string;

  /** Put prompt and answer text on the model-call spans. Default false. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean({ message: 'OTEL_CAPTURE_CONTENT must be true or false' })
  OTEL_CAPTURE_CONTENT?: boolean;

  /** Proxy the calls to https:// provider URLs go through (a CONNECT tunnel); https_proxy too. Unset: direct. */
  @IsOptional()
  @Matches(/^https?:\/\/.+/, { message: 'HTTPS_PROXY must be an http(s) URL' })
  HTTPS_PROXY?: string;

  /** Proxy the calls to http:// provider URLs go through; http_proxy too. Unset: direct. */
  @IsOptional()
  @Matches(/^https?:\/\/.+/, { message: 'HTTP_PROXY must be an http(s) URL' })
  HTTP_PROXY?: string;

  /** Provider hosts reached without the proxy: comma-separated `host`, `.domain`, `*.domain`, `host:port` or `*`. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9.*:[\]_,\s-]{1,4096}$/, {
    message: 'NO_PROXY must be a comma-separated list of host names, domains (.example.com), host:port or *',
  })
  NO_PROXY?: string;
}
