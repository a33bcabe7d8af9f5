import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../src/database/data-source';
import { buildTemplate } from './database-template';

/**
 * Embedded runs: build the migrated PGlite template once. PostgreSQL runs: refuse a database that does not look like a
 * test database, then migrate it once so parallel test files do not race.
 */
export default async function globalSetup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    await buildTemplate();
    return;
  }
  const database = new URL(url).pathname.slice(1);
  if (!/test|ci/i.test(database)) {
    throw new Error(`Refusing to run the tests against ${database}: the database name must contain "test" or "ci"`);
  }
  const dataSource = await new DataSource(dataSourceOptions({ databaseUrl: url }, [])).initialize();
  await runMigrations(dataSource, { databaseUrl: url });
  await dataSource.destroy();
}
