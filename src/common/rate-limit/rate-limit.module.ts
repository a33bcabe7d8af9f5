// Owns the rate-limit windows (memory, or Redis with REDIS_URL). Exports the RateLimiter MCP counts through; the
// guards reach the windows through @nestjs/throttler's storage, which that library provides to every module. The
// windows themselves come from `surfaceWindows` (no named throttlers: KeyThrottlerGuard counts a route's windows).
import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppLogger } from '../logging/app-logger';
import { KeyThrottlerStorage, RateLimiter } from './rate-limiter';
import { RedisConnection } from '../redis/redis-connection';
import { RedisModule } from '../redis/redis.module';
import { MemoryThrottlerStorage, RedisThrottlerStorage } from './rate-limit.store';
import { RateLimitService } from './rate-limit.service';

const FALLBACK_WARN_EVERY_MS = 30_000;

/**
 * In Redis with REDIS_URL (shared by every instance), else in process memory. Redis down: fail open to per-instance
 * counters, with a warning at most twice a minute, so the service keeps answering and still limits each key.
 */
function storageOf(redis: RedisConnection, logger: AppLogger): KeyThrottlerStorage {
  const memory = new MemoryThrottlerStorage();
  if (!redis.client) return memory;
  let lastWarning = 0;
  return new RedisThrottlerStorage(redis.client, memory, (error) => {
    if (Date.now() - lastWarning < FALLBACK_WARN_EVERY_MS) return;
    lastWarning = Date.now();
    logger.write('warn', `Rate limits counted in this instance only: Redis failed (${error.message})`, {
      context: 'RateLimit',
    });
  });
}

@Module({
  imports: [RedisModule],
  providers: [{ provide: KeyThrottlerStorage, inject: [RedisConnection, AppLogger], useFactory: storageOf }],
  exports: [KeyThrottlerStorage],
})
class RateLimitStorageModule {}

@Module({
  imports: [
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule],
      inject: [KeyThrottlerStorage],
      useFactory: (storage: KeyThrottlerStorage) => ({ throttlers: [], storage }),
    }),
  ],
  providers: [RateLimitService, { provide: RateLimiter, useExisting: RateLimitService }],
  exports: [RateLimiter, RateLimitStorageModule],
})
export class RateLimitModule {}
