// Owns the response cache of execution answers (in process, bounded by bytes per tenant; or Redis with REDIS_URL,
// through cache-manager).
// Exports ResponseCacheService (execution looks up and stores; a permanent endpoint delete empties an endpoint's entries).
import KeyvRedis from '@keyv/redis';
import { Module } from '@nestjs/common';
import { createCache } from 'cache-manager';
import { Keyv } from 'keyv';
import { RedisConnection } from '../../common/redis/redis-connection';
import { Clock } from '../../common/time/clock';
import { RedisModule } from '../../common/redis/redis.module';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { InvalidationModule } from '../invalidation/invalidation.module';
import { RedisEndpointCacheIndex } from './endpoint-cache-index';
import { MemoryResponseStore } from './memory-response-store';
import { ResponseCacheService } from './response-cache.service';
import { InProcessResponseStore, RedisResponseStore, ResponseStore } from './response-store';

const NAMESPACE = 'promptgate:cache';

/**
 * keyv's Redis store on the instance's shared connection. keyv drops a client that failed to connect: the connection
 * serves other features too and its owner closes it at shutdown, so this store never does.
 */
class SharedConnectionRedisStore extends KeyvRedis<unknown> {
  async disconnect(): Promise<void> {}
}

async function storeOf(connection: RedisConnection, config: AppConfig, clock: Clock): Promise<ResponseStore> {
  if (!connection.client) return new InProcessResponseStore(new MemoryResponseStore(config.cache, clock));
  await connection.ready();
  const store = new SharedConnectionRedisStore(connection.client, { namespace: NAMESPACE, keyPrefixSeparator: ':' });
  // keyv turns Redis failures into misses and no-op stores, and reports them as 'error' events (ResponseCacheService logs them).
  const keyv = new Keyv(store, { namespace: NAMESPACE, useKeyPrefix: false });
  return new RedisResponseStore(
    createCache({ stores: [keyv] }),
    keyv,
    new RedisEndpointCacheIndex(connection.client, `${NAMESPACE}:`),
    clock,
  );
}

@Module({
  imports: [RedisModule, InvalidationModule],
  providers: [
    ResponseCacheService,
    { provide: ResponseStore, inject: [RedisConnection, APP_CONFIG, Clock], useFactory: storeOf },
  ],
  exports: [ResponseCacheService],
})
export class ResponseCacheModule {}
