import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { dataSourceOptions, runMigrations } from './data-source';
import { EmbeddedDatabase } from './embedded-database';

@Injectable()
class DatabaseCloser implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EmbeddedDatabase) private readonly embedded: EmbeddedDatabase | null,
  ) {}

  // The pool must end before PGlite closes underneath it.
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.close();
  }
}

/**
 * Owns the configuration and the database connection (PostgreSQL, or the embedded PGlite when DATABASE_URL is unset)
 * and applies migrations at start. Exports APP_CONFIG, EmbeddedDatabase and TypeORM to every module.
 */
@Module({})
export class DatabaseModule {
  /** `embedded` lets tests and the CLI hand in an already opened embedded database. */
  static forRoot(config: AppConfig, embedded?: EmbeddedDatabase | null): DynamicModule {
    const core: DynamicModule = {
      module: CoreProvidersModule,
      global: true,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        {
          provide: EmbeddedDatabase,
          useFactory: () => (config.databaseUrl ? null : (embedded ?? EmbeddedDatabase.open(config.dataDir))),
        },
      ],
      exports: [APP_CONFIG, EmbeddedDatabase],
    };
    return {
      module: DatabaseModule,
      imports: [
        core,
        TypeOrmModule.forRootAsync({
          inject: [EmbeddedDatabase],
          useFactory: (opened: EmbeddedDatabase | null) => ({
            ...dataSourceOptions(config, [], opened ?? undefined),
            autoLoadEntities: true,
          }),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            if (config.migrationsRun) await runMigrations(dataSource, config);
            return dataSource;
          },
        }),
      ],
      providers: [DatabaseCloser],
    };
  }
}

@Global()
@Module({})
class CoreProvidersModule {}
