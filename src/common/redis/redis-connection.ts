import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { AppLogger } from '../logging/app-logger';
import { closeRedisClient, createRedisClient, type RedisClient, whenReady } from './redis-client';

/**
 * The instance's Redis connections (REDIS_URL): one command client that every feature shares (response cache, rate
 * limits, the invalidation bus's publishes, the readiness probe), and the one subscriber connection pub/sub needs (a
 * subscribed connection takes no other command). Created here only; the owners of the data never close them. At
 * shutdown, after the HTTP server has closed, the subscriber closes first, then the command client.
 */
@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  /** The name this instance's connections carry in CLIENT LIST: `<name>` and `<name>-subscriber`. */
  readonly name = `promptgate-${randomUUID().slice(0, 8)}`;
  /** Null without REDIS_URL. */
  readonly client: RedisClient | null;
  private subscriberClient?: RedisClient;
  private readyAtStart?: Promise<boolean>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly logger: AppLogger,
  ) {
    this.client = config.redisUrl ? createRedisClient(config.redisUrl, this.name, logger) : null;
  }

  /** Waits (at start) until the client is ready or its connect timeout passed: a down Redis never blocks the start. */
  async onModuleInit(): Promise<void> {
    await this.ready();
  }

  /** Whether the client became ready at start; one wait, however many modules ask (each would start its own timeout). */
  ready(): Promise<boolean> {
    this.readyAtStart ??= this.client ? whenReady(this.client) : Promise.resolve(false);
    return this.readyAtStart;
  }

  /** The dedicated subscriber connection, opened on first use (null without REDIS_URL). */
  subscriber(): RedisClient | null {
    if (!this.config.redisUrl) return null;
    this.subscriberClient ??= createRedisClient(this.config.redisUrl, `${this.name}-subscriber`, this.logger);
    return this.subscriberClient;
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedisClient(this.subscriberClient);
    await closeRedisClient(this.client ?? undefined);
  }
}
