import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/database/data-source';
import { EmbeddedDatabase } from './src/database/embedded-database';
import { ENTITIES } from './src/database/entities';

/**
 * The data source of the TypeORM CLI (`npm run typeorm -- migration:show`). It opens the same database as the
 * service: DATABASE_URL, or the embedded one in DATA_DIR (stop the service first: one process per data directory).
 */
const config = loadConfig();
export default new DataSource(
  dataSourceOptions(config, ENTITIES, config.databaseUrl ? undefined : EmbeddedDatabase.open(config.dataDir)),
);
