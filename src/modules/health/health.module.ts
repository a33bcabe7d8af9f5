import { Module } from '@nestjs/common';
import { RedisModule } from '../../common/redis/redis.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

// Owns /health (liveness) and /health/ready (the database reachable, Redis reported, false once shutting down).
// Exports HealthService (main.ts fails readiness through it on SIGTERM).
@Module({
  imports: [RedisModule],
  controllers: [HealthController],
  providers: [HealthService],
  exports: [HealthService],
})
export class HealthModule {}
