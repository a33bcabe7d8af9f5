import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import {
  type EndpointRateLimits,
  KeyThrottlerStorage,
  type RateLimitDecision,
  RateLimiter,
  type RateLimitSurface,
} from './rate-limiter';
import { type PerMinuteLimits, perMinuteLimitsOf, surfaceWindows } from './surface-windows';
import { WindowAdmission } from './window-admission';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

/** Rate limits outside an HTTP guard (MCP tool calls): the guards' windows, in the guards' storage. */
@Injectable()
export class RateLimitService extends RateLimiter {
  private readonly perMinute: PerMinuteLimits;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly storage: KeyThrottlerStorage,
  ) {
    super();
    this.perMinute = perMinuteLimitsOf(config);
  }

  async consumeFor(
    principal: Principal,
    surfaces: readonly RateLimitSurface[],
    endpoint?: EndpointRateLimits | null,
  ): Promise<RateLimitDecision> {
    const admission = new WindowAdmission(this.storage);
    for (const window of surfaceWindows(this.perMinute, surfaces, principal, endpoint)) {
      admission.count(window);
    }
    return admission.decision();
  }
}
