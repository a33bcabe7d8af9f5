// Owns the response cache of execution answers (cache-manager: memory, or Redis with REDIS_URL) and its per-endpoint index.
// Exports ResponseCacheService (execution looks up and stores; a permanent endpoint delete empties an endpoint's entries).
import KeyvRedis from '@keyv/redis';
import { CacheModule } from '@nestjs/cache-manager';
import { Module } from '@nestjs/common';
import { Keyv } from 'keyv';
import { LRUCache } from 'lru-cache';
import { RedisConnection } from '../../common/redis/redis-connection';
import { EndpointCacheIndex, MemoryEndpointCacheIndex, RedisEndpointCacheIndex } from './endpoint-cache-index';
import { ResponseCacheService } from './response-cache.service';

const NAMESPACE = 'promptgate:cache';
/** In-process entries kept at most (least recently used go first); each also expires at its endpoint's TTL. */
const MEMORY_MAX_ENTRIES = 5_000;

/**
 * keyv's Redis store on the instance's shared connection. cache-manager disconnects its stores when the module is
 * destroyed, and keyv drops a client that failed to connect: the connection serves other features too and its owner
 * closes it at shutdown, so this store never does.
 */
class SharedConnectionRedisStore extends KeyvRedis<unknown> {
  async disconnect(): Promise<void> {}
}

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
    CacheModule.registerAsync({
      inject: [RedisConnection],
      useFactory: async (connection: RedisConnection) => {
        if (!connection.client) return { stores: [new Keyv({ store: boundedMemoryStore(MEMORY_MAX_ENTRIES) })] };
        await connection.ready();
        const store = new SharedConnectionRedisStore(connection.client, {
          namespace: NAMESPACE,
          keyPrefixSeparator: ':',
        });
        // keyv turns Redis failures into misses and no-op stores, and reports them as 'error' events (ResponseCacheService logs them).
        return { stores: [new Keyv(store, { namespace: NAMESPACE, useKeyPrefix: false })] };
      },
    }),
  ],
  providers: [
    ResponseCacheService,
    {
      provide: EndpointCacheIndex,
      inject: [RedisConnection],
      useFactory: (connection: RedisConnection) =>
        connection.client
          ? new RedisEndpointCacheIndex(connection.client, `${NAMESPACE}:`)
          : new MemoryEndpointCacheIndex(MEMORY_MAX_ENTRIES),
    },
  ],
  exports: [ResponseCacheService],
})
export class ResponseCacheModule {}
