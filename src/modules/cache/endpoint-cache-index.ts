import type { RedisClient } from '../../common/redis/redis-client';

/** Which cache keys belong to an endpoint, so its entries can be removed without scanning the cache. */
export abstract class EndpointCacheIndex {
  abstract add(endpointId: string, key: string, ttlMs: number): Promise<void>;
  /** The endpoint's keys, forgetting them. */
  abstract take(endpointId: string): Promise<string[]>;
}

/** A Redis set per endpoint that lives as long as its longest-lived entry. */
export class RedisEndpointCacheIndex extends EndpointCacheIndex {
  constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
  ) {
    super();
  }

  async add(endpointId: string, key: string, ttlMs: number): Promise<void> {
    this.assertReady();
    const name = this.nameOf(endpointId);
    // PEXPIRE GT never sets an expiry on a key without one, hence NX first: one round trip either way.
    await this.client.multi().sAdd(name, key).pExpire(name, ttlMs, 'NX').pExpire(name, ttlMs, 'GT').exec();
  }

  async take(endpointId: string): Promise<string[]> {
    this.assertReady();
    const name = this.nameOf(endpointId);
    // execTyped answers with each queued command's own reply type (SMEMBERS: an array, empty for a missing set).
    const [keys] = await this.client.multi().sMembers(name).del(name).execTyped();
    return keys;
  }

  /**
   * A MULTI is queued while the client is offline (the offline-queue setting covers single commands only). Callers
   * stop waiting after their deadline, and a queued MULTI nobody waits for would hold the client's close() until
   * Redis returned: fail at once instead, as single commands do.
   */
  private assertReady(): void {
    if (!this.client.isReady) throw new Error('Redis is not connected');
  }

  private nameOf(endpointId: string): string {
    return `${this.prefix}idx:${endpointId}`;
  }
}
