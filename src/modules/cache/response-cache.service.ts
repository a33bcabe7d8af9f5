import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { AppLogger } from '../../common/logging/app-logger';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { InvalidationBus } from '../invalidation/invalidation-bus';
import { ENDPOINT_DELETED_TOPIC } from '../invalidation/topics';
import { type CachedResponse, type CacheOwner, ResponseStore } from './response-store';

export type { CachedResponse, CacheOwner } from './response-store';

const WARN_EVERY_MS = 30_000;

/**
 * Execution answers by cache key (see cache-key.ts), in memory or Redis (see ResponseStore). An answer larger than
 * CACHE_MAX_ENTRY_BYTES of JSON is served but never stored, in either. A cache outage costs only the cache: lookups
 * miss and stores are skipped, never an error. A permanent endpoint delete removes the endpoint's entries.
 */
@Injectable()
export class ResponseCacheService implements OnModuleInit {
  private lastWarning = 0;

  constructor(
    private readonly store: ResponseStore,
    private readonly bus: InvalidationBus,
    private readonly logger: AppLogger,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'cache'>,
  ) {}

  onModuleInit(): void {
    // Failures the store absorbs (a miss, a skipped store) are reported as events; the deadlines, as errors. One
    // warning covers both, at most twice a minute.
    this.store.onFailure((error) => this.warn(error));
    this.bus.subscribe(ENDPOINT_DELETED_TOPIC, (endpointId) =>
      endpointId ? this.removeEndpoint(endpointId) : undefined,
    );
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    try {
      return await this.store.get(key);
    } catch (error) {
      this.warn(error);
      return undefined;
    }
  }

  /**
   * Stores the answer for `ttlSeconds` (the endpoint's cacheDurationSeconds), counted against its tenant's share of
   * the in-process cache; an answer over the entry cap is not stored (the caller has served it already).
   */
  async set(owner: CacheOwner, key: string, value: CachedResponse, ttlSeconds: number): Promise<void> {
    const text = JSON.stringify(value);
    // Every UTF-16 unit is at least one byte of UTF-8: a text this long is too large without counting its bytes.
    if (text.length > this.config.cache.maxEntryBytes) return;
    if (Buffer.byteLength(text, 'utf8') > this.config.cache.maxEntryBytes) return;
    try {
      await this.store.set(owner, key, value, text, ttlSeconds * 1000);
    } catch (error) {
      this.warn(error);
    }
  }

  async removeEndpoint(endpointId: string): Promise<void> {
    try {
      await this.store.removeEndpoint(endpointId);
    } catch (error) {
      this.warn(error);
    }
  }

  private warn(error: unknown): void {
    if (Date.now() - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = Date.now();
    this.logger.write('warn', `Response cache unavailable, serving uncached: ${(error as Error)?.message ?? error}`, {
      context: 'ResponseCache',
    });
  }
}
