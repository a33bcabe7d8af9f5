import { closest, distance } from 'fastest-levenshtein';
import { type AppConfig, ENV_KEYS } from './app-config';

/**
 * Prefixes of the service's own variables. A variable under one of them that the service does not know is most likely
 * a misspelt one, silently ignored otherwise. OTEL_ and HTTP_ are left out: the OpenTelemetry SDK and proxies read
 * variables of their own under them.
 */
export const KNOWN_PREFIXES = [
  'DATABASE',
  'REDIS',
  'OPENAI',
  'ANTHROPIC',
  'GOOGLE_GENERATIVE',
  'MIGRATIONS',
  'METRICS',
  'INITIAL',
  'LOG',
  'MAX',
  'RENDER',
  'REQUEST',
  'SHUTDOWN',
  'STATS',
  'MODELS',
  'ADMIN',
];

/** A variable this far (in single-character edits) from a known one is taken for a misspelling of it... */
const MAX_TYPO_DISTANCE = 2;
/** ...when it is at least this long (HOME is not a misspelt HOST). */
const MIN_TYPO_LENGTH = 8;
/**
 * What Kubernetes (and Docker links) define for every service in the namespace: a service named `redis` gives every
 * pod REDIS_SERVICE_HOST, REDIS_PORT, REDIS_PORT_6379_TCP_ADDR and the like, none of them meant for the service.
 */
const SERVICE_DISCOVERY_VARIABLE =
  /_(SERVICE_HOST|SERVICE_PORT(_[A-Z0-9_]+)?|PORT(_\d+_(TCP|UDP|SCTP)(_(ADDR|PORT|PROTO))?)?)$/;

/**
 * One warning per variable of `env` that looks meant for the service but is not one of its variables: it starts with
 * a known prefix, or is a known name misspelt. The warning names the likely intended variable when one is close.
 */
export function unknownVariableWarnings(env: NodeJS.ProcessEnv, known: readonly string[] = ENV_KEYS): string[] {
  const names = new Set(known);
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (names.has(name) || !/^[A-Z][A-Z0-9_]*$/.test(name) || SERVICE_DISCOVERY_VARIABLE.test(name)) continue;
    const likely = closest(name, known);
    const isClose = name.length >= MIN_TYPO_LENGTH && distance(name, likely) <= MAX_TYPO_DISTANCE;
    const isPrefixed = KNOWN_PREFIXES.some((prefix) => name === prefix || name.startsWith(`${prefix}_`));
    if (!isClose && !isPrefixed) continue;
    const suggestion = isClose || distance(name, likely) <= name.length / 3 ? ` (did you mean ${likely}?)` : '';
    warnings.push(`Unknown environment variable ${name} is ignored${suggestion}`);
  }
  return warnings;
}

/** Where the service keeps its data, for the start line: never a user name or password. */
export interface StorageDescription {
  storage: 'embedded' | 'postgres';
  /** host:port/database of PostgreSQL, or the embedded database's directory. */
  database: string;
  /** host:port of Redis; absent without REDIS_URL. */
  redis?: string;
}

export function describeStorage(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir' | 'redisUrl' | 'databaseTls'>,
): StorageDescription {
  const description: StorageDescription = config.databaseUrl
    ? { storage: 'postgres', database: locationOf(config.databaseUrl, 5432, true) }
    : { storage: 'embedded', database: config.dataDir };
  if (config.redisUrl) description.redis = locationOf(config.redisUrl, 6379, false);
  return description;
}

/** host:port (and /path) of a URL, without its user, password or query. */
function locationOf(url: string, defaultPort: number, withPath: boolean): string {
  try {
    const parsed = new URL(url);
    const location = `${parsed.hostname || 'localhost'}:${parsed.port || defaultPort}`;
    return withPath && parsed.pathname.length > 1 ? `${location}${parsed.pathname}` : location;
  } catch {
    return '(unparsable URL)';
  }
}
