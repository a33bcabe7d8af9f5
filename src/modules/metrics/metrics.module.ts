import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';

// Owns GET /metrics, the Prometheus exposition of the Metrics every module counts in (provided by common/).
// Exports nothing.
@Module({ controllers: [MetricsController] })
export class MetricsModule {}
