// Owns the rate-limit counters (memory or Redis) and the named @nestjs/throttler windows of both surfaces.
// Exports, globally, the RateLimiter port the admin and execution guards and the MCP tool calls count through.
import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { RateLimiter } from '../../common/rate-limit/rate-limiter';
import { throttlerDefinitions } from '../../common/rate-limit/surface-windows';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { RateLimitService } from './rate-limit.service';

@Module({ providers: [RateLimitService], exports: [RateLimitService] })
class RateLimitStorageModule {}

@Global()
@Module({
  imports: [
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule],
      inject: [RateLimitService, APP_CONFIG],
      useFactory: (storage: RateLimitService, config: AppConfig) => ({
        throttlers: throttlerDefinitions(config.adminRateLimitPerMinute),
        storage,
        setHeaders: false,
      }),
    }),
  ],
  providers: [{ provide: RateLimiter, useExisting: RateLimitService }],
  exports: [RateLimiter],
})
export class RateLimitModule {}
