/**
 * How the connection to PostgreSQL is encrypted, in libpq's terms: `disable` (plain TCP), `require` (TLS, the server's
 * certificate not checked), `verify-ca` (TLS, the certificate signed by a trusted authority), `verify-full` (that, and
 * issued for the host connected to).
 */
export type DatabaseTlsMode = 'disable' | 'require' | 'verify-ca' | 'verify-full';

/** What DATABASE_SSL accepts: a boolean, or one of the modes. */
export const DATABASE_SSL_VALUES = ['true', 'false', '1', '0', 'disable', 'require', 'verify-ca', 'verify-full'];

/** The URL's `sslmode` values and their mode. libpq's `allow` and `prefer` fall back to plain TCP, which is refused. */
const URL_SSL_MODES: Record<string, DatabaseTlsMode> = {
  disable: 'disable',
  require: 'require',
  'no-verify': 'require',
  'verify-ca': 'verify-ca',
  'verify-full': 'verify-full',
};

/** The TLS parameters of a connection URL that the mode replaces (the certificate files stay with the driver). */
const TLS_MODE_PARAMETERS = ['sslmode', 'ssl', 'uselibpqcompat'];

/** The TLS options node-postgres (and TypeORM) take, as far as the modes need them. */
export interface PgTlsOptions {
  rejectUnauthorized: boolean;
  /** Skips the host name check (verify-ca). */
  checkServerIdentity?: () => undefined;
}

export interface DatabaseTls {
  /** Unset when neither DATABASE_SSL nor the URL says: the driver's default (PGSSLMODE, else plain TCP). */
  mode?: DatabaseTlsMode;
  /** What is wrong with the two settings, one message per problem naming the variable. */
  problems: string[];
}

/** DATABASE_SSL as a mode (`true` means `verify-full`), or undefined when it is not one of DATABASE_SSL_VALUES. */
export function tlsModeOfSetting(value: string): DatabaseTlsMode | undefined {
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === '1') return 'verify-full';
  if (text === 'false' || text === '0') return 'disable';
  return (['disable', 'require', 'verify-ca', 'verify-full'] as const).find((mode) => mode === text);
}

/**
 * The TLS mode of the connection from DATABASE_SSL and the `sslmode` (or `ssl`) of DATABASE_URL. Either may be given;
 * both must then agree, since a URL copied from a provider that asks for TLS must not be quietly downgraded.
 */
export function resolveDatabaseTls(setting: string | undefined, url: string | undefined): DatabaseTls {
  const problems: string[] = [];
  let fromSetting: DatabaseTlsMode | undefined;
  if (setting !== undefined) {
    fromSetting = tlsModeOfSetting(setting);
    if (!fromSetting)
      problems.push('DATABASE_SSL must be one of true, false, disable, require, verify-ca or verify-full');
  }
  let fromUrl: DatabaseTlsMode | undefined;
  const parameters = url ? searchParametersOf(url) : undefined;
  const sslmode = parameters?.get('sslmode')?.toLowerCase();
  const ssl = parameters?.get('ssl')?.toLowerCase();
  if (sslmode !== undefined) {
    fromUrl = URL_SSL_MODES[sslmode];
    if (!fromUrl)
      problems.push(`DATABASE_URL sslmode=${sslmode} is not supported: use disable, require, verify-ca or verify-full`);
  } else if (ssl !== undefined) {
    fromUrl = ssl === 'true' || ssl === '1' ? 'verify-full' : ssl === 'false' || ssl === '0' ? 'disable' : undefined;
    if (!fromUrl) problems.push('DATABASE_URL ssl must be true or false');
  }
  if (fromSetting && fromUrl && fromSetting !== fromUrl)
    problems.push(`DATABASE_SSL (${fromSetting}) and the sslmode of DATABASE_URL (${fromUrl}) disagree`);
  return { mode: fromSetting ?? fromUrl, problems };
}

/** node-postgres's `ssl` option for a mode; undefined leaves the driver's default. */
export function pgSslOption(mode: DatabaseTlsMode | undefined): boolean | PgTlsOptions | undefined {
  switch (mode) {
    case undefined:
      return undefined;
    case 'disable':
      return false;
    case 'require':
      return { rejectUnauthorized: false };
    case 'verify-ca':
      return { rejectUnauthorized: true, checkServerIdentity: () => undefined };
    case 'verify-full':
      return { rejectUnauthorized: true };
  }
}

/**
 * The URL without its TLS mode parameters, when a mode was resolved: node-postgres lets the URL's own parameters win
 * over its `ssl` option, and reads `sslmode=require` as `verify-full`.
 */
export function withoutTlsModeParameters(url: string, mode: DatabaseTlsMode | undefined): string {
  if (mode === undefined) return url;
  const parsed = new URL(url);
  for (const name of TLS_MODE_PARAMETERS) parsed.searchParams.delete(name);
  return parsed.toString();
}

function searchParametersOf(url: string): URLSearchParams | undefined {
  try {
    return new URL(url).searchParams;
  } catch {
    return undefined;
  }
}

/** node-postgres's connection settings for DATABASE_URL with its TLS mode: for the pool and for every own client. */
export function postgresConnection(config: { databaseUrl: string; databaseTls?: DatabaseTlsMode }): {
  connectionString: string;
  ssl?: boolean | PgTlsOptions;
} {
  const ssl = pgSslOption(config.databaseTls);
  const connectionString = withoutTlsModeParameters(config.databaseUrl, config.databaseTls);
  return ssl === undefined ? { connectionString } : { connectionString, ssl };
}
