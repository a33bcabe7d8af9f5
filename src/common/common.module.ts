import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AdminExceptionFilter, ExecutionExceptionFilter, McpExceptionFilter } from './http/exception-filters';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { AppLogger } from './logging/app-logger';
import { Metrics } from './metrics/metrics';
import { AdminPermissionGuard } from './auth/admin-permission.guard';
import { AdminKeyGuard } from './auth/api-key.guard';
import { KeyAuthenticator } from './auth/key-authenticator';

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

/** Guards, filters, the logger and the metrics every surface uses; the ApiKeyAuthenticator port is provided by the keys module. */
@Global()
@Module({})
export class CommonModule {
  /** `logger`: the one the process already writes through (main.ts); by default one on standard output. */
  static forRoot(logger?: AppLogger): DynamicModule {
    const loggerProvider = {
      provide: AppLogger,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => logger ?? new AppLogger(config),
    };
    return { module: CommonModule, providers: [loggerProvider, ...SHARED], exports: [AppLogger, ...SHARED] };
  }
}
