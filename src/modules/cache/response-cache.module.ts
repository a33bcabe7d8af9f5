// Owns the response cache of execution answers (cache-manager: memory, or Redis with REDIS_URL) and its per-endpoint index.
// Exports ResponseCacheService (execution looks up and stores; a permanent endpoint delete empties an endpoint's entries).
import KeyvRedis from '@keyv/redis';
import { CacheModule } from '@nestjs/cache-manager';
import { Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { Keyv } from 'keyv';
import { LRUCache } from 'lru-cache';
import { AppLogger } from '../../common/logging/app-logger';
import { closeRedisClient, createRedisClient, type RedisClient, whenReady } from '../../common/redis/redis-client';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { EndpointCacheIndex, MemoryEndpointCacheIndex, RedisEndpointCacheIndex } from './endpoint-cache-index';
import { ResponseCacheService } from './response-cache.service';

const NAMESPACE = 'promptgate:cache';
/** In-process entries kept at most (least recently used go first); each also expires at its endpoint's TTL. */
const MEMORY_MAX_ENTRIES = 5_000;

/** The Redis connection of the cache (null without REDIS_URL), shared by the cache store and the index. */
@Injectable()
class CacheConnection implements OnApplicationShutdown {
  readonly client: RedisClient | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig, logger: AppLogger) {
    this.client = config.redisUrl ? createRedisClient(config.redisUrl, 'cache', logger) : null;
  }

  ready(): Promise<boolean> {
    return this.client ? whenReady(this.client) : Promise.resolve(true);
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedisClient(this.client ?? undefined);
  }
}

@Module({ providers: [CacheConnection], exports: [CacheConnection] })
class CacheConnectionModule {}

/** keyv's in-memory store is an unbounded Map; this gives it the Map interface over a bounded LRU. */
function boundedMemoryStore(max: number) {
  const lru = new LRUCache<string, object>({ max });
  return {
    get: (key: string) => lru.get(key),
    set: (key: string, value: object) => lru.set(key, value),
    delete: (key: string) => lru.delete(key),
    has: (key: string) => lru.has(key),
    clear: () => lru.clear(),
    keys: () => lru.keys(),
    entries: () => lru.entries(),
  };
}

@Module({
  imports: [
    CacheConnectionModule,
    CacheModule.registerAsync({
      imports: [CacheConnectionModule],
      inject: [CacheConnection],
      useFactory: async (connection: CacheConnection) => {
        if (!connection.client) return { stores: [new Keyv({ store: boundedMemoryStore(MEMORY_MAX_ENTRIES) })] };
        await connection.ready();
        const store = new KeyvRedis(connection.client, { namespace: NAMESPACE, keyPrefixSeparator: ':' });
        // keyv turns Redis failures into misses and no-op stores, and reports them as 'error' events (ResponseCacheService logs them).
        return { stores: [new Keyv(store, { namespace: NAMESPACE, useKeyPrefix: false })] };
      },
    }),
  ],
  providers: [
    ResponseCacheService,
    {
      provide: EndpointCacheIndex,
      inject: [CacheConnection],
      useFactory: (connection: CacheConnection) =>
        connection.client ? new RedisEndpointCacheIndex(connection.client, `${NAMESPACE}:`) : new MemoryEndpointCacheIndex(MEMORY_MAX_ENTRIES),
    },
  ],
  exports: [ResponseCacheService],
})
export class ResponseCacheModule {}
