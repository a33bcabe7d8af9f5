// Owns cross-instance invalidation: Redis pub/sub, PostgreSQL LISTEN/NOTIFY, or in-process (embedded).
// Exports, globally, the InvalidationBus that in-memory caches of keys, endpoints and prompts subscribe to.
import { Global, Module } from '@nestjs/common';
import { InvalidationBus } from './invalidation-bus';
import { InvalidationService } from './invalidation.service';

@Global()
@Module({
  providers: [InvalidationService, { provide: InvalidationBus, useExisting: InvalidationService }],
  exports: [InvalidationBus],
})
export class InvalidationModule {}
