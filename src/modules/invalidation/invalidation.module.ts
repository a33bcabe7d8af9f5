// Owns cross-instance invalidation: Redis pub/sub, PostgreSQL LISTEN/NOTIFY, or in-process (embedded).
// Exports the InvalidationBus that the in-memory caches of keys, endpoints and prompts and the response cache subscribe to (one
// instance, however many modules import it).
import { Module } from '@nestjs/common';
import { RedisModule } from '../../common/redis/redis.module';
import { InvalidationBus } from './invalidation-bus';
import { InvalidationService } from './invalidation.service';

@Module({
  imports: [RedisModule],
  providers: [InvalidationService, { provide: InvalidationBus, useExisting: InvalidationService }],
  exports: [InvalidationBus],
})
export class InvalidationModule {}
