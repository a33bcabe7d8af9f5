import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createClient } from '@redis/client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

type RedisClient = ReturnType<typeof createClient>;
const CHECK_TIMEOUT_MS = 2_000;

@Injectable()
export class HealthService implements OnApplicationShutdown {
  private redis?: RedisClient;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(): Promise<Record<string, 'ok' | 'down'>> {
    const checks: Record<string, 'ok' | 'down'> = {};
    checks.database = await probe(() => this.dataSource.query('SELECT 1'));
    if (this.config.redisUrl) checks.redis = await probe(() => this.redisClient().then((client) => client.ping()));
    return checks;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close().catch(() => undefined);
  }

  private async redisClient(): Promise<RedisClient> {
    if (!this.redis) {
      this.redis = createClient({ url: this.config.redisUrl, socket: { connectTimeout: CHECK_TIMEOUT_MS, reconnectStrategy: false } });
      this.redis.on('error', () => undefined);
    }
    if (!this.redis.isOpen) await this.redis.connect();
    return this.redis;
  }
}

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}
