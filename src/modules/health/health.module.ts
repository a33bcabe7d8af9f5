import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

// Owns /health (liveness) and /health/ready (database and Redis reachable).
// Exports nothing.
@Module({ controllers: [HealthController], providers: [HealthService] })
export class HealthModule {}
