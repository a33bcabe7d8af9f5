// Owns the rate-limit counters (memory or Redis) and the windows of each surface (admin, execution).
// Exports, globally, the RateLimiter port the admin and execution guards and the MCP tools count through.
import { Global, Module } from '@nestjs/common';
import { RateLimiter } from '../../common/rate-limit/rate-limiter';
import { RateLimitService } from './rate-limit.service';

@Global()
@Module({
  providers: [RateLimitService, { provide: RateLimiter, useExisting: RateLimitService }],
  exports: [RateLimiter],
})
export class RateLimitModule {}
