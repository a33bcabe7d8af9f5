import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { settleWithin } from '../../common/async/settle-within';
import { RedisConnection } from '../../common/redis/redis-connection';

const CHECK_TIMEOUT_MS = 2_000;

export type CheckState = 'ok' | 'down';

export interface Readiness {
  /**
   * `ok`: every dependency answers. `degraded`: the service answers, without something it can do without (Redis: the
   * cache and rate limits fall back to this instance's memory). `unavailable`: it cannot serve (the database is
   * away). `stopping`: it is shutting down.
   */
  status: 'ok' | 'degraded' | 'unavailable' | 'stopping';
  checks?: Record<string, CheckState>;
}

@Injectable()
export class HealthService {
  private stopping = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: RedisConnection,
  ) {}

  /** From now on readiness fails, so load balancers take the instance out before it stops accepting connections. */
  beginShutdown(): void {
    this.stopping = true;
  }

  /**
   * Ready unless stopping or the database is away: every instance shares the same Redis, so failing readiness on it
   * would take them all out of the load balancer at once while they still answer without it.
   */
  async readiness(): Promise<Readiness> {
    if (this.stopping) return { status: 'stopping' };
    const checks = await this.check();
    if (checks.database !== 'ok') return { status: 'unavailable', checks };
    return { status: Object.values(checks).every((state) => state === 'ok') ? 'ok' : 'degraded', checks };
  }

  /**
   * The database, and Redis through the client that serves requests (commands fail at once while it is disconnected,
   * and the probe bounds a slow answer).
   */
  async check(): Promise<Record<string, CheckState>> {
    const checks: Record<string, CheckState> = {};
    const client = this.redis.client;
    const [database, redis] = await Promise.all([
      probe(() => this.dataSource.query('SELECT 1')),
      client ? probe(() => client.ping()) : undefined,
    ]);
    checks.database = database;
    if (redis) checks.redis = redis;
    return checks;
  }
}

/** A dependency that fails or does not answer in time is `down`; the probe's answer says so, the error is not needed. */
async function probe(check: () => Promise<unknown>): Promise<CheckState> {
  try {
    await settleWithin(check(), CHECK_TIMEOUT_MS, 'timeout');
    return 'ok';
  } catch {
    return 'down';
  }
}
