import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { settleWithin } from '../../common/async/settle-within';
import { RedisConnection } from '../../common/redis/redis-connection';

const CHECK_TIMEOUT_MS = 2_000;

@Injectable()
export class HealthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: RedisConnection,
  ) {}

  /**
   * The database, and Redis through the client that serves requests (commands fail at once while it is disconnected,
   * and the probe bounds a slow answer).
   */
  async check(): Promise<Record<string, 'ok' | 'down'>> {
    const checks: Record<string, 'ok' | 'down'> = {};
    checks.database = await probe(() => this.dataSource.query('SELECT 1'));
    const client = this.redis.client;
    if (client) checks.redis = await probe(() => client.ping());
    return checks;
  }
}

/** A dependency that fails or does not answer in time is `down`; the probe's answer says so, the error is not needed. */
async function probe(check: () => Promise<unknown>): Promise<'ok' | 'down'> {
  try {
    await settleWithin(check(), CHECK_TIMEOUT_MS, 'timeout');
    return 'ok';
  } catch {
    return 'down';
  }
}
