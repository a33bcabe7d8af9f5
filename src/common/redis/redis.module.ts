// Owns the instance's Redis connections: one shared command client and the pub/sub subscriber, closed in order.
// Exports RedisConnection to the modules that keep something in Redis (rate limits, the response cache, invalidation,
// health).
import { Module } from '@nestjs/common';
import { RedisConnection } from './redis-connection';

@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
