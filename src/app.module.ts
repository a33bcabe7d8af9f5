import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { CommonModule } from './common/common.module';
import type { AppLogger } from './common/logging/app-logger';
import { GlobalExceptionFilter } from './common/http/exception-filters';
import { createValidationPipe } from './common/http/validation.pipe';
import type { AppConfig } from './config/app-config';
import { DatabaseModule } from './database/database.module';
import { BudgetsModule } from './modules/budgets/budgets.module';
import { DashboardModule } from './modules/dashboard/dashboard.module';
import { DatasetsModule, GateDatasetsModule } from './modules/datasets/datasets.module';
import { EvaluationsModule, PromotionGateModule } from './modules/evaluations/evaluations.module';
import type { EmbeddedDatabase } from './database/embedded-database';
import { EndpointsModule } from './modules/endpoints/endpoints.module';
import { ExecutionModule } from './modules/execution/execution.module';
import { TenantOpenApiModule } from './modules/tenant-openapi/tenant-openapi.module';
import { HealthModule } from './modules/health/health.module';
import { KeysModule } from './modules/keys/keys.module';
import { LogsModule } from './modules/logs/logs.module';
import { McpModule } from './modules/mcp/mcp.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { ModelsModule } from './modules/models/models.module';
import { PromptsModule, SplitPromptsModule } from './modules/prompts/prompts.module';
import { ScoresModule } from './modules/scores/scores.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { ResponseCacheModule } from './modules/cache/response-cache.module';
import { TenantsModule } from './modules/tenants/tenants.module';
import type { Clock } from './common/time/clock';

export interface AppModuleOptions {
  config: AppConfig;
  /** An already opened embedded database (tests, CLI); by default it is opened from config.dataDir. */
  embedded?: EmbeddedDatabase | null;
  /** The logger the process writes through; by default one on standard output. */
  logger?: AppLogger;
  /** The clock expiries and delays are read from (tests move theirs forward); by default the system's. */
  clock?: Clock;
}

@Module({})
export class AppModule {
  static forRoot({ config, embedded, logger, clock }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        DatabaseModule.forRoot(config, embedded),
        CommonModule.forRoot(KeysModule, logger, clock),
        RateLimitModule,
        ResponseCacheModule,
        TenantsModule,
        KeysModule,
        EndpointsModule,
        // Before the prompts module: its /prompts/models route must win over /prompts/:id.
        ModelsModule,
        PromptsModule,
        SplitPromptsModule,
        LogsModule,
        ScoresModule,
        BudgetsModule,
        DatasetsModule,
        GateDatasetsModule,
        EvaluationsModule,
        PromotionGateModule,
        HealthModule,
        MetricsModule,
        DashboardModule,
        McpModule,
        ExecutionModule,
        TenantOpenApiModule,
      ],
      providers: [
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: GlobalExceptionFilter },
      ],
    };
  }
}
