import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
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
import { surfaceWindows } from './surface-windows';

const FALLBACK_WARN_EVERY_MS = 30_000;

/**
 * The rate-limit counters: in Redis with REDIS_URL (shared by every instance), else in process memory. Redis down:
 * fail open to per-instance counters, with a warning, so the service keeps answering and still limits each key.
 */
@Injectable()
export class RateLimitService extends RateLimiter implements OnModuleInit, OnApplicationShutdown {
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

  private warnFallback(error: Error): void {
    if (Date.now() - this.lastFallbackWarning < FALLBACK_WARN_EVERY_MS) return;
    this.lastFallbackWarning = Date.now();
    this.logger.write('warn', `Rate limits counted in this instance only: Redis failed (${error.message})`, { context: 'RateLimit' });
  }
}
