import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { settleWithin } from '../../common/async/settle-within';
import { AppLogger } from '../../common/logging/app-logger';
import { closeRedisClient, createRedisClient, type RedisClient } from '../../common/redis/redis-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

const CHECK_TIMEOUT_MS = 2_000;

@Injectable()
export class HealthService implements OnApplicationShutdown {
  /** A request-path client: commands fail at once while Redis is down, and the probe bounds a slow answer. */
  private readonly redis?: RedisClient;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    logger: AppLogger,
  ) {
    if (config.redisUrl) this.redis = createRedisClient(config.redisUrl, 'health', logger);
  }

  async check(): Promise<Record<string, 'ok' | 'down'>> {
    const checks: Record<string, 'ok' | 'down'> = {};
    checks.database = await probe(() => this.dataSource.query('SELECT 1'));
    if (this.redis) checks.redis = await probe(() => this.redis!.ping());
    return checks;
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedisClient(this.redis);
  }
}

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'down'> {
  try {
    await settleWithin(check(), CHECK_TIMEOUT_MS, 'timeout');
    return 'ok';
  } catch {
    return 'down';
  }
}
