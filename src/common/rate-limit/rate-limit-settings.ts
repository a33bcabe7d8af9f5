import { Column } from 'typeorm';
import type { RateLimits } from '../auth/principal';

/**
 * The per-key request limits an endpoint or a key may set for itself, one per window, each from 1 to the int4
 * maximum. Null is "none of its own": an endpoint then adds no window of its own, a key counts against the defaults.
 */
export interface RateLimitSettings {
  rateLimitPerMinute: number | null;
  rateLimitPerHour: number | null;
  rateLimitPerDay: number | null;
}

/** Which setting limits which window, and the principal's limit of that window. */
export const RATE_LIMIT_WINDOWS = [
  { window: 'minute', setting: 'rateLimitPerMinute', keyLimit: 'perMinute' },
  { window: 'hour', setting: 'rateLimitPerHour', keyLimit: 'perHour' },
  { window: 'day', setting: 'rateLimitPerDay', keyLimit: 'perDay' },
] as const satisfies readonly { window: string; setting: keyof RateLimitSettings; keyLimit: keyof RateLimits }[];

export const RATE_LIMIT_SETTINGS = RATE_LIMIT_WINDOWS.map(({ setting }) => setting);

/** A key's limits when it sets none of its own. */
export const DEFAULT_RATE_LIMITS: RateLimits = { perMinute: 60, perHour: 1000, perDay: 10000 };

/** The settings of a new record that sets none. */
export const NO_RATE_LIMITS: RateLimitSettings = {
  rateLimitPerMinute: null,
  rateLimitPerHour: null,
  rateLimitPerDay: null,
};

/** The three nullable int4 columns holding the settings, shared by the tables of the records that have them. */
export abstract class RateLimitColumns implements RateLimitSettings {
  @Column({ type: 'int', nullable: true }) rateLimitPerMinute: number | null;
  @Column({ type: 'int', nullable: true }) rateLimitPerHour: number | null;
  @Column({ type: 'int', nullable: true }) rateLimitPerDay: number | null;
}

/** Just the settings of a record (or of a partial input, absent ones as null), listed explicitly so nothing else leaks. */
export function rateLimitSettingsOf(source: Partial<RateLimitSettings>): RateLimitSettings {
  return {
    rateLimitPerMinute: source.rateLimitPerMinute ?? null,
    rateLimitPerHour: source.rateLimitPerHour ?? null,
    rateLimitPerDay: source.rateLimitPerDay ?? null,
  };
}

/** The limits a key's requests count against: its own settings, or the defaults where it sets none. */
export function rateLimitsInForce(settings: RateLimitSettings): RateLimits {
  return {
    perMinute: settings.rateLimitPerMinute ?? DEFAULT_RATE_LIMITS.perMinute,
    perHour: settings.rateLimitPerHour ?? DEFAULT_RATE_LIMITS.perHour,
    perDay: settings.rateLimitPerDay ?? DEFAULT_RATE_LIMITS.perDay,
  };
}

/** The same limits in force, as the settings name them (a key's record shows them so). */
export function rateLimitSettingsInForce(settings: RateLimitSettings): { [K in keyof RateLimitSettings]: number } {
  const limits = rateLimitsInForce(settings);
  return { rateLimitPerMinute: limits.perMinute, rateLimitPerHour: limits.perHour, rateLimitPerDay: limits.perDay };
}
