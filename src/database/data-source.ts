import { DataSource, DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type { EmbeddedDatabase } from './embedded-database';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';

const MIGRATION_LOCK_ID = 7_346_519_001;

/**
 * The TypeORM options for PostgreSQL (DATABASE_URL) or the embedded PGlite. Migrations run at start under an
 * advisory lock on PostgreSQL, so instances starting together apply them once; `synchronize` is never on.
 */
export function dataSourceOptions(
  config: Pick<AppConfig, 'databaseUrl'>,
  entities: DataSourceOptions['entities'],
  embedded?: EmbeddedDatabase,
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
  if (config.databaseUrl) return { ...common, url: config.databaseUrl, extra: { max: 10 } };
  if (!embedded) throw new Error('The embedded database is not open');
  // One pooled client: PGlite is one session, and a pool of one serialises transactions correctly.
  return { ...common, extra: { ...embedded.pgConfig(), max: 1 } };
}

export async function runMigrations(dataSource: DataSource, config: Pick<AppConfig, 'databaseUrl'>): Promise<void> {
  if (!config.databaseUrl) {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}
