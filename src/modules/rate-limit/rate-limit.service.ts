import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { AppLogger } from '../../common/logging/app-logger';
import type { Principal } from '../../common/auth/principal';
import {
  type EndpointRateLimits,
  type RateLimitDecision,
  RateLimiter,
  type RateLimitSurface,
  type RateWindow,
} from '../../common/rate-limit/rate-limiter';
import { closeRedisClient, createRedisClient, type RedisClient, whenReady } from '../../common/redis/redis-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MemoryRateLimitStore, RateLimitStore, RedisRateLimitStore } from './rate-limit.store';
import { surfaceWindows } from '../../common/rate-limit/surface-windows';

const FALLBACK_WARN_EVERY_MS = 30_000;

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The rate-limit counters: in Redis with REDIS_URL (shared by every instance), else in process memory. Redis down:
 * fail open to per-instance counters, with a warning, so the service keeps answering and still limits each key.
 * Also the @nestjs/throttler storage (one window per call), so the module's storage and the guards' agree.
 */
@Injectable()
export class RateLimitService extends RateLimiter implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly store: RateLimitStore;
  private readonly redis?: RedisClient;
  private lastFallbackWarning = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: AppLogger,
  ) {
    super();
    const memory = new MemoryRateLimitStore();
    if (config.redisUrl) {
      this.redis = createRedisClient(config.redisUrl, 'rate-limit', logger);
      this.store = new RedisRateLimitStore(this.redis, memory, (error) => this.warnFallback(error));
    } else {
      this.store = memory;
    }
  }

  async onModuleInit(): Promise<void> {
    if (this.redis) await whenReady(this.redis);
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedisClient(this.redis);
  }

  consume(windows: RateWindow[]): Promise<RateLimitDecision> {
    return this.store.consume(windows);
  }

  consumeFor(principal: Principal, surfaces: readonly RateLimitSurface[], endpoint?: EndpointRateLimits | null): Promise<RateLimitDecision> {
    return this.consume(surfaceWindows(this.config.adminRateLimitPerMinute, surfaces, principal, endpoint));
  }

  async increment(key: string, ttl: number, limit: number, _blockDuration: number, name: string): Promise<ThrottlerStorageRecord> {
    const { allowed, reported } = await this.consume([{ name, key, limit, ttlMs: ttl }]);
    const secondsLeft = Math.max(0, Math.ceil((reported.resetAtMs - Date.now()) / 1000));
    return {
      totalHits: allowed ? limit - reported.remaining : limit + 1,
      timeToExpire: secondsLeft,
      isBlocked: !allowed,
      timeToBlockExpire: allowed ? 0 : secondsLeft,
    };
  }

  private warnFallback(error: Error): void {
    if (Date.now() - this.lastFallbackWarning < FALLBACK_WARN_EVERY_MS) return;
    this.lastFallbackWarning = Date.now();
    this.logger.write('warn', `Rate limits counted in this instance only: Redis failed (${error.message})`, { context: 'RateLimit' });
  }
}
