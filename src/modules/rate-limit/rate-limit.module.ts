// Owns the rate-limit counters (memory or Redis) and the named @nestjs/throttler windows of both surfaces.
// Exports, globally, the RateLimiter port the admin and execution throttler guards count through.
import { ExecutionContext, Global, Module } from '@nestjs/common';
import { minutes, hours, days, ThrottlerModule, type ThrottlerOptions } from '@nestjs/throttler';
import {
  ADMIN_THROTTLER_PREFIX,
  ENDPOINT_THROTTLER_PREFIX,
  type RateLimitedRequest,
} from '../../common/rate-limit/key-throttler.guard';
import type { EndpointRateLimits } from '../../common/rate-limit/rate-limiter';
import { RateLimiter } from '../../common/rate-limit/rate-limiter';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { RateLimitService } from './rate-limit.service';

const requestOf = (context: ExecutionContext) => context.switchToHttp().getRequest<RateLimitedRequest>();
const limitsOf = (context: ExecutionContext) => {
  const principal = requestOf(context).principal;
  if (!principal) throw new Error('Rate limits need an authenticated key');
  return principal.rateLimits;
};

const WINDOWS = [
  { suffix: 'minute', ttl: minutes(1), keyLimit: 'perMinute', endpointLimit: 'rateLimitPerMinute' },
  { suffix: 'hour', ttl: hours(1), keyLimit: 'perHour', endpointLimit: 'rateLimitPerHour' },
  { suffix: 'day', ttl: days(1), keyLimit: 'perDay', endpointLimit: 'rateLimitPerDay' },
] as const;

/**
 * decisions.md §5: each key's minute/hour/day limits (the key's overrides or the defaults, carried by the principal),
 * plus an endpoint's own limits, per key per endpoint, when set (null = no window); admin routes: one per-key window.
 */
export function throttlerDefinitions(config: Pick<AppConfig, 'adminRateLimitPerMinute'>): ThrottlerOptions[] {
  const endpointLimit = (context: ExecutionContext, field: keyof Omit<EndpointRateLimits, 'id'>) =>
    requestOf(context).rateLimitEndpoint?.[field] ?? null;
  return [
    ...WINDOWS.map(({ suffix, ttl, keyLimit }) => ({ name: suffix, ttl, limit: (c: ExecutionContext) => limitsOf(c)[keyLimit] })),
    ...WINDOWS.map(({ suffix, ttl, endpointLimit: field }) => ({
      name: `${ENDPOINT_THROTTLER_PREFIX}${suffix}`,
      ttl,
      limit: (c: ExecutionContext) => endpointLimit(c, field) ?? 0,
      skipIf: (c: ExecutionContext) => endpointLimit(c, field) === null,
    })),
    { name: `${ADMIN_THROTTLER_PREFIX}-minute`, ttl: minutes(1), limit: config.adminRateLimitPerMinute },
  ];
}

@Module({ providers: [RateLimitService], exports: [RateLimitService] })
class RateLimitStorageModule {}

@Global()
@Module({
  imports: [
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule],
      inject: [RateLimitService, APP_CONFIG],
      useFactory: (storage: RateLimitService, config: AppConfig) => ({
        throttlers: throttlerDefinitions(config),
        storage,
        setHeaders: false,
      }),
    }),
  ],
  providers: [{ provide: RateLimiter, useExisting: RateLimitService }],
  exports: [RateLimiter],
})
export class RateLimitModule {}
