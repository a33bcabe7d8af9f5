import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

// Owns /health (liveness) and /health/ready (the database reachable, Redis reported, false once shutting down).
// Exports HealthService (main.ts fails readiness through it on SIGTERM).
@Module({ controllers: [HealthController], providers: [HealthService], exports: [HealthService] })
export class HealthModule {}
