import { DynamicModule, Global, Module, type Type } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AdminExceptionFilter, ExecutionExceptionFilter, McpExceptionFilter } from './http/exception-filters';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { AppLogger } from './logging/app-logger';
import { Metrics } from './metrics/metrics';
import { AdminPermissionGuard } from './auth/admin-permission.guard';
import { AdminKeyGuard, KeyAuthenticator } from './auth/api-key.guard';

const SHARED = [
  Metrics,
  KeyAuthenticator,
  AdminKeyGuard,
  AdminPermissionGuard,
  EnvelopeInterceptor,
  AdminExceptionFilter,
  ExecutionExceptionFilter,
  McpExceptionFilter,
];

/**
 * Guards, filters, the logger and the metrics every surface uses, to every module (each controller's guards resolve in
 * its own module). The ApiKeyAuthenticator port the key guards check keys through comes from the module handed in.
 */
@Global()
@Module({})
export class CommonModule {
  /**
   * `authentication`: the module exporting ApiKeyAuthenticator (the keys module; src/common imports no module).
   * `logger`: the one the process already writes through (main.ts); by default one on standard output.
   */
  static forRoot(authentication: Type, logger?: AppLogger): DynamicModule {
    const loggerProvider = {
      provide: AppLogger,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => logger ?? new AppLogger(config),
    };
    return {
      module: CommonModule,
      imports: [authentication],
      providers: [loggerProvider, ...SHARED],
      exports: [AppLogger, ...SHARED],
    };
  }
}
