import * as pg from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { isDatabaseUnavailable, markAsDatabasePoolError } from '../common/errors/database-unavailable';
import type { AppConfig } from '../config/app-config';
import { postgresConnection } from '../config/database-tls';
import type { EmbeddedDatabase } from './embedded-database';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';

const MIGRATION_LOCK_ID = 7_346_519_001;
/** A connection to PostgreSQL that is not made within this time fails (the request answers 503 instead of hanging). */
export const CONNECT_TIMEOUT_MS = 5_000;

/** Connections each instance opens to PostgreSQL at most, unless DATABASE_POOL_MAX says otherwise. */
export const DEFAULT_POOL_MAX = 10;

/** Called whenever the pool finds the PostgreSQL server unreachable (a connect failed, an idle connection was cut). */
export type DatabaseUnavailableListener = (error: unknown) => void;

/**
 * The TypeORM options for PostgreSQL (DATABASE_URL) or the embedded PGlite. Migrations run at start under an
 * advisory lock on PostgreSQL, so instances starting together apply them once; `synchronize` is never on.
 * `onUnavailable` hears of every connection-level failure of the PostgreSQL pool (the service throttles its warning).
 */
export function dataSourceOptions(
  config: Pick<AppConfig, 'databaseUrl'> & Partial<Pick<AppConfig, 'databasePoolMax' | 'databaseTls'>>,
  entities: DataSourceOptions['entities'],
  embedded?: EmbeddedDatabase,
  onUnavailable?: DatabaseUnavailableListener,
): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    uuidExtension: 'pgcrypto' as const,
    installExtensions: false,
    logging: false,
  };
  if (config.databaseUrl) {
    // Every error the pool raises is the database's: marked so, and reported when it means the server is away.
    const report = (error: unknown) => {
      markAsDatabasePoolError(error);
      if (isDatabaseUnavailable(error)) onUnavailable?.(error);
    };
    const { connectionString, ssl } = postgresConnection({ ...config, databaseUrl: config.databaseUrl });
    return {
      ...common,
      url: connectionString,
      ssl,
      applicationName: 'promptgate',
      connectTimeoutMS: CONNECT_TIMEOUT_MS,
      // An idle pooled connection the server cut (a restart): the pool drops it and opens a new one when needed.
      poolErrorHandler: report,
      driver: reportingDriver(report),
      // At most DATABASE_POOL_MAX connections per instance (mind the server's max_connections across instances).
      extra: { max: config.databasePoolMax ?? DEFAULT_POOL_MAX },
    };
  }
  if (!embedded) throw new Error('The embedded database is not open');
  // One pooled client: PGlite is one session, and a pool of one serialises transactions correctly.
  return { ...common, extra: { ...embedded.pgConfig(), max: 1 } };
}

/** Applies the pending migrations, one transaction each; answers the names of those applied, in order. */
export async function runMigrations(dataSource: DataSource, config: Pick<AppConfig, 'databaseUrl'>): Promise<string[]> {
  const apply = async () =>
    (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
  if (!config.databaseUrl) return apply();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    return await apply();
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}

/** `pg`, with a pool that reports its failed connects before passing them on to TypeORM (which throws them to the caller). */
function reportingDriver(report: (error: unknown) => void): typeof pg {
  class ReportingPool extends pg.Pool {
    connect(): Promise<pg.PoolClient>;
    connect(
      callback: (
        error: Error | undefined,
        client: pg.PoolClient | undefined,
        done: (release?: unknown) => void,
      ) => void,
    ): void;
    connect(
      callback?: (
        error: Error | undefined,
        client: pg.PoolClient | undefined,
        done: (release?: unknown) => void,
      ) => void,
    ): Promise<pg.PoolClient> | void {
      if (!callback) {
        return super.connect().catch((error: unknown) => {
          report(error);
          throw error;
        });
      }
      super.connect((error, client, done) => {
        if (error) report(error);
        callback(error, client, done);
      });
    }
  }
  return { ...pg, Pool: ReportingPool };
}
