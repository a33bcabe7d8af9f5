import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ApiInteger } from '../http/api-schema.decorators';
import { MAX_INTEGER } from '../http/integer-bounds';
import type { RateLimitSettings } from './rate-limit-settings';

/** The rate-limit settings of a request (an endpoint's or a key's): each optional, null for none of its own. */
export class RateLimitSettingsDto implements Partial<RateLimitSettings> {
  /** Requests per minute allowed to each key, 1..2147483647; null for none of its own (an endpoint: no limit; a key: the default, 60). */
  @ApiInteger()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER)
  rateLimitPerMinute?: number | null;

  /** Requests per hour allowed to each key, 1..2147483647; null for none of its own (an endpoint: no limit; a key: the default, 1,000). */
  @ApiInteger()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER)
  rateLimitPerHour?: number | null;

  /** Requests per day allowed to each key, 1..2147483647; null for none of its own (an endpoint: no limit; a key: the default, 10,000). */
  @ApiInteger()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER)
  rateLimitPerDay?: number | null;
}

/** An endpoint's own per-key limits as stored; null for none. */
export class RateLimitSettingsResponse implements RateLimitSettings {
  /** Per-key requests per minute on this endpoint; null for no endpoint limit. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  rateLimitPerMinute: number | null;
  /** Per-key requests per hour on this endpoint; null for no endpoint limit. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  rateLimitPerHour: number | null;
  /** Per-key requests per day on this endpoint; null for no endpoint limit. */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  rateLimitPerDay: number | null;
}

/** A key's limits in force: its own setting or the default. */
export class RateLimitsInForceResponse {
  /** The limits in force (the key's override or the default). */
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  rateLimitPerMinute: number;
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  rateLimitPerHour: number;
  @ApiInteger({ minimum: 1, maximum: MAX_INTEGER })
  rateLimitPerDay: number;
}
