import { Global, Module } from '@nestjs/common';
import { AdminExceptionFilter, ExecutionExceptionFilter, McpExceptionFilter } from './http/exception-filters';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { AppLogger } from './logging/app-logger';
import { Metrics } from './metrics/metrics';
import { AdminPermissionGuard } from './auth/admin-permission.guard';
import { AdminKeyGuard, KeyAuthenticator } from './auth/api-key.guard';

const SHARED = [
  AppLogger,
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
@Module({ providers: SHARED, exports: SHARED })
export class CommonModule {}
