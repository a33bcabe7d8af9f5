// Owns the instance's Redis connections: one shared command client and the pub/sub subscriber, closed in order.
// Exports, globally, RedisConnection.
import { Global, Module } from '@nestjs/common';
import { RedisConnection } from './redis-connection';

@Global()
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
