import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppLogger } from '../common/logging/app-logger';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { dataSourceOptions, runMigrations } from './data-source';
import { databaseOutageWarning } from './database-outage-warning';
import { DatabaseShutdown } from './database-shutdown';
import { EmbeddedDatabase } from './embedded-database';
import { TransactionHost } from './transactions';

@Injectable()
class DatabaseCloser implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EmbeddedDatabase) private readonly embedded: EmbeddedDatabase | null,
    private readonly shutdown: DatabaseShutdown,
  ) {}

  // Runs after the HTTP server has closed (Nest calls onApplicationShutdown once its requests have finished). The final
  // flushes go first, then the pool, which must end before PGlite closes underneath it.
  async onApplicationShutdown(): Promise<void> {
    await this.shutdown.runTasks();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.close();
  }
}

/**
 * Owns the configuration and the database connection (PostgreSQL, or the embedded PGlite when DATABASE_URL is unset)
 * and applies migrations at start. Exports APP_CONFIG, EmbeddedDatabase, DatabaseShutdown, TypeORM and the ambient
 * transactions (TransactionHost) to every module.
 */
@Module({})
export class DatabaseModule {
  /** `embedded` lets tests and the CLI hand in an already opened embedded database. */
  static forRoot(config: AppConfig, embedded?: EmbeddedDatabase | null): DynamicModule {
    // TypeORM's data source factory is not injected: it reaches the logger through the options factory, which runs first.
    let migrationLogger: AppLogger | undefined;
    const core: DynamicModule = {
      module: CoreProvidersModule,
      global: true,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        {
          provide: EmbeddedDatabase,
          useFactory: () => (config.databaseUrl ? null : (embedded ?? EmbeddedDatabase.open(config.dataDir))),
        },
        DatabaseShutdown,
      ],
      exports: [APP_CONFIG, EmbeddedDatabase, DatabaseShutdown],
    };
    return {
      module: DatabaseModule,
      imports: [
        core,
        TypeOrmModule.forRootAsync({
          inject: [EmbeddedDatabase, AppLogger],
          useFactory: (opened: EmbeddedDatabase | null, logger: AppLogger) => {
            migrationLogger = logger;
            return {
              // An unreachable PostgreSQL: one throttled warning in the service log; callers answer 503 (see database-unavailable.ts).
              ...dataSourceOptions(config, [], opened ?? undefined, databaseOutageWarning(logger)),
              autoLoadEntities: true,
            };
          },
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            if (config.migrationsRun) {
              // One line per migration applied; none when the schema was up to date.
              for (const name of await runMigrations(dataSource, config))
                migrationLogger?.write('info', `Applied migration ${name}`, { context: 'Database', migration: name });
            }
            return dataSource;
          },
        }),
        TransactionsModule,
      ],
      providers: [DatabaseCloser],
    };
  }
}

@Global()
@Module({})
class CoreProvidersModule {}

/** The ambient transactions, to every module: their repositories query through them. */
@Global()
@Module({ providers: [TransactionHost], exports: [TransactionHost] })
class TransactionsModule {}
