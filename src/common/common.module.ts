import { DynamicModule, Global, Module, type Type } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AdminExceptionFilter, ExecutionExceptionFilter, McpExceptionFilter } from './http/exception-filters';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { AppLogger } from './logging/app-logger';
import { Clock, SYSTEM_CLOCK } from './time/clock';
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

/**
 * Guards, filters, the logger, the clock and the metrics every surface uses, to every module (each controller's guards
 * resolve in its own module). The ApiKeyAuthenticator port the key guards check keys through comes from the module
 * handed in.
 */
@Global()
@Module({})
export class CommonModule {
  /**
   * `authentication`: the module exporting ApiKeyAuthenticator (the keys module; src/common imports no module).
   * `logger`: the one the process already writes through (main.ts); by default one on standard output. `clock`: the
   * time expiries and delays are read from; the system's by default.
   */
  static forRoot(authentication: Type, logger?: AppLogger, clock: Clock = SYSTEM_CLOCK): DynamicModule {
    const loggerProvider = {
      provide: AppLogger,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => logger ?? new AppLogger(config),
    };
    const clockProvider = { provide: Clock, useValue: clock };
    return {
      module: CommonModule,
      imports: [authentication],
      providers: [loggerProvider, clockProvider, ...SHARED],
      exports: [AppLogger, Clock, ...SHARED],
    };
  }
}
