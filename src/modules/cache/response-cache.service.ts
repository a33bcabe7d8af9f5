import { CACHE_MANAGER, type Cache } from '@nestjs/cache-manager';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { AppLogger } from '../../common/logging/app-logger';
import { withinRedisDeadline } from '../../common/redis/redis-client';
import { InvalidationBus } from '../invalidation/invalidation-bus';
import { ENDPOINT_DELETED_TOPIC } from '../invalidation/topics';
import { EndpointCacheIndex } from './endpoint-cache-index';

/** A successful execution answer as cached: the body sent, and what its log row shows. */
export interface CachedResponse {
  body: unknown;
  /** The prompt the answer was produced from (absent in entries stored before it was kept). */
  renderedPrompt?: string;
  rawResponse: string | null;
  parsedOutput: unknown;
  /** Why the model stopped (absent in entries stored before it was kept). */
  finishReason?: string | null;
}

const WARN_EVERY_MS = 30_000;

/**
 * Execution answers by cache key (see cache-key.ts), in memory or Redis through cache-manager. A cache outage costs
 * only the cache: lookups miss and stores are skipped, never an error. A permanent endpoint delete removes the
 * endpoint's entries through the per-endpoint index (no key scan).
 */
@Injectable()
export class ResponseCacheService implements OnModuleInit {
  private lastWarning = 0;

  constructor(
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
    private readonly index: EndpointCacheIndex,
    private readonly bus: InvalidationBus,
    private readonly logger: AppLogger,
  ) {}

  onModuleInit(): void {
    // Failures keyv absorbs (a miss, a skipped store) are reported as events; the deadlines below, as errors. One
    // warning covers both, at most twice a minute.
    for (const store of this.cache.stores) store.on('error', (error: unknown) => this.warn(error));
    this.bus.subscribe(ENDPOINT_DELETED_TOPIC, (endpointId) =>
      endpointId ? this.removeEndpoint(endpointId) : undefined,
    );
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    try {
      return (await withinRedisDeadline(this.cache.get<CachedResponse>(key))) ?? undefined;
    } catch (error) {
      this.warn(error);
      return undefined;
    }
  }

  /** TTL in seconds (the endpoint's cacheDurationSeconds); cache-manager takes milliseconds. */
  async set(endpointId: string, key: string, value: CachedResponse, ttlSeconds: number): Promise<void> {
    const ttlMs = ttlSeconds * 1000;
    try {
      await withinRedisDeadline(this.index.add(endpointId, key, ttlMs));
      await withinRedisDeadline(this.cache.set(key, value, ttlMs));
    } catch (error) {
      this.warn(error);
    }
  }

  async removeEndpoint(endpointId: string): Promise<void> {
    try {
      const keys = await withinRedisDeadline(this.index.take(endpointId));
      if (keys.length > 0) await withinRedisDeadline(this.cache.mdel(keys));
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
