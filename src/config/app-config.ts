import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { ConfigError } from './config-error';
import { cacheSlice } from './slices/cache';
import { databaseSlice } from './slices/database';
import { executionSlice } from './slices/execution';
import { httpSlice } from './slices/http';
import { LOWER_CASE_TOO, llmSlice } from './slices/llm';
import { logsSlice } from './slices/logs';
import { observabilitySlice } from './slices/observability';
import { rateLimitSlice } from './slices/rate-limit';
import { serverSlice } from './slices/server';
import { tenantsSlice } from './slices/tenants';
import type { Slice, Variable } from './variable';

export { ConfigError } from './config-error';
export type { CacheBounds } from './slices/cache';
export type { EgressProxyConfig, ProviderConfig } from './slices/llm';
export type { TracingConfig } from './slices/observability';

/**
 * Every part of the configuration, each declaring its environment variables (a new variable is declared in its slice,
 * and nowhere else). Only `config/` reads `process.env`. The order is the order problems are reported in.
 */
const SLICES = [
  serverSlice,
  databaseSlice,
  llmSlice,
  tenantsSlice,
  httpSlice,
  logsSlice,
  rateLimitSlice,
  executionSlice,
  cacheSlice,
  observabilitySlice,
] as const;

type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void
  ? I
  : never;
type ConfigOf<S> = S extends Slice<infer _V, infer C> ? C : never;
/** The properties that may be undefined made optional, as an interface would declare them. */
type Flat<T> = {
  [K in keyof T as undefined extends T[K] ? never : K]: T[K];
} & { [K in keyof T as undefined extends T[K] ? K : never]?: T[K] };

/** The validated configuration: what every slice makes of its variables. */
export type AppConfig = Flat<UnionToIntersection<ConfigOf<(typeof SLICES)[number]>>>;
type AnySlice = Slice<Record<string, Variable>, object>;
const ALL_SLICES = SLICES as unknown as readonly AnySlice[];
export type LogLevel = AppConfig['logLevel'];

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Every variable, by name, in the order the slices declare them. */
export const VARIABLES: ReadonlyMap<string, Variable> = new Map(
  ALL_SLICES.flatMap((slice) => Object.entries(slice.variables)),
);

/** Every variable the service reads. */
export const ENV_KEYS: readonly string[] = [...VARIABLES.keys()];

/** The class validated against: one property per variable, carrying its declaration's decorators. */
class EnvSchema {}
for (const [name, variable] of VARIABLES) {
  // Applied last to first, as decorators written above a property are.
  for (const rule of [...variable.rules].reverse()) rule(EnvSchema.prototype, name);
}

/** Validates the environment once; throws a `ConfigError` naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const raw: Record<string, string | undefined> = Object.fromEntries(
    ENV_KEYS.map((key) => [key, emptyToUndefined(env[key])]),
  );
  for (const key of LOWER_CASE_TOO) raw[key] ??= emptyToUndefined(env[key.toLowerCase()]);
  const parsed = plainToInstance(EnvSchema, raw) as Record<string, unknown>;
  const problems = validateSync(parsed, { forbidUnknownValues: false }).map(problemOf);
  const values: Record<string, unknown> = {};
  for (const [name, variable] of VARIABLES) values[name] = parsed[name] ?? variable.default;
  for (const slice of ALL_SLICES) problems.push(...(slice.problems?.(raw, values) ?? []));
  if (problems.length > 0) throw new ConfigError(problems);
  const config = Object.assign({}, ...ALL_SLICES.map((slice) => slice.config(values, env))) as AppConfig;
  return Object.freeze({ ...config, ...overrides });
}

/** One variable's problem, naming it; a value of the wrong type says so, rather than which bound it misses. */
function problemOf(error: ValidationError): string {
  const constraints = error.constraints ?? {};
  const reason = constraints.isInt ?? constraints.isBoolean ?? Object.values(constraints)[0] ?? 'is invalid';
  return reason.startsWith(error.property) ? reason : `${error.property} ${reason}`;
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
